import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, SLOW } from '../../components/testing/render';
import { BookingPreviewPage } from './booking-preview-page';

function renderPreview(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/book/:id" element={<BookingPreviewPage />} />
    </Routes>,
    { route },
  );
}

describe('BookingPreviewPage', { timeout: 30_000 }, () => {
  it('shows the public page of a sample form', async () => {
    renderPreview('/book/cal1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Intro call' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText('Online booking opens soon')).toBeInTheDocument();
  });

  it('says when a booking link does not exist', async () => {
    renderPreview('/book/nope');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Booking link not found' }, SLOW),
    ).toBeInTheDocument();
  });
});
