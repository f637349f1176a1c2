// The dashboard's date ranges as the stats RPC takes them: inclusive UTC dates 'YYYY-MM-DD'.
// UTC because the events are counted by UTC hour and day; an owner far from UTC sees "today"
// begin at UTC midnight, as the chart's axis says. The range lives in the URL (`range`, and
// `from`/`to` for a custom one) so a view can be shared and reloaded.

export const RANGE_PRESETS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_LABELS: Record<RangePreset, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  month: 'This month',
  custom: 'Custom',
};

const DEFAULT_PRESET = '30d' satisfies RangePreset;

/** The longest custom range the dashboard asks for, in days. */
const MAX_RANGE_DAYS = 400;

export interface DateRange {
  /** The first day, inclusive. */
  from: string;
  /** The last day, inclusive. */
  to: string;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A moment's UTC date, 'YYYY-MM-DD'. */
export function utcDate(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return utcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
}

/** Whether text is a real calendar date 'YYYY-MM-DD' (not 2026-02-30). */
function isDate(text: string | null | undefined): text is string {
  return !!text && DATE.test(text) && utcDate(new Date(`${text}T00:00:00Z`)) === text;
}

/** Days in an inclusive range. */
export function rangeDays({ from, to }: DateRange): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** A preset's dates on the day `now` falls on (UTC). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now: Date): DateRange {
  const today = utcDate(now);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

/** Why a custom range cannot be shown, or null when it can. */
export function customRangeProblem(
  from: string,
  to: string,
  now: Date,
  maxDays = MAX_RANGE_DAYS,
): string | null {
  if (!isDate(from) || !isDate(to)) return 'Enter both dates.';
  if (from > to) return 'The start date must not be after the end date.';
  if (to > utcDate(now)) return 'The end date must not be in the future.';
  if (rangeDays({ from, to }) > maxDays) return `Choose at most ${maxDays} days.`;
  return null;
}

export interface SelectedRange extends DateRange {
  preset: RangePreset;
}

/**
 * The range a URL asks for: a preset, or a custom range that is valid; anything else falls back
 * to the default (a shared link with a broken range still opens).
 */
export function rangeFromParams(
  params: URLSearchParams,
  now: Date,
  maxDays = MAX_RANGE_DAYS,
): SelectedRange {
  const preset = params.get('range');
  if (preset === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    if (!customRangeProblem(from, to, now, maxDays)) return { preset, from, to };
  } else if (preset && (RANGE_PRESETS as readonly string[]).includes(preset)) {
    const known = preset as Exclude<RangePreset, 'custom'>;
    return { preset: known, ...presetRange(known, now) };
  }
  return { preset: DEFAULT_PRESET, ...presetRange(DEFAULT_PRESET, now) };
}

/** The URL's parameters with a preset range (a custom range's days dropped); the rest kept. */
export function withPreset(
  params: URLSearchParams,
  preset: Exclude<RangePreset, 'custom'>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('from');
  next.delete('to');
  next.set('range', preset);
  return next;
}

/** The URL's parameters with a custom range; the rest kept. */
export function withCustomRange(
  params: URLSearchParams,
  from: string,
  to: string,
): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('range', 'custom');
  next.set('from', from);
  next.set('to', to);
  return next;
}
