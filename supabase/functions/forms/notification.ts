// Composes the notification e-mail for one entry: recipient, subject, Reply-To, and text and HTML
// bodies listing every field in order, when it arrived in the owner's own time zone (the zone
// always named; UTC when none is known) and a link that opens the message in the dashboard. Every
// header value is stripped of CR/LF so nothing a submitter sends can add a header; every HTML
// value is escaped; field names are one line and a value's lines are indented, so no field can
// forge a line of the plain-text part. The subject, the form's name, the field names and the
// sender's name and address show bidirectional controls as visible tokens (`[U+202E]`) rather
// than letting them reorder the text around them.
import { headerSafe } from '../_shared/header-safe.ts';
import { cleanFieldName, isEmail } from './text.ts';
import { localTime } from './local-time.ts';
import { escapeHtml } from '../_shared/html.ts';
import { visibleText } from '../_shared/visible-text.ts';

/**
 * The dashboard's address of one message: the Messages tab with that message's drawer open
 * (`src/config/paths.ts`, `paths.dashboardMessage`; the site's router reads `message=<id>`).
 */
export function messageLink(siteUrl: string, entryId: string): string {
  const query = new URLSearchParams({ tab: 'messages', message: entryId });
  return `${siteUrl.replace(/\/+$/, '')}/dashboard/forms?${query.toString()}`;
}

/** The fields whose values are names or addresses, shown with their bidi controls visible. */
const SHOWN_VISIBLE = new Set(['name', 'email']);

export interface Notification {
  to: string;
  subject: string;
  replyTo: string | null;
  text: string;
  html: string;
}

/** A file as the notification names it: never a link to the file (it opens in the dashboard). */
export interface NotifiedFile {
  name: string;
  size: number;
  kind: string;
}

/** "68 B", "4.2 KB", "3.1 MB". */
function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
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
  /** The site's URL (SITE_URL): the mail links to the message there; null: no link. */
  siteUrl?: string | null;
  /** The owner's IANA time zone (profiles.time_zone); null or unknown: UTC. */
  timeZone?: string | null;
  /** The files stored with the message (uploads), named with their size and kind. */
  files?: readonly NotifiedFile[];
}): Notification {
  const formName = visibleText(headerSafe(input.formName));
  const subject =
    visibleText(headerSafe(input.subject || defaultSubject(formName))) || defaultSubject(formName);
  const replyTo =
    input.replyTo && isEmail(headerSafe(input.replyTo)) ? headerSafe(input.replyTo) : null;
  const when = localTime(input.receivedAt, input.timeZone);
  const link = input.siteUrl ? messageLink(input.siteUrl, input.entryId) : null;

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
  const files = (input.files ?? []).map((file) => ({
    name: visibleText(file.name),
    about: `${fileSize(file.size)}, ${file.kind}`,
  }));
  const filesHeading = `${files.length} ${files.length === 1 ? 'file' : 'files'} attached (open the message in your dashboard to download ${files.length === 1 ? 'it' : 'them'}):`;
  const text = [
    `New submission to the form "${formName}".`,
    '',
    ...textFields,
    ...(files.length ? ['', filesHeading, ...files.map((f) => `  ${f.name} (${f.about})`)] : []),
    '',
    '--',
    `Received ${when.text}.`,
    ...(link ? [`Open it in your dashboard: ${link}`] : []),
    replyTo
      ? `Reply to this e-mail to answer ${visibleText(replyTo)}.`
      : 'The sender left no e-mail address.',
    `Entry ${input.entryId}. You receive this because the form "${formName}" sends its messages to this address (you can turn that off in its settings).`,
    '',
  ].join('\n');

  const rows = fields
    .map(
      ([name, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(name)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap;overflow-wrap:anywhere">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(subject)}</title></head>` +
    '<body style="margin:0;padding:16px;font-family:sans-serif;line-height:1.5;color:#1a202c;background:#ffffff">' +
    '<div style="max-width:600px;margin:0 auto">' +
    '<p style="margin:0 0 16px;font-weight:bold;color:#0f766e">tinyback</p>' +
    `<p>New submission to the form <strong>${escapeHtml(formName)}</strong>.</p>` +
    `<table cellspacing="0" cellpadding="0" role="presentation">${rows}</table>` +
    (files.length
      ? `<p>${escapeHtml(filesHeading)}</p><ul>` +
        files.map((f) => `<li>${escapeHtml(f.name)} (${escapeHtml(f.about)})</li>`).join('') +
        '</ul>'
      : '') +
    `<p>Received <strong>${escapeHtml(when.when)}</strong> (${escapeHtml(when.zone)}).</p>` +
    (link
      ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#0d9488;` +
        'color:#ffffff;border-radius:6px;text-decoration:none">Open in your dashboard</a></p>' +
        `<p style="overflow-wrap:anywhere">Or open this link: ${escapeHtml(link)}</p>`
      : '') +
    `<p>${replyTo ? `Reply to this e-mail to answer ${escapeHtml(visibleText(replyTo))}.` : 'The sender left no e-mail address.'}</p>` +
    `<p style="color:#666;font-size:12px">Entry ${escapeHtml(input.entryId)}. You receive this because the form ` +
    `<strong>${escapeHtml(formName)}</strong> sends its messages to this address (you can turn that off in its settings).</p>` +
    '</div></body></html>';

  return { to: headerSafe(input.targetEmail), subject, replyTo, text, html };
}
