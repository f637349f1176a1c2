// The footer: the newsletter slot, the spec's links, three social links, the year and the notice.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../testing/render';
import { site } from '../../config/site';
import { Footer } from './footer';

describe('Footer', { timeout: 30_000 }, () => {
  it('links the public pages and shows the current year with "All rights reserved"', () => {
    renderWithProviders(<Footer newsletter={<p>newsletter slot</p>} />);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('newsletter slot')).toBeInTheDocument();
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    for (const path of [
      '/',
      '/blog',
      '/pricing',
      '/tools',
      '/terms-of-service',
      '/privacy-policy',
    ]) {
      expect(hrefs).toContain(path);
    }
    for (const network of ['GitHub', 'X', 'LinkedIn']) {
      expect(within(footer).getByRole('link', { name: `tinyback on ${network}` })).toHaveAttribute(
        'target',
        '_blank',
      );
    }
    expect(footer).toHaveTextContent(
      `© ${new Date().getFullYear()} tinyback.tools. All rights reserved.`,
    );
  });

  it("links the repository icon to the project's repository from the one site setting", () => {
    renderWithProviders(<Footer />);
    expect(screen.getByRole('link', { name: 'tinyback on GitHub' })).toHaveAttribute(
      'href',
      site.repositoryUrl,
    );
    expect(site.repositoryUrl).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  });
});
