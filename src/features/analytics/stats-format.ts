// How the stats read: the change of a headline number against the previous period (in words for
// screen readers, as an arrow and a percentage for the eye), counts, bounce rates and country names.

export interface Change {
  direction: 'up' | 'down' | 'same' | 'new';
  /** Whole percent (or percentage points for a rate); 0 for 'same' and 'new'. */
  amount: number;
  /** What is shown: '↑ 12%', '↓ 3 pts', '±0%', 'new'. */
  text: string;
  /** What a screen reader says: 'up 12% from the previous period'. */
  label: string;
}

const PREVIOUS = 'from the previous period';

/**
 * The change from `previous` to `current`: relative for counts, in percentage points for a rate
 * (a bounce rate going from 40% to 44% went up 4 points, not 10%). A count that was zero and is
 * not any more is 'new': no percentage of nothing exists.
 */
export function change(
  current: number,
  previous: number,
  kind: 'count' | 'rate' = 'count',
): Change {
  if (kind === 'count' && previous === 0) {
    return current === 0
      ? { direction: 'same', amount: 0, text: '±0%', label: `unchanged ${PREVIOUS}` }
      : { direction: 'new', amount: 0, text: 'new', label: `none in the previous period` };
  }
  const amount =
    kind === 'rate'
      ? Math.round(Math.abs(current - previous))
      : Math.round((Math.abs(current - previous) / previous) * 100);
  const unit = kind === 'rate' ? ' pts' : '%';
  const spoken = kind === 'rate' ? ` percentage point${amount === 1 ? '' : 's'}` : '%';
  if (amount === 0)
    return { direction: 'same', amount: 0, text: `±0${unit}`, label: `unchanged ${PREVIOUS}` };
  const up = current > previous;
  return {
    direction: up ? 'up' : 'down',
    amount,
    text: `${up ? '↑' : '↓'} ${amount.toLocaleString('en-US')}${unit}`,
    label: `${up ? 'up' : 'down'} ${amount.toLocaleString('en-US')}${spoken} ${PREVIOUS}`,
  };
}

const counts = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** A count as the headline shows it: 1,234 up to 99,999, then 123.4K. */
export function formatCount(value: number): string {
  return value < 100_000 ? counts.format(value) : compact.format(value);
}

/** A bounce rate (a percentage, 0–100) as '42%'. */
export function formatRate(value: number): string {
  return `${Math.round(value)}%`;
}

let regions: Intl.DisplayNames | null | undefined;

/** A country's name from its ISO code ('DE' → 'Germany'); the code itself when unknown. */
export function countryName(code: string): string {
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    } catch {
      regions = null;
    }
  }
  if (!/^[A-Z]{2}$/.test(code) || !regions) return code;
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}
