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

  it('starts every account on Free, with its quotas and no card, above the paid plans', () => {
    renderWithProviders(<PricingPage />);
    const free = screen.getByRole('region', { name: 'Free' });
    expect(within(free).getByTestId('price-free')).toHaveTextContent(
      '€0/ month, no credit card required',
    );
    expect(within(free).getByText('1 project')).toBeInTheDocument();
    expect(within(free).getByText('100 submissions a month')).toBeInTheDocument();
    expect(within(free).getByRole('link', { name: 'Get Started Free' })).toHaveAttribute(
      'href',
      '/register',
    );
    const starter = screen.getByRole('article', { name: 'Starter' });
    expect(free.compareDocumentPosition(starter) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText(/Every account starts free, no credit card required/)).toBeVisible();
  });

  it("states each plan's quotas beside the spec's features", () => {
    renderWithProviders(<PricingPage />);
    const points = (name: string) =>
      within(screen.getByRole('article', { name }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(points('Starter')).toEqual([
      '1 project',
      '1,000 submissions a month',
      'Basic analytics',
      'Email support',
    ]);
    expect(points('Pro').slice(0, 2)).toEqual(['Up to 10 projects', '10,000 submissions a month']);
    expect(points('Enterprise').slice(0, 2)).toEqual([
      'Unlimited projects',
      '100,000 submissions a month',
    ]);
  });

  it('says what the units mean, what happens at the quota and how upgrading works today', () => {
    renderWithProviders(<PricingPage />);
    const how = screen.getByRole('region', { name: 'How plans work' });
    expect(how).toHaveTextContent('A project is one website: each distinct allowed origin');
    expect(how).toHaveTextContent('Spam caught by the honeypot is kept but not counted');
    expect(how).toHaveTextContent('new posts are refused with a clear answer');
    expect(how).toHaveTextContent('Payment is not collected in the app yet');
    expect(how).toHaveTextContent('plans are switched by hand on request');
    expect(how).toHaveTextContent('storage for file uploads');
    expect(within(how).getByRole('link', { name: site.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${site.contactEmail}`,
    );
  });
});
