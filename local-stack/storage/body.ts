// JSON request bodies of Storage's routes.
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, parseJsonBody, readBody } from '../http.ts';
import { errors } from './errors.ts';

/** JSON bodies of the API calls (not uploads) stay small; 1 MiB as REST's. */
const JSON_BODY_LIMIT = 1024 * 1024;

export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readBody(req, JSON_BODY_LIMIT);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw errors.entityTooLarge();
    throw err;
  }
  let body: unknown;
  try {
    body = parseJsonBody(raw);
  } catch {
    throw errors.invalidRequest('Body is not valid JSON');
  }
  if (body === undefined) return {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.invalidRequest('body must be object');
  }
  return body as Record<string, unknown>;
}
