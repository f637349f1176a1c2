import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../components/testing/render';
import { SELF_HOSTING_GUIDE_URL, site } from '../../config/site';
import { PricingPage } from './pricing-page';

function prices() {
  return ['starter', 'pro', 'enterprise'].map(
    (id) => screen.getByTestId(`price-${id}`).textContent,
  );
}

const monthly = ['€9/ month', '€19/ month', '€49/ month'];
const annual = ['€90/ year', '€190/ year', '€490/ year'];

describe('PricingPage', { timeout: 30_000 }, () => {
  it('shows monthly prices by default and annual prices after the switch', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PricingPage />);
    expect(prices()).toEqual(monthly);
    await user.click(screen.getByText('Annual · 2 months free'));
    // The cycle is kept in the URL; the router applies it in a transition.
    await waitFor(() => expect(prices()).toEqual(annual));
    await user.click(screen.getByText('Monthly'));
    await waitFor(() => expect(prices()).toEqual(monthly));
  });

  it('opens with the cycle of the link (?billing=annual) and passes it to every plan link', () => {
    renderWithProviders(<PricingPage />, { route: '/pricing?billing=annual' });
    expect(prices()).toEqual(annual);
    for (const plan of ['Starter', 'Pro', 'Enterprise']) {
      expect(screen.getByRole('link', { name: `Get Started with ${plan}` })).toHaveAttribute(
        'href',
        `/auth?plan=${plan.toLowerCase()}&billing=annual`,
      );
    }
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

  it("offers self-hosting below the plans: free, open source, the README's deploy section", () => {
    renderWithProviders(<PricingPage />);
    const card = screen.getByRole('region', { name: /Self-host it: free and open source/ });
    expect(screen.getAllByRole('article')).toHaveLength(3);
    // Below the three plans in reading order.
    const lastPlan = screen.getByRole('article', { name: 'Enterprise' });
    expect(lastPlan.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const link = within(card).getByRole('link', { name: /deploy guide/ });
    expect(link).toHaveAttribute('href', SELF_HOSTING_GUIDE_URL);
    expect(SELF_HOSTING_GUIDE_URL).toBe(`${site.repositoryUrl}#deploying`);
  });
});
