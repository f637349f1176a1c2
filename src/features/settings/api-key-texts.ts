// What the API keys section says about a key: its scope in words, its dates, and why the database
// refused to create one.
import { API_KEYS } from '../../../supabase/functions/_shared/limits';
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

/**
 * The database's refusals to create a key, by the hint it sets, with the sentence to show should
 * a refusal come without its own: too many active keys (PT409) or too many created today (PT429).
 */
const REFUSALS: Record<string, string> = {
  api_key_limit: `You have ${API_KEYS.maxActiveKeys} active API keys, the most an account may have. Revoke one first.`,
  api_key_rate: `You have created ${API_KEYS.createdPerDay} API keys today, the most an account may. Try again tomorrow.`,
};

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  hint?: unknown;
}

/** Why a key was not created, in the database's own words where it gave them. */
export function describeApiKeyError(error: unknown): string {
  const { code, message, hint } = (error ?? {}) as ErrorLike;
  const text = typeof message === 'string' ? message : '';
  if (typeof hint === 'string' && Object.hasOwn(REFUSALS, hint)) return text || REFUSALS[hint]!;
  // create_api_key()'s own checks: the name, the scope, a signed-in caller.
  if ((code === '22023' || code === '42501') && text) return text;
  if (/failed to fetch|networkerror|network request failed|load failed/i.test(text))
    return 'Could not reach the server. Check your connection and try again.';
  return 'The API key could not be created. Please try again.';
}
