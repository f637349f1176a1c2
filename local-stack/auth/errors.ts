// GoTrue's error responses: `{code, message}` (API version 2024-01-01, which auth-js always
// requests) plus `error_code` for older clients, and the `x-sb-error-code` header.
import type { ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';

/** Headers every Auth response carries, as GoTrue sets them. */
const AUTH_HEADERS = { 'X-Supabase-Api-Version': '2024-01-01' };

export class AuthError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    /** Extra top-level fields of the body, e.g. `weak_password`. */
    public extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** OAuth-style errors (`{error, error_description}`) that GoTrue still uses for the token grant. */
export class OAuthError extends Error {
  constructor(
    public status: number,
    public error: string,
    public description: string,
  ) {
    super(description);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const validationFailed = (message: string) =>
  new AuthError(400, 'validation_failed', message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);
/**
 * A GoTrue feature the local stack does not serve (see local-stack/README.md). 400, not 501:
 * auth-js turns every 5xx into a retryable network error and drops the code and message.
 */
export const notImplemented = (what: string) =>
  new AuthError(
    400,
    'not_implemented',
    `${what} is not supported by the local stack (see local-stack/README.md)`,
  );

export function weakPassword(minimumLength: number) {
  return new AuthError(
    422,
    'weak_password',
    `Password should be at least ${minimumLength} characters.`,
    {
      weak_password: { reasons: ['length'] },
    },
  );
}

export function sendAuthJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  sendJson(res, status, body, { ...AUTH_HEADERS, ...headers });
}

export function sendAuthError(res: ServerResponse, err: AuthError | OAuthError) {
  if (err instanceof OAuthError) {
    sendAuthJson(res, err.status, { error: err.error, error_description: err.description });
    return;
  }
  sendAuthJson(
    res,
    err.status,
    { code: err.code, error_code: err.code, message: err.message, ...err.extra },
    { 'x-sb-error-code': err.code },
  );
}
