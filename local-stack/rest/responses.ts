// Writing PostgREST's responses: bodies Postgres already rendered (JSON or CSV text), and errors with their `Proxy-Status` header.
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
  // Postgres rendered the body in the negotiated format (CSV included).
  const type =
    format.kind === 'csv' ? CSV_TYPE : format.kind === 'object' ? OBJECT_TYPE : JSON_TYPE;
  sendText(res, status, row.body, type, headers, head);
}

export function sendError(res: ServerResponse, err: RestError) {
  const text = JSON.stringify(err.body());
  sendText(res, err.status, text, JSON_TYPE, {
    'Proxy-Status': `PostgREST; error=${err.code}`,
    ...err.headers,
  });
}
