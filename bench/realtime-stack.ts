// The local stack of `npm run bench:realtime`, run in a process of its own so that the 100–500
// subscribed clients of the benchmark do not share an event loop with the Realtime server (as on
// Supabase, where clients and server are different machines).
//
// Started by bench/realtime.ts (and bench/live.ts) with BENCH_DATA_DIR, and BENCH_FUNCTION_ENV (a
// JSON object, e.g. {"FORMS_RATE_LIMITS":"off"}) for the Edge Functions if given; prints one JSON
// line {apiUrl, anonKey, serviceRoleKey, dbUrl} once ready and stops the stack on SIGINT/SIGTERM.
import { freePorts, startStack } from '../local-stack/stack.ts';
import { REALTIME_LIMITS } from '../local-stack/realtime/limits.ts';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');

// The stand-in caps connected users at 200 (Supabase's Free plan); the 500-owner scenario needs
// Supabase Pro's 500. Raised here, in this benchmark-only process; the stack's default is unchanged.
(REALTIME_LIMITS as { maxConcurrentUsers: number }).maxConcurrentUsers = 500;

const [api, db, mailWeb, smtp] = await freePorts(4);
const stack = await startStack({
  dataDir,
  ports: { api, db, mailWeb, smtp },
  seed: false,
  // Every owner signs in from this one IP; the defaults (bursts of 30) would stop at the 31st.
  authRateLimits: { signInSignUps: 100_000, tokenRefresh: 100_000 },
  functionEnv: process.env.BENCH_FUNCTION_ENV
    ? (JSON.parse(process.env.BENCH_FUNCTION_ENV) as Record<string, string>)
    : undefined,
});
const { apiUrl, anonKey, serviceRoleKey, dbUrl } = stack.settings;
console.log(JSON.stringify({ apiUrl, anonKey, serviceRoleKey, dbUrl }));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stack
      .stop()
      .catch((e) => console.error(e))
      .finally(() => process.exit(0));
  });
}
