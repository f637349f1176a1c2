// The request body as PostgREST takes it: at most 1 MiB, JSON only, parsed once.
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, parseJsonBody, readBody } from '../http.ts';
import { RestError } from './errors.ts';

/** Larger bodies are refused with 413, as the API gateway in front of PostgREST would. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The whole body; over MAX_BODY_BYTES a 413 (after reading it to its end, see readBody). */
export async function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  try {
    return await readBody(req, MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      throw new RestError(
        413,
        'PGRST413',
        'Request body is too large',
        `The limit is ${MAX_BODY_BYTES} bytes.`,
      );
    }
    throw err;
  }
}

export const invalidBody = (message: string) => new RestError(400, 'PGRST102', message);

export function parseJson(body: Buffer): unknown {
  try {
    return parseJsonBody(body);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkJsonContentType(req: IncomingMessage) {
  const type = (req.headers['content-type'] ?? 'application/json')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && type !== '') {
    throw new RestError(415, 'PGRST107', `None of these media types are available: ${type}`);
  }
}
