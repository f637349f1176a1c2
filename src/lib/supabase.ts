// The one Supabase client of the app (the only createClient call in src/). Loaded on demand, not
// with the first page: the modules that need it sit in lazy chunks, and the auth state learns of
// it through supabase-ready.ts (see src/lib/auth.tsx).
import { createClient } from '@supabase/supabase-js';
import { env } from '../config/env';
import type { Database } from './database';
import { connection } from './connection';
import { fetchWithTimeout } from './fetch-with-timeout';
import { sessionStore } from './session-storage';
import { announceClient } from './supabase-ready';

/** After a dropped realtime socket: try again soon, then every 5 s (the default goes to 10 s). */
const REALTIME_RECONNECT_MS = [1000, 2000, 5000];

export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    // Password-reset links arrive with the session in the URL.
    detectSessionInUrl: true,
    // localStorage or sessionStorage, following the login form's 'Remember me'.
    storage: sessionStore.storage,
  },
  // Every request (auth, REST, functions) ends within the timeout, and tells the connection
  // monitor whether the API answered.
  global: {
    fetch: fetchWithTimeout((input, init) => fetch(input, init), { onOutcome: connection.report }),
  },
  realtime: {
    reconnectAfterMs: (tries: number) => REALTIME_RECONNECT_MS[tries - 1] ?? 5000,
  },
});

// postgrest-js retries a failed GET or HEAD by itself (three more tries, 1 + 2 + 4 s apart, a
// timed-out one included) and supabase-js has no option to turn that off; on top of TanStack
// Query's own retries (query-client.ts), a read with the API down took 25 s to fail, with
// skeletons meanwhile, and a read the server never answers over 50 s instead of the timeout.
// Retrying is TanStack Query's job alone. `rest` is protected in the types, not at run time:
// supabase.test.ts fails should an upgrade move it.
(supabase as unknown as { rest: { retry?: boolean } }).rest.retry = false;

announceClient(supabase);
