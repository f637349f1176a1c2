// What the API keys section says about a key: its scope in words and its dates.
import type { ApiKeyScope } from './api/get-api-keys';

export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read_only: 'Read-only',
  read_write: 'Read and delete (write-limited)',
};

export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  read_only: 'Lists your forms and their entries.',
  read_write: 'Also deletes entries; it cannot change forms, keys or your account.',
};

const MEDIUM = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Nov 24, 2026, 2:47 PM" in the reader's time zone; '' if it is not a date. */
export function formatKeyDate(timestamp: string, format: Intl.DateTimeFormat = MEDIUM): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  // Newer ICU puts a narrow no-break space before AM/PM; a plain space reads the same.
  return format.format(date).replace(/[\u202f\u00a0]/g, ' ');
}

/** The line under a key's name: when it was created and last used. */
export function keyDates(
  key: { created_at: string; last_used_at: string | null },
  format?: Intl.DateTimeFormat,
): string {
  const created = `Created ${formatKeyDate(key.created_at, format)}`;
  const used = key.last_used_at
    ? `last used ${formatKeyDate(key.last_used_at, format)}`
    : 'never used';
  return `${created} · ${used}`;
}
