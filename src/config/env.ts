// The only module that knows the VITE_* settings: vite.config.ts checks them by the rules in
// env-rules.ts when the build, dev server or tests start, and defines them here, normalised.
// In development and tests the Supabase settings default to the local stack (`npm run stack`).
import type { AppEnv } from './env-rules';

export type { AppEnv } from './env-rules';

declare const __SITE_ENV__: AppEnv;

export const env: AppEnv = __SITE_ENV__;
