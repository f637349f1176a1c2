// The account's plan and usage as the database reports them (`plan_usage()`), and the pure
// readings the dashboard shows: how full each quota is, whether to warn, when the month starts
// again. The thresholds match the database's warnings (80 % and 100 %, mailed once a month).
import { formatNumber, formatQuantity } from '../../config/plans';

type ChosenBilling = 'monthly' | 'annual';

export interface PlanUsage {
  /** The account's plan. */
  plan: {
    id: string;
    name: string;
    projects: number | null;
    submissionsPerMonth: number | null;
  };
  /** The quotas that hold (null: unlimited); all null when the deployment sets no quotas. */
  limits: { projects: number | null; submissionsPerMonth: number | null };
  deploymentUnlimited: boolean;
  /** The plan picked on the pricing page before registering, if any. */
  chosenPlan: string | null;
  chosenBilling: ChosenBilling | null;
  planChangedAt: string | null;
  /** Distinct websites (allowed origins) among the account's forms. */
  projectsUsed: number;
  /** Non-spam submissions stored this calendar month (UTC). */
  submissionsUsed: number;
  /** When this month's count starts again (ISO; the 1st of next month, 00:00 UTC). */
  resetsAt: string;
  warned80: boolean;
  warned100: boolean;
  /** Where to ask for a bigger plan. */
  contactEmail: string;
}

/** The share of a quota at which the owner is warned (and 1, when it is used up). */
const WARNING_RATIO = 0.8;

export type UsageLevel = 'ok' | 'warning' | 'exhausted';

/** ok below 80 %, warning from 80 %, exhausted once the quota is used up; unlimited is ok. */
export function usageLevel(used: number, limit: number | null): UsageLevel {
  if (limit === null) return 'ok';
  if (used >= limit) return 'exhausted';
  if (used >= Math.ceil(limit * WARNING_RATIO)) return 'warning';
  return 'ok';
}

/** 0–100, whole; null for an unlimited quota. */
export function usagePercent(used: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit <= 0) return 100;
  return Math.min(100, Math.floor((used * 100) / limit));
}

const resetFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "1 December 2026": the day the month's count starts again (in UTC, where it is counted). */
export function formatResetDate(iso: string): string {
  return resetFormat.format(new Date(iso));
}

/** "85 of 100 submissions"; "3 projects (unlimited)" when there is no quota. */
export function usageText(used: number, limit: number | null, unit: string): string {
  if (limit === null) return `${formatQuantity(used, unit)} (unlimited)`;
  return `${formatNumber(used)} of ${formatQuantity(limit, unit)}`;
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Reads `plan_usage()`'s answer; throws on a shape the page cannot show. */
export function parsePlanUsage(raw: unknown): PlanUsage {
  if (!raw || typeof raw !== 'object') throw new Error('The plan could not be read.');
  const r = raw as Record<string, unknown>;
  const plan = (r.plan ?? {}) as Record<string, unknown>;
  const limits = (r.limits ?? {}) as Record<string, unknown>;
  const id = str(plan.id);
  const resetsAt = str(r.resets_at);
  if (!id || !resetsAt) throw new Error('The plan could not be read.');
  const billing = str(r.chosen_billing);
  return {
    plan: {
      id,
      name: str(plan.name) ?? id,
      projects: num(plan.projects),
      submissionsPerMonth: num(plan.submissions_per_month),
    },
    limits: {
      projects: num(limits.projects),
      submissionsPerMonth: num(limits.submissions_per_month),
    },
    deploymentUnlimited: r.deployment_unlimited === true,
    chosenPlan: str(r.chosen_plan),
    chosenBilling: billing === 'monthly' || billing === 'annual' ? billing : null,
    planChangedAt: str(r.plan_changed_at),
    projectsUsed: num(r.projects_used) ?? 0,
    submissionsUsed: num(r.submissions_used) ?? 0,
    resetsAt,
    warned80: r.warned_80 === true,
    warned100: r.warned_100 === true,
    contactEmail: str(r.contact_email) ?? '',
  };
}
