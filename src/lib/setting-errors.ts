// A failed save of one of a form's settings (autoresponder, retention, file uploads), in words for
// the owner: a database check by its constraint's name (each setting names its own), a form that
// is gone or not the caller's, or the connection.

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  details?: unknown;
}

/**
 * `action` says what was tried ("save the autoresponder"); `constraints` maps the setting's check
 * constraints to what each refusal means.
 */
export function describeSettingSaveError(
  error: unknown,
  action: string,
  constraints: Readonly<Record<string, string>>,
): string {
  const { code, message, details } = (error ?? {}) as ErrorLike;
  if (code === '23514') {
    const text = [message, details].filter((v) => typeof v === 'string').join(' ');
    for (const [name, sentence] of Object.entries(constraints))
      if (text.includes(name)) return sentence;
    // A value the form's own checks should have caught (e.g. an older tab).
    return `Could not ${action}: a value is out of range. Check the fields.`;
  }
  // The form is gone (foreign key) or is not the caller's (RLS).
  if (code === '23503') return 'This form no longer exists. Close the dialog and open it again.';
  if (code === '42501') return `You are not allowed to ${action}.`;
  return `Could not ${action}. Check your connection and try again.`;
}
