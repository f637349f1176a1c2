// The database's refusals of a booking form, in words. A link another owner has (the unique
// slug, 23505) is said at the link's field; the rest under the form.

/** What the link field says when the database refuses the slug as taken. */
export const SLUG_TAKEN = 'This link is taken';

type DbError = { code?: unknown; message?: unknown; details?: unknown };

/** Whether the database refused a save because another booking form has the link. */
export function isSlugTaken(error: unknown): boolean {
  return (error as DbError | null)?.code === '23505';
}

/** A sentence for a refused or failed save, delete or read; `action` as in "save the form". */
export function describeBookingError(error: unknown, action: string): string {
  const { code, message } = (error ?? {}) as DbError;
  if (code === '23514' || code === '22023' || code === '22P02')
    return `Could not ${action}: a setting is outside what is allowed${
      typeof message === 'string' && message ? ` (${message})` : ''
    }.`;
  if (code === '42501') return `You are not allowed to ${action}.`;
  if (code === 'PGRST116') return 'This booking form no longer exists. Reload the page.';
  return `Could not ${action}. Check your connection and try again.`;
}
