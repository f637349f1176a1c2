// A failed save of a form's autoresponder or retention rule, in words for the owner.
import { MAX_MERGE_FIELDS } from './autoresponse-template';

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  details?: unknown;
}

/** The database's check constraints on these settings, by name, and what each refusal means. */
const CONSTRAINTS: Record<string, string> = {
  form_autoresponders_merge_fields: `Not saved: the subject and the reply may use at most ${MAX_MERGE_FIELDS} merge fields each.`,
};

/** `action` says what was tried ("save the autoresponder"). */
export function describeSettingError(error: unknown, action: string): string {
  const { code, message, details } = (error ?? {}) as ErrorLike;
  if (code === '23514') {
    const text = [message, details].filter((v) => typeof v === 'string').join(' ');
    for (const [name, sentence] of Object.entries(CONSTRAINTS))
      if (text.includes(name)) return sentence;
    // A value the form's own checks should have caught (e.g. an older tab).
    return `Could not ${action}: a value is out of range. Check the fields.`;
  }
  // The form is gone (foreign key) or is not the caller's (RLS).
  if (code === '23503') return 'This form no longer exists. Close the dialog and open it again.';
  if (code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}
