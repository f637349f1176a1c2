// The only module that reads import.meta.env: validates the VITE_* settings once, by the rules in
// env-rules.ts (which vite.config.ts also applies to production builds).
// In development the Supabase settings default to the local stack (`npm run stack`).
import { parseEnv, type AppEnv, type RawEnv } from './env-rules';

export type { AppEnv } from './env-rules';

export const env: AppEnv = parseEnv(import.meta.env as unknown as RawEnv);
