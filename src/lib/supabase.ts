// The one Supabase client of the app (the only createClient call in src/).
import { createClient } from '@supabase/supabase-js';
import { env } from '../config/env';
import { sessionStore } from './session-storage';

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
