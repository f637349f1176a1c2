// `npm start`: the whole product locally — the local stack (seeded on first run) plus the site on
// http://127.0.0.1:5173 (Vite dev server, which also rewrites /api/forms/{id} to the endpoint).
// SITE_PORT moves the site (the stack's STACK_*_PORT variables move the stack).
import { createServer } from 'vite';
import { runStackCli, stopOnSignals } from '../local-stack/cli.ts';
import { within } from '../local-stack/shutdown.ts';

/** Longest wait for Vite's dev server to close (it ends its own sockets) before going on. */
const VITE_CLOSE_MS = 2_000;

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

try {
  const vite = await createServer({ server: { host: '127.0.0.1', port, strictPort: true } });
  await vite.listen();
  console.log(`Site ready: http://127.0.0.1:${port}  (Ctrl-C stops site and stack)`);
  stopOnSignals({
    async stop() {
      // Side by side: the site's server and the stack's each end their own connections.
      await Promise.all([
        within(VITE_CLOSE_MS, vite.close()).then((closed) => {
          if (!closed) console.log(`The site's server did not close within ${VITE_CLOSE_MS} ms`);
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
