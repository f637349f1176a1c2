// The rules for the site's VITE_* settings, as a pure function of the raw values: src/config/env.ts
// applies them in the browser, and vite.config.ts at build time, so a production build with a
// missing or dangerous value fails with the same message instead of shipping a blank page or a
// secret key. Reads no environment itself.

/** The local stack's well-known demo values (same as the Supabase CLI's). */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321';
export const LOCAL_SUPABASE_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

export interface AppEnv {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

export type RawEnv = Record<string, string | boolean | undefined>;

export class EnvError extends Error {
  override name = 'EnvError';
}

const PUBLIC_KEY_HELP =
  "Use the project's anon key (Project Settings → API Keys: `anon` `public`) or its publishable key (sb_publishable_…).";

/** The payload of a JWT (its middle part, base64url JSON); null when it is not one. */
function jwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Refuses a key that must never reach a browser: the bundle ships it to every visitor, and only
 * the anon (publishable) key is meant for them; secret keys and privileged roles bypass RLS.
 */
export function checkPublicKey(key: string): void {
  if (/^sb_secret_/.test(key)) {
    throw new EnvError(
      `VITE_SUPABASE_ANON_KEY is a secret key (sb_secret_…): it bypasses row-level security and would be shipped to every visitor. ${PUBLIC_KEY_HELP}`,
    );
  }
  if (/^sb_publishable_[\w-]+$/.test(key)) return;
  if (!/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(key)) {
    throw new EnvError('VITE_SUPABASE_ANON_KEY must be a JWT or an sb_publishable_ key.');
  }
  const payload = jwtPayload(key);
  if (!payload) throw new EnvError('VITE_SUPABASE_ANON_KEY is not a readable JWT.');
  if (payload.role !== 'anon') {
    const which =
      typeof payload.role === 'string' ? `has the "${payload.role}" role` : 'names no role';
    throw new EnvError(
      `VITE_SUPABASE_ANON_KEY ${which}, not "anon": it would be shipped to every visitor, and only the anon key belongs there. ${PUBLIC_KEY_HELP}`,
    );
  }
}

/** Development and test builds fall back to the local stack; production requires both values. */
function isDevelopment(raw: RawEnv): boolean {
  return raw.DEV === true || raw.MODE === 'development' || raw.MODE === 'test';
}

/** Validates raw env values; throws EnvError with a readable message when something is wrong. */
export function parseEnv(raw: RawEnv): AppEnv {
  const dev = isDevelopment(raw);
  const url = String(raw.VITE_SUPABASE_URL ?? '').trim() || (dev ? LOCAL_SUPABASE_URL : '');
  const key =
    String(raw.VITE_SUPABASE_ANON_KEY ?? '').trim() || (dev ? LOCAL_SUPABASE_ANON_KEY : '');
  if (!url) throw new EnvError('VITE_SUPABASE_URL is not set.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EnvError(`VITE_SUPABASE_URL is not a valid URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new EnvError(`VITE_SUPABASE_URL must use http or https: ${url}`);
  }
  if (!key) throw new EnvError('VITE_SUPABASE_ANON_KEY is not set.');
  checkPublicKey(key);
  return { supabaseUrl: parsed.origin + parsed.pathname.replace(/\/+$/, ''), supabaseAnonKey: key };
}
