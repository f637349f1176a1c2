// `npm start`: the whole product locally — the local stack (seeded on first run) plus the site on
// http://127.0.0.1:5173 (Vite dev server, which also rewrites /api/forms/{id} to the endpoint).
// SITE_PORT moves the site (the stack's STACK_*_PORT variables move the stack).
import { createServer } from 'vite';
import { runStackCli, stopOnSignals } from '../local-stack/cli.ts';
import { closable, within } from '../local-stack/shutdown.ts';

/** Longest wait for the site's sockets to close before going on. */
const SITE_CLOSE_MS = 2_000;

function sitePort(): number {
  const raw = process.env.SITE_PORT;
  if (raw === undefined || raw === '') return 5173;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`SITE_PORT must be a TCP port number, got "${raw}"`);
    process.exit(1);
  }
  return port;
}

const port = sitePort();
const stack = await runStackCli(process.argv.slice(2)).catch((err: Error) => {
  console.error(`Local stack failed to start: ${err.stack ?? err}`);
  process.exit(1);
});

process.env.VITE_SUPABASE_URL ??= stack.settings.apiUrl;
process.env.VITE_SUPABASE_ANON_KEY ??= stack.settings.anonKey;

/**
 * Vite's dev server closes itself and exits on SIGTERM (and when stdin ends), which would cut the
 * stack's stop short: the signals are handled below, for both.
 */
function withoutViteExitHooks<T>(create: () => Promise<T>): Promise<T> {
  const before = new Set(process.listeners('SIGTERM'));
  const stdinBefore = new Set(process.stdin.listeners('end'));
  return create().finally(() => {
    for (const l of process.listeners('SIGTERM')) if (!before.has(l)) process.off('SIGTERM', l);
    for (const l of process.stdin.listeners('end')) {
      if (!stdinBefore.has(l)) process.stdin.off('end', l as () => void);
    }
  });
}

try {
  const vite = await withoutViteExitHooks(() =>
    createServer({ server: { host: '127.0.0.1', port, strictPort: true } }),
  );
  const siteSockets = closable(vite.httpServer!);
  await vite.listen();
  console.log(`Site ready: http://127.0.0.1:${port}  (Ctrl-C stops site and stack)`);
  stopOnSignals({
    async stop() {
      // The site's part is its sockets: Vite's hot-reload WebSockets and its HTTP connections
      // (keep-alive ones too). Vite's full close() also shuts its file watchers and cancels a
      // dependency scan under way, which took 1 to 3 s of a busy machine's time for what the exit
      // ends anyway (its dependency cache is written to a temporary folder, then renamed).
      const started = Date.now();
      const site = Promise.all([vite.ws.close(), siteSockets.close(0)]);
      await Promise.all([
        within(SITE_CLOSE_MS, site).then((closed) => {
          if (!closed) console.log(`[site] did not stop within ${SITE_CLOSE_MS} ms; going on`);
          else if (Date.now() - started >= 1_000)
            console.log(`[site] stopped in ${Date.now() - started} ms`);
        }),
        stack.stop(),
      ]);
    },
    abort: () => stack.abort(),
  });
} catch (err) {
  console.error(`Site failed to start: ${(err as Error).message}`);
  await stack.stop();
  process.exit(1);
}
