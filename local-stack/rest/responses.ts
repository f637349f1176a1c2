// Writing PostgREST's responses: JSON bodies that are already JSON text (rendered by Postgres),
// CSV, and errors with their `Proxy-Status` header.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RestError } from './errors.ts';
import type { ResultRow } from './execute.ts';
import type { ResponseFormat } from './negotiation.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';

export function sendText(
  res: ServerResponse,
  status: number,
  body: string | null,
  contentType: string,
  headers: Record<string, string>,
  head = false,
) {
  if (res.headersSent) return;
  const text = body ?? '';
  res.writeHead(status, {
    ...(text ? { 'Content-Type': contentType } : {}),
    'Content-Length': head ? 0 : Buffer.byteLength(text),
    ...headers,
  });
  res.end(head ? undefined : text);
}

export function sendRows(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  row: ResultRow,
  format: ResponseFormat,
  headers: Record<string, string>,
) {
  const head = req.method === 'HEAD';
  if (format.kind === 'csv') {
    return sendText(res, status, rowsToCsv(row.body ?? '[]'), CSV_TYPE, headers, head);
  }
  const type = format.kind === 'object' ? OBJECT_TYPE : JSON_TYPE;
  sendText(res, status, row.body, type, headers, head);
}

export function sendError(res: ServerResponse, err: RestError) {
  const text = JSON.stringify(err.body());
  sendText(res, err.status, text, JSON_TYPE, {
    'Proxy-Status': `PostgREST; error=${err.code}`,
    ...err.headers,
  });
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `text/csv` body from a JSON array of rows: a header line, then one line per row. */
function rowsToCsv(jsonArray: string): string {
  const rows = JSON.parse(jsonArray) as Record<string, unknown>[];
  if (!rows.length) return '';
  const columns = Object.keys(rows[0]);
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return lines.join('\n');
}
