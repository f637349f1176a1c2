// Entry point of the `forms-api` Edge Function (the read API): wires a service-role Supabase
// client into the request handler. Callers authenticate with their own API key, never a JWT, so
// the function is deployed with verify_jwt = false and checks every key itself.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { handleRequest, type FormsApiDeps } from './handler.ts';
import { createApiStore } from './supabase-store.ts';

const env = (name: string) => Deno.env.get(name);

function required(name: string): string {
  const value = env(name);
  if (!value) throw new Error(`The forms-api function needs the ${name} environment variable.`);
  return value;
}

const supabase = createClient(required('SUPABASE_URL'), required('SUPABASE_SERVICE_ROLE_KEY'), {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

const deps: FormsApiDeps = {
  ...createApiStore(supabase),
  log: (message) => console.error(`forms-api: ${message}`),
};

Deno.serve((req) => handleRequest(req, deps));
