// What the docs say about how analytics scales: the account's daily cap from the function's own
// limits, and the figures `npm run bench:analytics` measured (docs/PERFORMANCE.md, "Analytics"),
// kept here once for the page. A new run of the bench updates that page; these follow it.
import { ANALYTICS } from '../../../supabase/functions/_shared/limits.ts';

const count = new Intl.NumberFormat('en-US');

export const ANALYTICS_SCALE = {
  accountEventsPerDay: count.format(ANALYTICS.accountEventsPerDay),
  /** One site's generated events over a year. */
  events: '10 million',
  /** The 30-day default view inside Postgres, p50 / p95 in ms. */
  defaultViewDb: [26, 28],
  /** The same through the API (supabase-js), p50 / p95 in ms. */
  defaultViewApi: [43, 58],
  /** Events per second through the endpoint, against single-row inserts, at 16 clients. */
  ingestion: { endpoint: count.format(699), inserts: count.format(4_664), clients: 16 },
} as const;
