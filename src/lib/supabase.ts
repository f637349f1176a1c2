// The one Supabase client of the app (the only createClient call in src/). Loaded on demand, not
// with the first page: the modules that need it sit in lazy chunks, and the auth state learns of
// it through supabase-ready.ts (see src/lib/auth.tsx).
import { createClient } from '@supabase/supabase-js';
import { env } from '../config/env';
import { sessionStore } from './session-storage';
import { announceClient } from './supabase-ready';

export const supabase = createClient(env.supabaseUrl, env.supabaseAnonKey, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    // Password-reset links arrive with the session in the URL.
    detectSessionInUrl: true,
    // localStorage or sessionStorage, following the login form's 'Remember me'.
    storage: sessionStore.storage,
  },
});

announceClient(supabase);
