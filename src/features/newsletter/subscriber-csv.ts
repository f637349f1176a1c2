// Reading the CSV file an owner imports: a header row names the columns (an e-mail column is
// required, a name column is optional, in any order and any case; other columns are ignored),
// then one subscriber per row. RFC 4180 quoting (commas, quotes doubled and line breaks inside
// quotes), CRLF, LF or CR line ends, a byte-order mark, and the `;` or tab separators that
// spreadsheet apps write in some locales. Everything stays in the browser until the owner imports.

/**
 * One data row of the file. `row` is the line it starts on (the header is row 1): its row in a
 * spreadsheet, unless a quoted field above it spans lines.
 */
export interface CsvSubscriber {
  row: number;
  email: string;
  name: string;
}

export type CsvParseResult = { ok: true; rows: CsvSubscriber[] } | { ok: false; error: string };

const EMAIL_HEADERS = new Set(['email', 'e-mail', 'email address', 'e-mail address', 'mail']);
const NAME_HEADERS = new Set(['name', 'full name', 'fullname', 'display name']);

/** The records of a CSV text, each with the line it starts on (1-based), blank lines skipped. */
export function parseCsvRecords(
  text: string,
  separator: string,
): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let touched = false;

  const endRecord = () => {
    fields.push(field);
    if (touched || fields.length > 1 || field !== '') records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    touched = false;
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field.trim() === '') {
      // A quote opens a quoted field only at its start (spaces before it are dropped).
      field = '';
      quoted = true;
      touched = true;
    } else if (c === separator) {
      fields.push(field);
      field = '';
      touched = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += c;
    }
  }
  if (field !== '' || fields.length > 0 || touched) endRecord();
  return records;
}

/** The separator of the header line: the most frequent of `,`, `;` and tab outside quotes. */
function detectSeparator(text: string): string {
  const header = text.split(/\r\n|\r|\n/, 1)[0].replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t']) {
    const count = header.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

const headerName = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');

/** The subscribers of a CSV file's text, or why it cannot be read. */
export function parseSubscriberCsv(input: string): CsvParseResult {
  const text = input.replace(/^\uFEFF/, '');
  const records = parseCsvRecords(text, detectSeparator(text));
  if (records.length === 0) return { ok: false, error: 'The file is empty.' };
  const header = records[0].fields.map(headerName);
  const emailAt = header.findIndex((name) => EMAIL_HEADERS.has(name));
  if (emailAt === -1)
    return {
      ok: false,
      error:
        'The first row must name the columns, one of them "email" (and "name" if you have one).',
    };
  const nameAt = header.findIndex((name) => NAME_HEADERS.has(name));
  const rows = records.slice(1).map(({ line, fields }) => ({
    row: line,
    email: (fields[emailAt] ?? '').trim(),
    name: nameAt === -1 ? '' : (fields[nameAt] ?? '').trim(),
  }));
  // A row with nothing in either column (a trailing ",,") is no subscriber.
  return { ok: true, rows: rows.filter((row) => row.email !== '' || row.name !== '') };
}
