// Fixtures for the plans feature's tests: `plan_usage()` answers as the database gives them.
export interface RawUsage {
  plan: { id: string; name: string; projects: number | null; submissions_per_month: number | null };
  limits: { projects: number | null; submissions_per_month: number | null };
  deployment_unlimited: boolean;
  chosen_plan: string | null;
  chosen_billing: string | null;
  plan_changed_at: string | null;
  projects_used: number;
  submissions_used: number;
  month_start: string;
  resets_at: string;
  warned_80: boolean;
  warned_100: boolean;
  contact_email: string;
}

/** A Free account at 85 of 100 submissions, which picked Pro (annual) when registering. */
export function rawUsage(overrides: Partial<RawUsage> = {}): RawUsage {
  return {
    plan: { id: 'free', name: 'Free', projects: 1, submissions_per_month: 100 },
    limits: { projects: 1, submissions_per_month: 100 },
    deployment_unlimited: false,
    chosen_plan: 'pro',
    chosen_billing: 'annual',
    plan_changed_at: '2026-11-02T10:00:00+00:00',
    projects_used: 1,
    submissions_used: 85,
    month_start: '2026-11-01',
    resets_at: '2026-12-01T00:00:00+00:00',
    warned_80: true,
    warned_100: false,
    contact_email: 'hello@tinyback.tools',
    ...overrides,
  };
}
