// Request headers PostgREST acts on: `Prefer` (return, count, resolution, missing), `Accept`
// (JSON array, single object, CSV, stripped nulls), `Accept-Profile`/`Content-Profile` and `Range`,
// plus the `Content-Range` and status PostgREST answers for a page of rows.
import type { IncomingMessage } from 'node:http';
import { RestError } from './errors.ts';
import { EXPOSED_SCHEMA } from './schema-cache.ts';

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  /** The recognised preferences, echoed in `Preference-Applied`. */
  applied: string[];
}

const KNOWN: Record<string, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
};

export function parsePreferences(req: IncomingMessage): Preferences {
  const raw = req.headers.prefer;
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const prefs: Preferences = { applied: [] };
  for (const part of text.split(',')) {
    const [key, value] = part
      .trim()
      .split('=')
      .map((s) => s.trim());
    // Unknown or malformed preferences are ignored, as with PostgREST's default handling=lenient.
    if (!key || !value || !KNOWN[key]?.includes(value)) continue;
    (prefs as unknown as Record<string, string>)[key] = value;
    prefs.applied.push(`${key}=${value}`);
  }
  return prefs;
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

/** Only `public` is exposed; supabase-js names the schema in these headers. */
export function checkProfile(req: IncomingMessage) {
  for (const header of ['accept-profile', 'content-profile']) {
    const value = req.headers[header];
    if (typeof value === 'string' && value.trim() !== '' && value.trim() !== EXPOSED_SCHEMA) {
      throw new RestError(
        406,
        'PGRST106',
        `Invalid schema: ${value.trim()}`,
        null,
        `Only the following schemas are exposed: ${EXPOSED_SCHEMA}`,
      );
    }
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
