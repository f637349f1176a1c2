// The only module that reads import.meta.env: validates the VITE_* settings once.
// In development the Supabase settings default to the local stack (`npm run stack`).

/** The local stack's well-known demo values (same as the Supabase CLI's). */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321';
export const LOCAL_SUPABASE_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

export interface AppEnv {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

type RawEnv = Record<string, string | boolean | undefined>;

export class EnvError extends Error {}

/** Validates raw env values; throws EnvError with a readable message when something is wrong. */
export function parseEnv(raw: RawEnv): AppEnv {
  const dev = raw.DEV === true || raw.MODE === 'development' || raw.MODE === 'test';
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
  if (!/^(eyJ[\w-]+\.[\w-]+\.[\w-]+|sb_publishable_[\w-]+)$/.test(key)) {
    throw new EnvError('VITE_SUPABASE_ANON_KEY must be a JWT or an sb_publishable_ key.');
  }
  return { supabaseUrl: parsed.origin + parsed.pathname.replace(/\/+$/, ''), supabaseAnonKey: key };
}

export const env: AppEnv = parseEnv(import.meta.env as unknown as RawEnv);
