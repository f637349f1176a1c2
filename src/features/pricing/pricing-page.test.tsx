import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../components/testing/render';
import { PricingPage } from './pricing-page';

function prices() {
  return ['starter', 'pro', 'enterprise'].map(
    (id) => screen.getByTestId(`price-${id}`).textContent,
  );
}

describe('PricingPage', { timeout: 30_000 }, () => {
  it('shows monthly prices by default and annual prices after the switch', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PricingPage />);
    expect(prices()).toEqual(['€9/ month', '€19/ month', '€49/ month']);
    await user.click(screen.getByText('Annual · 2 months free'));
    expect(prices()).toEqual(['€90/ year', '€190/ year', '€490/ year']);
    await user.click(screen.getByText('Monthly'));
    expect(prices()).toEqual(['€9/ month', '€19/ month', '€49/ month']);
  });

  it("marks only Pro as 'Most Popular' and links every plan to /auth with its id", () => {
    renderWithProviders(<PricingPage />);
    const badges = screen.getAllByText('Most Popular');
    expect(badges).toHaveLength(1);
    const pro = screen.getByRole('article', { name: 'Pro' });
    expect(within(pro).getByText('Most Popular')).toBeInTheDocument();
    expect(within(pro).getByRole('link', { name: /Get Started/ })).toHaveAttribute(
      'href',
      '/auth?plan=pro',
    );
    expect(document.title).toBe('Pricing · tinyback.tools');
  });
});
