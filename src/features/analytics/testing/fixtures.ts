// Test data for the analytics dashboard, and its table and functions in the tests' database
// (src/components/testing/supabase-server.ts): analytics_sites with the database's defaults, and
// analytics_stats / analytics_visitors_now answering what a test gives them.
import type { AnalyticsSite } from '../api/get-sites';
import type { SiteStats, StatsTotals } from '../api/get-stats';
import { supabaseDb, type Row } from '../../../components/testing/supabase-server';

export const OWNER_ID = '00000000-0000-4000-8000-000000000001';
let sequence = 0;
const uuid = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;

export function makeSite(overrides: Partial<AnalyticsSite> = {}): AnalyticsSite {
  sequence += 1;
  return {
    id: uuid(sequence),
    name: `Site ${sequence}`,
    domains: [`site${sequence}.example.com`],
    retention_days: 395,
    created_at: new Date(Date.UTC(2026, 10, 1, 10, sequence)).toISOString(),
    ...overrides,
  };
}

const ZERO: StatsTotals = { visitors: 0, visits: 0, pageviews: 0, bounce_rate: 0, events: 0 };

function makeStats(overrides: Partial<SiteStats> = {}): SiteStats {
  return {
    range: { from: '2026-11-01', to: '2026-11-30', bucket: 'day' },
    totals: ZERO,
    previous: ZERO,
    series: [],
    top: {
      page: [],
      entry_page: [],
      referrer: [],
      utm_source: [],
      utm_medium: [],
      utm_campaign: [],
      country: [],
      browser: [],
      os: [],
      device: [],
      event: [],
    },
    ...overrides,
  };
}

/** Stats with something in every part: totals against a previous period, a series, top rows. */
export function busyStats(): SiteStats {
  const empty = makeStats();
  return makeStats({
    totals: { visitors: 120, visits: 150, pageviews: 400, bounce_rate: 44, events: 9 },
    previous: { visitors: 100, visits: 150, pageviews: 500, bounce_rate: 40, events: 0 },
    series: [
      { t: '2026-11-29T00:00:00Z', visitors: 50, pageviews: 180 },
      { t: '2026-11-30T00:00:00Z', visitors: 70, pageviews: 220 },
    ],
    top: {
      ...empty.top,
      page: [
        { value: '/', visitors: 90, pageviews: 250 },
        { value: '/pricing', visitors: 40, pageviews: 60 },
      ],
      referrer: [{ value: '(direct)', visitors: 80, pageviews: 300 }],
      country: [{ value: 'DE', visitors: 60, pageviews: 200 }],
      event: [{ value: 'signup', visitors: 7, events: 9 }],
    },
  });
}

/**
 * Seeds the owner's sites and the stats functions. `stats` answers analytics_stats from its
 * arguments (default: nothing counted); `visitorsNow` is analytics_visitors_now's answer.
 */
export function seedAnalytics({
  sites = [],
  stats = () => makeStats(),
  visitorsNow = 0,
}: {
  sites?: AnalyticsSite[];
  stats?: (args: Row) => SiteStats | null;
  visitorsNow?: number;
} = {}) {
  supabaseDb.define('analytics_sites', {
    insert: (row) => ({ ...makeSite(), user_id: OWNER_ID, ...row }),
  });
  supabaseDb.seed({ analytics_sites: sites.map((site) => ({ ...site, user_id: OWNER_ID })) });
  supabaseDb.rpc('analytics_stats', stats);
  supabaseDb.rpc('analytics_visitors_now', () => visitorsNow);
}
