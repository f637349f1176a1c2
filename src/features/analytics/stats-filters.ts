// The stats' filters: a row clicked in a top list narrows every number to it. They live in the
// URL's search parameters under their own names (`?page=/pricing&country=DE`), so a filtered view
// can be shared and reloaded, and reach the RPC as `p_filters`, a JSON object of the same keys.
import type { AnalyticsDimension } from '../../lib/database';

/** The breakdowns the RPC answers, in the order the dashboard shows them; each is a filter key. */
export const FILTER_KEYS = [
  'page',
  'entry_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'browser',
  'os',
  'device',
  'event',
] as const satisfies readonly AnalyticsDimension[];

export type FilterKey = (typeof FILTER_KEYS)[number];
export type StatsFilters = Partial<Record<FilterKey, string>>;

export const FILTER_LABELS: Record<FilterKey, string> = {
  page: 'Page',
  entry_page: 'Entry page',
  referrer: 'Referrer',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  country: 'Country',
  browser: 'Browser',
  os: 'Operating system',
  device: 'Device',
  event: 'Event',
};

/** The longest filter value taken from a URL (the events' longest column, a path, is 2000). */
const VALUE_MAX = 2000;

/** The filters a URL asks for: known keys with a non-empty value, in FILTER_KEYS order. */
export function filtersFromParams(params: URLSearchParams): StatsFilters {
  const filters: StatsFilters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value && value.length <= VALUE_MAX) filters[key] = value;
  }
  return filters;
}

/** The URL's parameters with one filter set (a value) or removed (null); the rest kept. */
export function withFilter(
  params: URLSearchParams,
  key: FilterKey,
  value: string | null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(key);
  else next.set(key, value);
  return next;
}
