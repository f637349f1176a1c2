// A failed save of a form's autoresponder or retention rule, in words for the owner.

interface ErrorLike {
  code?: unknown;
}

/** `action` says what was tried ("save the autoresponder"). */
export function describeSettingError(error: unknown, action: string): string {
  const code = ((error ?? {}) as ErrorLike).code;
  // A check constraint: a value the form's own checks should have caught (e.g. an older tab).
  if (code === '23514') return `Could not ${action}: a value is out of range. Check the fields.`;
  // The form is gone (foreign key) or is not the caller's (RLS).
  if (code === '23503') return 'This form no longer exists. Close the dialog and open it again.';
  if (code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}
