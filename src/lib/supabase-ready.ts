// Tells the auth state when the Supabase client has been loaded, by whichever page loaded it.
// supabase-js is not in the first JavaScript a page loads: a signed-out visitor on the marketing
// pages never needs it, and the pages that do (login, blog, dashboard) import src/lib/supabase.ts
// in their own chunks. This module is tiny and free of supabase-js on purpose.
import type { SupabaseClient } from '@supabase/supabase-js';

type Listener = (client: SupabaseClient) => void;

let loaded: SupabaseClient | undefined;
const listeners = new Set<Listener>();

/** Called once by src/lib/supabase.ts when the client exists. */
export function announceClient(client: SupabaseClient): void {
  loaded = client;
  listeners.forEach((listener) => listener(client));
}

/** Calls `listener` with the client as soon as it is loaded (at once if it already is). */
export function onClientLoaded(listener: Listener): () => void {
  if (loaded) listener(loaded);
  listeners.add(listener);
  return () => listeners.delete(listener);
}
