import { describe, expect, it } from 'vitest';
import {
  FREE_PLAN,
  formatQuantity,
  PLAN_QUOTAS,
  PLANS,
  planPoints,
  projectsQuotaText,
  submissionsQuotaText,
} from './plans';

describe('plans as quota tiers', () => {
  it("keeps the spec's prices and texts, with each plan's projects line matching its quota", () => {
    expect(PLANS.map((p) => [p.id, p.monthly, p.annually])).toEqual([
      ['starter', 9, 90],
      ['pro', 19, 190],
      ['enterprise', 49, 490],
    ]);
    for (const plan of PLANS) {
      expect(plan.quota).toBe(PLAN_QUOTAS[plan.id]);
      expect(plan.features[0]).toBe(projectsQuotaText(plan.quota));
    }
  });

  it('grows with every plan: Free, Starter, Pro, Enterprise', () => {
    const tiers = [FREE_PLAN.quota, ...PLANS.map((p) => p.quota)];
    const big = (n: number | null) => n ?? Infinity;
    for (let i = 1; i < tiers.length; i++) {
      expect(big(tiers[i]!.projects)).toBeGreaterThanOrEqual(big(tiers[i - 1]!.projects));
      expect(big(tiers[i]!.submissionsPerMonth)).toBeGreaterThan(
        big(tiers[i - 1]!.submissionsPerMonth),
      );
    }
  });

  it('lists the submissions quota after the projects line on each card', () => {
    expect(planPoints(PLANS[0]!)).toEqual([
      '1 project',
      '1,000 submissions a month',
      'Basic analytics',
      'Email support',
    ]);
    expect(planPoints(PLANS[2]!).slice(0, 2)).toEqual([
      'Unlimited projects',
      '100,000 submissions a month',
    ]);
  });

  it('words quantities and unlimited quotas', () => {
    expect(formatQuantity(1, 'project')).toBe('1 project');
    expect(formatQuantity(10_000, 'submission')).toBe('10,000 submissions');
    expect(projectsQuotaText(PLAN_QUOTAS.pro)).toBe('Up to 10 projects');
    expect(submissionsQuotaText(PLAN_QUOTAS.unlimited)).toBe('Unlimited submissions');
  });
});
