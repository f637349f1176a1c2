// Reading an Auth request: the JSON body (capped, typed like GoTrue's Go structs) and the caller's
// identity from the bearer JWT.
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, bearerToken, parseJsonBody, readBody } from '../http.ts';
import { verifyJwt, type Claims } from '../jwt.ts';
import { AuthError, badRequest, forbidden } from './errors.ts';

/** GoTrue requests are small; anything larger than this is refused before parsing. */
const MAX_BODY_BYTES = 256 * 1024;

export type JsonObject = Record<string, unknown>;

const badJson = (detail: string) =>
  badRequest('bad_json', `Could not parse request body as JSON: ${detail}`);

/** The request's JSON object body; an empty body is `{}` as Go's decoder leaves a zero struct. */
export async function readJsonObject(req: IncomingMessage): Promise<JsonObject> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      throw new AuthError(413, 'request_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = parseJsonBody(raw);
  } catch (err) {
    throw badJson((err as Error).message);
  }
  if (parsed === undefined || parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badJson('json: cannot unmarshal into a Go value of type object');
  }
  return parsed as JsonObject;
}

/** A string field; absent or null reads as "", any other type is a JSON decoding error. */
export function stringField(body: JsonObject, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string')
    throw badJson(`json: cannot unmarshal ${typeof value} into field ${key} of type string`);
  return value;
}

/** An object field (e.g. `data`, `user_metadata`); absent or null reads as undefined. */
export function objectField(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badJson(
      `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into field ${key} of type map`,
    );
  }
  return value as JsonObject;
}

export function booleanField(body: JsonObject, key: string): boolean {
  const value = body[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean')
    throw badJson(`json: cannot unmarshal ${typeof value} into field ${key} of type bool`);
  return value;
}

/** Verifies the bearer JWT as GoTrue's `requireAuthentication` does and returns its claims. */
export async function requireClaims(req: IncomingMessage, jwtSecret: string): Promise<Claims> {
  const token = bearerToken(req);
  if (!token)
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const result = await verifyJwt(token, jwtSecret);
  if (!result.ok) {
    const detail =
      result.reason === 'expired' ? 'token has invalid claims: token is expired' : result.message;
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`);
  }
  return result.claims;
}

/** GoTrue's admin routes accept only JWTs whose role is one of GOTRUE_JWT_ADMIN_ROLES. */
const ADMIN_ROLES = ['service_role', 'supabase_admin'];

export async function requireAdmin(req: IncomingMessage, jwtSecret: string): Promise<Claims> {
  const claims = await requireClaims(req, jwtSecret);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.includes(claims.role)) {
    throw forbidden('not_admin', 'User not allowed');
  }
  return claims;
}
