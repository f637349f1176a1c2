// Blog dates in the spec's long format ("March 4, 2026").

// UTC so a post written at midnight shows the same day for every reader and in tests.
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export function formatLongDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : longDate.format(date);
}
