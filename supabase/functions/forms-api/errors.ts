// The read API's refusals, in the same shape as the form endpoint's JSON errors
// ({ ok: false, error, code, fields }): one status, machine code and sentence per kind of failure.
import { API_KEYS } from '../_shared/limits.ts';

type ApiErrorCode =
  | 'unauthorized'
  | 'insufficient_scope'
  | 'form_not_found'
  | 'entry_not_found'
  | 'not_found'
  | 'method_not_allowed'
  | 'invalid_query'
  | 'rate_limited'
  | 'storage_failed';

export interface ApiError {
  status: number;
  code: ApiErrorCode;
  /** One human sentence, safe to show to the key's owner. */
  error: string;
  /** Per-parameter problems (400 invalid_query only): parameter name → sentence. */
  fields?: Record<string, string>;
  /** Seconds the client should wait before trying again (429 and 503). */
  retryAfter?: number;
  /** The methods the route accepts (405 only). */
  allow?: string;
}

const fail = (
  status: number,
  code: ApiErrorCode,
  error: string,
  extra: Pick<ApiError, 'fields' | 'retryAfter' | 'allow'> = {},
): ApiError => ({ status, code, error, ...extra });

export const API_ERRORS = {
  // One answer for a missing, malformed, unknown or revoked key: the caller learns nothing else.
  unauthorized: () =>
    fail(
      401,
      'unauthorized',
      `Send a valid API key as "Authorization: Bearer ${API_KEYS.prefix}…".`,
    ),
  insufficientScope: () =>
    fail(403, 'insufficient_scope', 'This API key is read-only; deleting needs a read-write key.'),
  formNotFound: () => fail(404, 'form_not_found', 'This form does not exist.'),
  entryNotFound: () => fail(404, 'entry_not_found', 'This entry does not exist.'),
  notFound: () => fail(404, 'not_found', 'Nothing is served at this address.'),
  methodNotAllowed: (allow: string) =>
    fail(405, 'method_not_allowed', `This address accepts ${allow} only.`, { allow }),
  invalidQuery: (fields: Record<string, string>) =>
    fail(400, 'invalid_query', 'Some query parameters are not valid.', { fields }),
  rateLimited: (retryAfter: number) =>
    fail(
      429,
      'rate_limited',
      `This API key made more than ${API_KEYS.requestsPerMinute} requests this minute; please try again later.`,
      { retryAfter },
    ),
  storageFailed: () =>
    fail(
      503,
      'storage_failed',
      'The request could not be completed; please try again in a moment.',
      {
        retryAfter: 5,
      },
    ),
} as const;
