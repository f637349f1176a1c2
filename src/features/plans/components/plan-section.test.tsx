import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, SLOW } from '../../../components/testing/render';
import {
  failRequests,
  pgError,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { rawUsage } from '../testing/usage';
import { PlanSection } from './plan-section';

describe('PlanSection', () => {
  it('shows the plan, its usage as bars, the reset date and the plan chosen at registration', async () => {
    supabaseDb.rpc('plan_usage', () => rawUsage());
    renderWithProviders(<PlanSection />);
    expect(await screen.findByTestId('plan-name', undefined, SLOW)).toHaveTextContent('Free');

    const projects = screen.getByRole('progressbar', { name: 'Projects' });
    expect(projects).toHaveAttribute('aria-valuenow', '1');
    expect(projects).toHaveAttribute('aria-valuemax', '1');
    expect(projects).toHaveAttribute('aria-valuetext', '1 of 1 project');
    // A project quota in full use is normal: marked only when over it.
    expect(projects).toHaveAttribute('data-level', 'ok');
    const submissions = screen.getByRole('progressbar', { name: 'Submissions this month' });
    expect(submissions).toHaveAttribute('aria-valuetext', '85 of 100 submissions');
    expect(submissions).toHaveAttribute('data-level', 'warning');
    expect(screen.getByText('85 of 100 submissions (85 %)')).toBeInTheDocument();
    expect(screen.getByText(/the count starts again on 1 December 2026/)).toBeInTheDocument();
    expect(screen.getByText(/A project is one website/)).toBeInTheDocument();

    expect(screen.getByTestId('chosen-plan')).toHaveTextContent('Pro · €190/year (annual billing)');
  });

  it('says how upgrading works today, with a mail to ask for the chosen plan', async () => {
    supabaseDb.rpc('plan_usage', () => rawUsage());
    renderWithProviders(<PlanSection />);
    const text = await screen.findByText(
      /Payment is not collected in the app yet/,
      undefined,
      SLOW,
    );
    expect(text).toHaveTextContent('plans are switched by hand on request');
    expect(text).toHaveTextContent('(you picked Pro when you registered)');
    const mail = within(text).getByRole('link', { name: 'hello@tinyback.tools' });
    expect(mail).toHaveAttribute(
      'href',
      'mailto:hello@tinyback.tools?subject=Plan%20change%3A%20Pro',
    );
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/pricing');
  });

  it('shows counts without bars where the deployment sets no quotas', async () => {
    supabaseDb.rpc('plan_usage', () =>
      rawUsage({
        deployment_unlimited: true,
        limits: { projects: null, submissions_per_month: null },
        submissions_used: 4321,
        projects_used: 3,
        chosen_plan: null,
        chosen_billing: null,
      }),
    );
    renderWithProviders(<PlanSection />);
    expect(await screen.findByText('No quotas on this deployment', undefined, SLOW)).toBeVisible();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('4,321 submissions (unlimited)')).toBeInTheDocument();
    expect(screen.getByTestId('chosen-plan')).toHaveTextContent(
      'No plan: you signed up without picking one on the pricing page.',
    );
  });

  it('marks a used-up month and offers another try when the plan cannot be read', async () => {
    failRequests('post', 'rpc/plan_usage', pgError('', 'offline'));
    const user = userEvent.setup();
    renderWithProviders(<PlanSection />);
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent(
      'Your plan could not be loaded.',
    );
    server.resetHandlers();
    supabaseDb.rpc('plan_usage', () => rawUsage({ submissions_used: 100 }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const bar = await screen.findByRole('progressbar', { name: 'Submissions this month' });
    expect(bar).toHaveAttribute('data-level', 'exhausted');
  });
});
