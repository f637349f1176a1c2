import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../../components/testing/render';
import { peekSignupEmail } from '../../../lib/signup-prefill';
import { Hero } from './hero';

function renderHero() {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<Hero />} />
      <Route path="/register" element={<p>register page</p>} />
    </Routes>,
  );
}

describe('Hero', { timeout: 30_000 }, () => {
  beforeEach(() => sessionStorage.clear());

  it('stores the e-mail and goes to the register page', async () => {
    const user = userEvent.setup();
    renderHero();
    await user.type(screen.getByLabelText('Your email address'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: /Get Started Free/ }));
    expect(await screen.findByText('register page')).toBeInTheDocument();
    expect(peekSignupEmail()).toBe('ada@example.com');
  });

  it('does nothing with an empty e-mail', async () => {
    const user = userEvent.setup();
    renderHero();
    await user.type(screen.getByLabelText('Your email address'), '   ');
    await user.click(screen.getByRole('button', { name: /Get Started Free/ }));
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('register page')).not.toBeInTheDocument();
    expect(peekSignupEmail()).toBe('');
    expect(screen.getByText('No credit card required.')).toBeInTheDocument();
  });
});
