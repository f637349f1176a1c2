import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders, SLOW } from '../../../components/testing/render';
import { parsePlanUsage } from '../plan-usage';
import { failRequests, pgError, supabaseDb } from '../../../components/testing/supabase-server';
import { rawUsage } from '../testing/usage';
import { UsageBanner, usageNotice } from './usage-banner';

describe('usageNotice', () => {
  it('says nothing below 80 % or without a quota', () => {
    expect(usageNotice(parsePlanUsage(rawUsage({ submissions_used: 79 })))).toBeNull();
    expect(
      usageNotice(
        parsePlanUsage(
          rawUsage({
            submissions_used: 5000,
            projects_used: 7,
            limits: { projects: null, submissions_per_month: null },
            deployment_unlimited: true,
          }),
        ),
      ),
    ).toBeNull();
  });

  it('warns from 80 % with what happens at 100 %', () => {
    expect(usageNotice(parsePlanUsage(rawUsage()))).toEqual({
      status: 'warning',
      title: 'You have used 85 of 100 submissions this month (85 %)',
      text: 'Once all 100 are used, new submissions to your forms are refused until the count starts again on 1 December 2026. Messages you have already received are kept. For more, your Free plan can be changed on request.',
    });
  });

  it('says plainly that posts are refused once the quota is used up', () => {
    const notice = usageNotice(parsePlanUsage(rawUsage({ submissions_used: 100 })));
    expect(notice?.status).toBe('error');
    expect(notice?.title).toBe('Your forms have used all 100 submissions of this month');
    expect(notice?.text).toContain(
      'Until the count starts again on 1 December 2026, new submissions are refused and not stored',
    );
    expect(notice?.text).toContain('Messages you have already received are kept.');
  });

  it('tells an account over its projects (after a plan change) what that means', () => {
    const notice = usageNotice(parsePlanUsage(rawUsage({ submissions_used: 3, projects_used: 3 })));
    expect(notice?.title).toBe('Your forms are on 3 websites; your Free plan includes 1 project');
    expect(notice?.text).toContain('new forms can only go on websites you already use');
  });
});

describe('UsageBanner', () => {
  it('shows the warning with a link to the plan, read from plan_usage()', async () => {
    supabaseDb.rpc('plan_usage', () => rawUsage());
    renderWithProviders(<UsageBanner />);
    const banner = await screen.findByTestId('usage-banner', undefined, SLOW);
    expect(banner).toHaveTextContent('You have used 85 of 100 submissions this month (85 %)');
    expect(screen.getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute(
      'href',
      '/settings#plan',
    );
    expect(supabaseDb.requested('POST', 'rpc/plan_usage')).not.toEqual([]);
  });

  it('renders nothing when all is well, or when the plan cannot be read', async () => {
    supabaseDb.rpc('plan_usage', () => rawUsage({ submissions_used: 10 }));
    const { unmount } = renderWithProviders(<UsageBanner />);
    await waitFor(() => expect(supabaseDb.requested('POST', 'rpc/plan_usage')).not.toEqual([]));
    expect(screen.queryByTestId('usage-banner')).not.toBeInTheDocument();
    unmount();
    failRequests('post', 'rpc/plan_usage', pgError('', 'offline'));
    const { container } = renderWithProviders(<UsageBanner />);
    await waitFor(() => expect(supabaseDb.requested('POST', 'rpc/plan_usage')).toHaveLength(2));
    expect(container).toBeEmptyDOMElement();
  });
});
