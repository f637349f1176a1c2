// The inbox as a CSV file: one row per message with its date, form, sender, message and the names
// of its files (in the order sent, joined by "; "), the page it was written on and the visit's
// referrer when any message carries them (the analytics tracker; "(direct)" for none), plus one column per custom field any of the messages carries (in the order first seen, each message's
// fields in the order sent; a field sent more than once has its items joined by "; "). RFC 4180
// (CRLF, every field quoted, quotes doubled), UTF-8 with a byte-order mark so spreadsheet apps read
// accents right, and cells a spreadsheet would run as a formula neutralised.
import {
  fieldNames,
  fieldValue,
  fileNames,
  messageSource,
  type CustomFieldSource,
} from './message-fields';
import type { Message } from './types';

export const CSV_BOM = '\uFEFF';
const CRLF = '\r\n';
const BASE_HEADERS = ['Date', 'Form', 'Name', 'Email', 'Message', 'Files'] as const;
const SOURCE_HEADERS = ['Page', 'Referrer'] as const;

/** The page and referrer cells: empty without the tracker, "(direct)" for a direct visit. */
function sourceCells(message: Message): string[] {
  const source = messageSource(message);
  return source ? [source.page, source.referrer ?? '(direct)'] : ['', ''];
}

// A formula start (`=`, `+`, `-`, `@`, a tab or a carriage return) at the start of the text or
// of a `;`- or `,`-separated part of it, behind any quotes: Excel in locales whose list separator
// is `;` (de, fr, nl, it, es…) splits a line on `;`, not `,`, so a part after either can become a
// cell of its own.
const FORMULA_START = /(^|[;,])("*)(?=[=+\-@\t\r])/g;

/**
 * A cell safe to open in a spreadsheet: the text and each `;`- or `,`-separated part of it that
 * starts like a formula (CSV injection) get a leading `'`: `ok;=1+1;` → `ok;'=1+1;`.
 */
export function neutralizeFormula(text: string): string {
  return text.replace(FORMULA_START, "$1$2'");
}

/**
 * One RFC 4180 field, always quoted (quotes doubled): a field left bare would be split by a
 * spreadsheet whose separator is `;` wherever the value holds one.
 */
export function csvField(value: string): string {
  return `"${neutralizeFormula(value).replace(/"/g, '""')}"`;
}

/** One CSV line (without its line break). */
function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(',');
}

/** The custom field names of the messages, each message's in the order sent, first seen first. */
export function extraColumns(messages: readonly CustomFieldSource[]): string[] {
  const seen = new Set<string>();
  for (const message of messages) for (const name of fieldNames(message)) seen.add(name);
  return [...seen];
}

/** What joins the items of a field sent more than once in its one cell. */
const LIST_SEPARATOR = '; ';

/**
 * A custom field's cell: a text as it is (JSON for anything else); a list's items joined by
 * LIST_SEPARATOR, each one neutralised on its own, since the space after the `;` would hide a
 * formula at an item's start from the check of the whole cell.
 */
export function fieldCell(value: unknown): string {
  const shown = fieldValue(value);
  return Array.isArray(shown) ? shown.map(neutralizeFormula).join(LIST_SEPARATOR) : shown;
}

/** The files' cell: their stored names in the order sent, each neutralised on its own. */
export function filesCell(files: Message['files']): string {
  return fileNames(files).map(neutralizeFormula).join(LIST_SEPARATOR);
}

export interface CsvOptions {
  /** A form's name when the row carries none (the form list the page has). */
  formName?: (formId: string) => string | undefined;
}

/**
 * The whole file's text, BOM first. Dates are ISO 8601 in UTC, so they sort and parse the same
 * everywhere; empty names and e-mails stay empty (they are data here, not display texts).
 */
export function messagesToCsv(messages: readonly Message[], options: CsvOptions = {}): string {
  const extras = extraColumns(messages);
  const sourced = messages.some((message) => messageSource(message));
  const lines = [csvLine([...BASE_HEADERS, ...(sourced ? SOURCE_HEADERS : []), ...extras])];
  for (const message of messages) {
    const date = new Date(message.created_at);
    lines.push(
      csvLine([
        Number.isNaN(date.getTime()) ? message.created_at : date.toISOString(),
        message.form?.name ?? options.formName?.(message.form_id) ?? message.form_id,
        message.name ?? '',
        message.email ?? '',
        message.message ?? '',
        filesCell(message.files),
        ...(sourced ? sourceCells(message) : []),
        ...extras.map((key) =>
          Object.hasOwn(message.data, key) ? fieldCell(message.data[key]) : '',
        ),
      ]),
    );
  }
  return CSV_BOM + lines.join(CRLF) + CRLF;
}
