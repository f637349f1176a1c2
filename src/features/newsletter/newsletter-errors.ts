// The database's refusals in the newsletter tool's words.

type DbError = { code?: unknown; message?: unknown };

const codeOf = (error: unknown) => (error as DbError | null)?.code;

/** A sentence for a refused or failed request about lists or subscribers; `action` as in "save the list". */
export function describeListError(error: unknown, action: string): string {
  const code = codeOf(error);
  if (code === '23514' || code === '22P02')
    return `Could not ${action}: a field is outside what is allowed. Check the sender name, reply-to address and site address.`;
  if (code === '22023')
    return 'Say how these people agreed to hear from you (10 to 500 characters), and import at most 10 000 rows at a time.';
  if (code === 'PT404' || code === 'PGRST116')
    return 'This list no longer exists. Reload the page.';
  if (code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}

/** A sentence for a refused or failed request about a campaign; `action` as in "send the campaign". */
export function describeCampaignError(error: unknown, action: string): string {
  const code = codeOf(error);
  if (code === '55000')
    return `Could not ${action}: the campaign has moved on since (it may have started, finished or been cancelled). The page now shows where it stands.`;
  if (code === '22023') return 'Write a subject and a message, and save them, before sending.';
  if (code === '23514')
    return `Could not ${action}: the subject must be one line of at most 200 characters and the message at most 100 KB.`;
  if (code === '23503') return 'Choose one of your lists.';
  if (code === 'PT404' || code === 'PGRST116')
    return 'This campaign no longer exists. Go back to your campaigns.';
  if (code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}
