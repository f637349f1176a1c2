// The autoresponder's merge fields, for the settings' preview: fills {{key}} in one pass the way
// the database does when it queues the reply (public.autoresponse_fill in
// 20261124170000_autoresponder_retention.sql), so the owner sees what a visitor will receive.

/** The fields every form has; any other field of the form is reached by its name too. */
export const MERGE_FIELDS = ['name', 'email', 'message', 'form'] as const;

export const AUTORESPONSE_LIMITS = { subject: 200, body: 5000 } as const;

export const DEFAULT_SUBJECT = 'Thanks for your message';

const FIELD = /\{\{\s*([A-Za-z0-9_.-]{1,100})\s*\}\}/g;
// Line breaks and other control characters (a subject is a header line).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0001-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * Replaces each merge field with its value ('' when unknown). A value is never read as a
 * template. With `oneLine`, values lose line breaks and control characters.
 */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  oneLine = false,
): string {
  return template.replace(FIELD, (_match, key: string) => {
    const value = Object.hasOwn(values, key) ? (values[key] ?? '') : '';
    return oneLine ? value.replace(CONTROLS, ' ') : value;
  });
}

/** The subject as sent: one line, at most 200 characters, never empty. */
export function renderSubject(template: string, values: Readonly<Record<string, string>>): string {
  const line = fillTemplate(template, values, true)
    .replace(CONTROLS, ' ')
    .trim()
    .slice(0, AUTORESPONSE_LIMITS.subject);
  return line || DEFAULT_SUBJECT;
}

/** The merge fields a template uses, in order, once each. */
export function fieldsIn(template: string): string[] {
  return [...new Set([...template.matchAll(FIELD)].map((m) => m[1]!))];
}
