// Composes the notification e-mail for one entry: recipient, subject, Reply-To, and text and HTML
// bodies listing every field in order. Every header value is stripped of CR/LF so nothing a
// submitter sends can add a header; every HTML value is escaped; field names are one line and a
// value's lines are indented, so no field can forge a line of the plain-text part. The subject,
// the form's name, the field names and the sender's name and address show bidirectional controls
// as visible tokens (`[U+202E]`) rather than letting them reorder the text around them.
import { cleanFieldName, headerSafe, isEmail } from './text.ts';
import { escapeHtml } from '../_shared/html.ts';
import { visibleText } from '../_shared/visible-text.ts';

/** The fields whose values are names or addresses, shown with their bidi controls visible. */
const SHOWN_VISIBLE = new Set(['name', 'email']);

export interface Notification {
  to: string;
  subject: string;
  replyTo: string | null;
  text: string;
  html: string;
}

function defaultSubject(formName: string): string {
  return `New submission: ${formName}`;
}

export function composeNotification(input: {
  formName: string;
  targetEmail: string;
  entryId: string;
  receivedAt: Date;
  fields: [string, string][];
  subject: string | null;
  replyTo: string | null;
}): Notification {
  const formName = visibleText(headerSafe(input.formName));
  const subject =
    visibleText(headerSafe(input.subject || defaultSubject(formName))) || defaultSubject(formName);
  const replyTo =
    input.replyTo && isEmail(headerSafe(input.replyTo)) ? headerSafe(input.replyTo) : null;
  const when = input.receivedAt.toISOString();

  // Names arrive clean from validateSubmission; cleaning again keeps this module safe on its own.
  const fields = input.fields.map(([name, value]): [string, string] => [
    visibleText(cleanFieldName(name)),
    SHOWN_VISIBLE.has(name) ? visibleText(value) : value,
  ]);
  const textFields = fields.map(([name, value]) => {
    // Mail clients may break lines at U+2028/U+2029 too: indent after those as after \n.
    const lines = value.split(/\r\n|[\n\r\u2028\u2029]/);
    return lines.length > 1 ? `${name}:\n  ${lines.join('\n  ')}` : `${name}: ${value}`;
  });
  const text = [
    `New submission to the form "${formName}".`,
    '',
    ...textFields,
    '',
    '--',
    `Entry ${input.entryId}, received ${when}.`,
    replyTo
      ? `Reply to this e-mail to answer ${visibleText(replyTo)}.`
      : 'The sender left no e-mail address.',
    '',
  ].join('\n');

  const rows = fields
    .map(
      ([name, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(name)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const html =
    '<!doctype html><html><body style="font-family:sans-serif">' +
    `<p>New submission to the form <strong>${escapeHtml(formName)}</strong>.</p>` +
    `<table cellspacing="0" cellpadding="0">${rows}</table>` +
    `<p style="color:#666;font-size:12px">Entry ${escapeHtml(input.entryId)}, received ${escapeHtml(when)}.</p>` +
    '</body></html>';

  return { to: headerSafe(input.targetEmail), subject, replyTo, text, html };
}
