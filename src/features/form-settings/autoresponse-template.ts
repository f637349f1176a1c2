// The autoresponder's merge fields, for the settings' preview and checks. Mirrors the database
// rule for rule, so the owner sees exactly what a visitor will receive:
// private.fill_merge_fields, private.autoresponse_values (20261127100300_autoresponder_bounded.sql),
// private.mail_label (20261127100000_action_ledger.sql) and the subject's clean-up in
// queue_autoresponse(). The database runs them with collation "C", where `\s` is ASCII whitespace
// only and case folding is ASCII only: the patterns below say so explicitly instead of using
// JavaScript's wider `\s` and `toLowerCase()`.
import { AUTORESPONDER } from '../../../supabase/functions/_shared/limits';

/**
 * The only merge fields a reply fills: `{{name}}`, `{{email}}` and `{{form}}`. Anything else a
 * visitor typed is never sent back, since the reply goes to an address nobody has confirmed.
 */
export const MERGE_FIELDS = AUTORESPONDER.mergeFields;

/** Merge fields filled per template (subject and reply each); the database refuses more. */
export const MAX_MERGE_FIELDS = AUTORESPONDER.maxMergeFields;

export const AUTORESPONSE_LIMITS = { subject: 200, body: 5000 } as const;

export const DEFAULT_SUBJECT = 'Thanks for your message';

/** What each merge field holds, in the help text's words. */
export const MERGE_FIELD_HINTS: Record<(typeof MERGE_FIELDS)[number], string> = {
  name: `the visitor’s name, at most ${AUTORESPONDER.nameChars} characters, without links or @`,
  email: 'the address the reply goes to',
  form: 'this form’s name',
};

// Postgres's `\s` and `\S` under collation "C".
const SPACE = '\\t\\n\\v\\f\\r ';
const FIELD = new RegExp(`\\{\\{[${SPACE}]*([A-Za-z0-9_.-]{1,100})[${SPACE}]*\\}\\}`, 'g');
// Control and bidirectional-override characters (one line, no reordering).
// eslint-disable-next-line no-control-regex
const LABEL_CONTROLS = /[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]+/g;
// Anything that reads as a link or a host name: scheme:anything, www.anything, anything.tld (with
// the full-width and ideographic full stops too). No `u` flag: with it, `i` would let `[a-z]`
// match the Kelvin sign and the long s, which Postgres does not.
const LINKISH = new RegExp(
  `([a-z][a-z0-9+.-]*:[^${SPACE}]+|www[.。．｡][^${SPACE}]*|[^${SPACE}]*[a-z0-9-][.。．｡][a-z]{2,}[^${SPACE}]*)`,
  'gi',
);
const AT_OR_SPACE = new RegExp(`[@＠${SPACE}]+`, 'g');
// Line breaks and other control characters (a subject is a header line).
// eslint-disable-next-line no-control-regex
const SUBJECT_CONTROLS = /[\u0001-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Postgres's btrim(text): spaces only. */
const btrim = (value: string) => value.replace(/^ +| +$/g, '');

/** Postgres's left(text, n): the first n characters (code points, not UTF-16 units). */
function left(value: string, n: number): string {
  const chars = Array.from(value);
  return chars.length <= n ? value : chars.slice(0, Math.max(n, 0)).join('');
}

/** Postgres's lower(text) under collation "C": A–Z only. */
const lowerAscii = (value: string) => value.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/**
 * A name someone else wrote, made safe for mail to an unconfirmed address (private.mail_label):
 * one line, no control or bidirectional-override characters, nothing that reads as a link or host
 * name, no `@`, whitespace collapsed, at most `max` characters.
 */
export function mailLabel(value: string | null | undefined, max: number): string {
  const cleaned = (value ?? '')
    .replace(LABEL_CONTROLS, ' ')
    .replace(LINKISH, ' ')
    .replace(AT_OR_SPACE, ' ');
  return left(btrim(cleaned), max);
}

// A type, not an interface: it is passed where any string record is taken.
export type AutoresponseValues = {
  name: string;
  email: string;
  form: string;
};

/** The values a reply's merge fields are filled with (private.autoresponse_values). */
export function autoresponseValues(input: {
  name: string | null;
  address: string;
  formName: string;
}): AutoresponseValues {
  return {
    name: mailLabel(input.name, AUTORESPONDER.nameChars),
    email: lowerAscii(input.address),
    form: left(btrim(input.formName.replace(LABEL_CONTROLS, ' ')), 100),
  };
}

/** How many merge fields a template has (each use counts). */
export function mergeFieldCount(template: string): number {
  return [...template.matchAll(FIELD)].length;
}

/**
 * Fills the first `maxFields` merge fields of `template` in one pass (a value is never read as a
 * template); an unknown field and every field past the limit become empty.
 */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  maxFields: number = MAX_MERGE_FIELDS,
): string {
  let n = 0;
  return template.replace(FIELD, (_match, key: string) => {
    n += 1;
    if (n > maxFields || !Object.hasOwn(values, key)) return '';
    return values[key] ?? '';
  });
}

/** The subject as sent: one line, at most 200 characters, never empty. */
export function renderSubject(template: string, values: Readonly<Record<string, string>>): string {
  const line = left(
    btrim(fillTemplate(template, values).replace(SUBJECT_CONTROLS, ' ')),
    AUTORESPONSE_LIMITS.subject,
  );
  return line || DEFAULT_SUBJECT;
}

/** The merge fields a template uses, in order, once each. */
export function fieldsIn(template: string): string[] {
  return [...new Set([...template.matchAll(FIELD)].map((m) => m[1]!))];
}

/** The fields a template uses that a reply leaves empty, in order, once each. */
export function unsentFieldsIn(template: string): string[] {
  const sent: readonly string[] = MERGE_FIELDS;
  return fieldsIn(template).filter((field) => !sent.includes(field));
}

/** A sender name's longest length (form_autoresponders_from_name). */
export const FROM_NAME_MAX = 60;

// What a sender name never holds (form_autoresponders_from_name): control and bidirectional
// characters, `@` and angle brackets, ordinary and full-width.
export const FROM_NAME_FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]/;

/**
 * The replies' sender name when the owner chose none (private.autoresponse_from_name): the form's
 * name as a mail label of at most 47 characters, angle brackets dropped, then " via tinyback".
 */
export function defaultFromName(formName: string): string {
  const label = btrim(mailLabel(formName, 47).replace(/( *[<>＜＞]+ *)+/g, ' '));
  return label ? `${label} via tinyback` : 'tinyback';
}
