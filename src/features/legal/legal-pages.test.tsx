// The legal pages: effective date, the spec's sections in order, one h1 and the page title.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../components/testing/render';
import { PrivacyPage } from './privacy-page';
import { TermsPage } from './terms-page';

const sectionHeadings = () =>
  screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('legal pages', { timeout: 30_000 }, () => {
  it('shows the Terms of Service effective July 11, 2025 with its ten sections', () => {
    renderWithProviders(<TermsPage />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Terms of Service');
    expect(screen.getByText('Effective date: July 11, 2025')).toBeInTheDocument();
    expect(sectionHeadings()).toEqual([
      '1. Acceptance of the terms',
      '2. Modifications to the terms and the Service',
      '3. Use of the Service',
      '4. Account registration',
      '5. Support',
      '6. Governing law',
      '7. Limitation of liability',
      '8. Termination',
      '9. Data privacy',
      '10. Contact',
    ]);
    expect(screen.getByText(/governed by the laws of the United States/)).toBeInTheDocument();
    expect(document.title).toBe('Terms of Service · tinyback.tools');
  });

  it('shows the Privacy Policy with its sections, the one-month answer and the copy fee', () => {
    renderWithProviders(<PrivacyPage />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Privacy Policy');
    expect(sectionHeadings()).toEqual([
      '1. Consent',
      '2. Information we collect',
      '3. How we use your information',
      '4. Log files',
      '5. Cookies and web beacons',
      '6. Advertising partners',
      '7. CCPA privacy rights (do not sell my personal information)',
      '8. GDPR data protection rights',
      "9. Children's information",
    ]);
    expect(screen.getAllByText(/one month to respond/).length).toBeGreaterThan(0);
    expect(screen.getByText(/small fee/)).toBeInTheDocument();
    expect(screen.getByText(/children under the age of 13/)).toBeInTheDocument();
    expect(document.title).toBe('Privacy Policy · tinyback.tools');
  });
});
