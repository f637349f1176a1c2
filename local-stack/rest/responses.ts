// Writing PostgREST's responses: JSON bodies that are already JSON text (rendered by Postgres),
// CSV, and errors with their `Proxy-Status` header.
import type { ServerResponse } from 'node:http';
import type { RestError } from './errors.ts';

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

export function sendError(res: ServerResponse, err: RestError) {
  const text = JSON.stringify(err.body());
  sendText(res, err.status, text, 'application/json; charset=utf-8', {
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
export function rowsToCsv(jsonArray: string): string {
  const rows = JSON.parse(jsonArray) as Record<string, unknown>[];
  if (!rows.length) return '';
  const columns = Object.keys(rows[0]);
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return lines.join('\n');
}
