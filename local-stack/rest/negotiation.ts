// Request headers PostgREST acts on: `Prefer` (return, count, resolution, missing, handling, tx,
// max-affected), `Accept` (JSON array, single object, CSV, stripped nulls),
// `Accept-Profile`/`Content-Profile` and `Range`, plus the `Content-Range` and status PostgREST
// answers for a page of rows.
import type { IncomingMessage } from 'node:http';
import { RestError } from './errors.ts';
import { EXPOSED_SCHEMA } from './schema-cache.ts';

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  /** `strict` refuses unknown preferences (PGRST122) and enables `max-affected`. */
  handling?: 'strict' | 'lenient';
  /** `rollback` runs the request, answers as if committed, then rolls back. */
  tx?: 'commit' | 'rollback';
  /** Most rows a PATCH, DELETE or set-returning RPC may affect; needs `handling=strict`. */
  maxAffected?: number;
}

type Keyword = 'return' | 'count' | 'resolution' | 'missing' | 'handling' | 'tx';

const KNOWN: Record<Keyword, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  // As with PostgREST's db-tx-end = commit-allow-override, which Supabase's `.rollback()` needs.
  tx: ['commit', 'rollback'],
};

/** Preferences PostgREST honours that the stand-in does not: refused, never silently ignored. */
const UNSUPPORTED = ['timezone', 'params'];

/**
 * Reads `Prefer` as PostgREST v14 does: comma-separated, the first of a repeated preference wins,
 * unknown ones are ignored unless `handling=strict` (then 400 PGRST122).
 */
export function parsePreferences(req: IncomingMessage): Preferences {
  const raw = req.headers.prefer;
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const prefs: Preferences = {};
  const invalid: string[] = [];
  for (const token of text.split(',').map((s) => s.trim())) {
    if (!token) continue;
    const eq = token.indexOf('=');
    const key = eq < 0 ? token : token.slice(0, eq);
    const value = eq < 0 ? '' : token.slice(eq + 1);
    if (key === 'max-affected') {
      // Never invalid, even when it is not a number; then it is just not applied.
      if (prefs.maxAffected === undefined && /^-?\d+$/.test(value))
        prefs.maxAffected = Number(value);
    } else if (UNSUPPORTED.includes(key)) {
      throw new RestError(
        400,
        'PGRST127',
        'Feature not implemented',
        `Prefer: ${token} is not supported by the local stack (see local-stack/README.md).`,
      );
    } else if (key in KNOWN && KNOWN[key as Keyword].includes(value)) {
      const record = prefs as Record<Keyword, string | undefined>;
      record[key as Keyword] ??= value;
    } else {
      invalid.push(token);
    }
  }
  if (prefs.handling === 'strict' && invalid.length > 0) {
    throw new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${invalid.join(', ')}`,
    );
  }
  return prefs;
}

const APPLIED_ORDER = [
  'resolution',
  'missing',
  'return',
  'count',
  'tx',
  'handling',
  'max-affected',
] as const;
export type AppliedPreference = (typeof APPLIED_ORDER)[number];

/** `Preference-Applied` for the preferences a kind of request acts on, in PostgREST's order. */
export function appliedPreferences(
  prefs: Preferences,
  keys: readonly AppliedPreference[],
): Record<string, string> {
  const values: string[] = [];
  for (const key of APPLIED_ORDER) {
    if (!keys.includes(key)) continue;
    if (key === 'max-affected') {
      // Only in effect, and only echoed, with handling=strict.
      if (prefs.handling === 'strict' && prefs.maxAffected !== undefined)
        values.push(`max-affected=${prefs.maxAffected}`);
      continue;
    }
    const value = prefs[key];
    if (value !== undefined) values.push(`${key}=${value}`);
  }
  return values.length ? { 'Preference-Applied': values.join(', ') } : {};
}

/** The rows a PATCH/DELETE/RPC may affect under `handling=strict, max-affected=N`, if any. */
export function maxAffected(prefs: Preferences): number | undefined {
  return prefs.handling === 'strict' ? prefs.maxAffected : undefined;
}

/** 400 PGRST124 as PostgREST answers a write that affects more rows than `max-affected`. */
export function checkMaxAffected(limit: number | undefined, affected: number) {
  if (limit !== undefined && affected > limit) {
    throw new RestError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${affected} rows`,
    );
  }
}

export type ResponseFormat = { kind: 'array' | 'object' | 'csv'; stripNulls: boolean };

/** Picks the response media type from `Accept`; PostgREST answers 406 PGRST107 when none fits. */
export function negotiateFormat(req: IncomingMessage): ResponseFormat {
  const accept = req.headers.accept;
  if (!accept) return { kind: 'array', stripNulls: false };
  const offered = accept
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of offered) {
    const [type, ...params] = entry.split(';').map((s) => s.trim().toLowerCase());
    const stripNulls = params.includes('nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') {
      return { kind: 'object', stripNulls };
    }
    if (
      type === 'application/json' ||
      type === 'application/vnd.pgrst.array+json' ||
      type === '*/*' ||
      type === 'application/*'
    ) {
      return { kind: 'array', stripNulls };
    }
    if (type === 'text/csv') return { kind: 'csv', stripNulls: false };
  }
  throw new RestError(
    406,
    'PGRST107',
    `None of these media types are available: ${offered.join(', ')}`,
  );
}

/**
 * `Accept-Profile`/`Content-Profile` (supabase-js names the schema in them): a schema `[api]
 * schemas` does not list is PostgREST's 406; a listed one other than `public` is not served.
 */
export function checkProfile(req: IncomingMessage, schemas: string[]) {
  for (const header of ['accept-profile', 'content-profile']) {
    const raw = req.headers[header];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '' || value === EXPOSED_SCHEMA) continue;
    throw new RestError(
      406,
      'PGRST106',
      `Invalid schema: ${value}`,
      null,
      schemas.includes(value)
        ? `The local stack serves only the ${EXPOSED_SCHEMA} schema; ${value} is listed in [api] schemas but not served (see local-stack/README.md)`
        : `Only the following schemas are exposed: ${schemas.join(', ')}`,
    );
  }
}

/** `Range: 0-9` (items) as offset and limit; limit/offset parameters narrow it further. */
export function rangeFromHeader(req: IncomingMessage): { offset: number; limit?: number } | null {
  const value = req.headers.range;
  if (!value) return null;
  const m = /^(?:items=)?\s*(\d+)-(\d*)\s*$/.exec(value);
  if (!m) return null;
  const lower = Number(m[1]);
  if (m[2] === '') return { offset: lower };
  const upper = Number(m[2]);
  if (lower > upper) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  return { offset: lower, limit: upper - lower + 1 };
}

/** `Content-Range` and status for a page of `pageTotal` rows starting at `offset`. */
export function pageStatus(
  offset: number,
  pageTotal: number,
  total: number | null,
): { status: number; contentRange: string } {
  const totalText = total === null ? '*' : String(total);
  const contentRange =
    pageTotal > 0 ? `${offset}-${offset + pageTotal - 1}/${totalText}` : `*/${totalText}`;
  if (total === null) return { status: 200, contentRange };
  if (offset > total) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
      null,
      { 'Content-Range': `*/${total}` },
    );
  }
  return { status: pageTotal < total ? 206 : 200, contentRange };
}
