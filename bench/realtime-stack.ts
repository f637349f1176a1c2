// The local stack of the benchmarks (bench:realtime, bench:live, bench:submissions), run in a
// process of its own so that the load they generate (100–500 subscribed clients, posting clients)
// does not share an event loop with the servers (as on Supabase, where clients and servers are
// different machines).
//
// Started through bench/stack-process.ts with BENCH_DATA_DIR, and BENCH_FUNCTION_ENV (a JSON object,
// e.g. {"FORMS_RATE_LIMITS":"off"}) for the Edge Functions if given; prints one JSON line
// {apiUrl, anonKey, serviceRoleKey, dbUrl} once ready and stops the stack on SIGINT/SIGTERM.
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
  postgresSettings: process.env.BENCH_POSTGRES_SETTINGS
    ? (JSON.parse(process.env.BENCH_POSTGRES_SETTINGS) as Record<string, string>)
    : undefined,
  // BENCH_FUNCTION_LOG=1: the functions' log lines, one per line on stdout as `functions: …`.
  log: process.env.BENCH_FUNCTION_LOG
    ? (service, message) => {
        if (service === 'functions') console.log(`functions: ${message.replace(/\n/g, ' ')}`);
      }
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
