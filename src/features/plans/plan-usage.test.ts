import { describe, expect, it } from 'vitest';
import { formatResetDate, parsePlanUsage, usageLevel, usagePercent, usageText } from './plan-usage';
import { rawUsage } from './testing/usage';

const RAW_USAGE = rawUsage();

describe('usage readings', () => {
  it('warns from 80 % and says exhausted once the quota is used up', () => {
    expect(usageLevel(79, 100)).toBe('ok');
    expect(usageLevel(80, 100)).toBe('warning');
    expect(usageLevel(99, 100)).toBe('warning');
    expect(usageLevel(100, 100)).toBe('exhausted');
    expect(usageLevel(140, 100)).toBe('exhausted');
    expect(usageLevel(5_000_000, null)).toBe('ok');
    // Four fifths rounded up, as the database counts: 1 of 1 is exhausted, not a warning.
    expect(usageLevel(0, 1)).toBe('ok');
    expect(usageLevel(1, 1)).toBe('exhausted');
  });

  it('gives whole percentages, capped at 100, and none for unlimited', () => {
    expect(usagePercent(85, 100)).toBe(85);
    expect(usagePercent(999, 1000)).toBe(99);
    expect(usagePercent(150, 100)).toBe(100);
    expect(usagePercent(3, null)).toBeNull();
    expect(usagePercent(0, 0)).toBe(100);
  });

  it('says counts in words', () => {
    expect(usageText(85, 100, 'submission')).toBe('85 of 100 submissions');
    expect(usageText(1, 1, 'project')).toBe('1 of 1 project');
    expect(usageText(3, null, 'project')).toBe('3 projects (unlimited)');
  });

  it('dates the reset in UTC, where the month is counted', () => {
    expect(formatResetDate('2026-12-01T00:00:00+00:00')).toBe('1 December 2026');
    expect(formatResetDate('2027-01-01T00:00:00Z')).toBe('1 January 2027');
  });
});

describe('parsePlanUsage', () => {
  it("reads plan_usage()'s answer", () => {
    expect(parsePlanUsage(RAW_USAGE)).toEqual({
      plan: { id: 'free', name: 'Free', projects: 1, submissionsPerMonth: 100 },
      limits: { projects: 1, submissionsPerMonth: 100 },
      deploymentUnlimited: false,
      chosenPlan: 'pro',
      chosenBilling: 'annual',
      planChangedAt: '2026-11-02T10:00:00+00:00',
      projectsUsed: 1,
      submissionsUsed: 85,
      resetsAt: '2026-12-01T00:00:00+00:00',
      warned80: true,
      warned100: false,
      contactEmail: 'hello@tinyback.tools',
    });
  });

  it('reads unlimited quotas as null and drops a billing cycle it does not know', () => {
    const usage = parsePlanUsage({
      ...RAW_USAGE,
      limits: { projects: null, submissions_per_month: null },
      chosen_billing: 'weekly',
    });
    expect(usage.limits).toEqual({ projects: null, submissionsPerMonth: null });
    expect(usage.chosenBilling).toBeNull();
  });

  it('refuses an answer without a plan', () => {
    expect(() => parsePlanUsage(null)).toThrow('The plan could not be read.');
    expect(() => parsePlanUsage({ ...RAW_USAGE, plan: {} })).toThrow();
  });
});
