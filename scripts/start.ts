// `npm start`: the whole product locally — the local stack (seeded on first run) plus the site on
// http://127.0.0.1:5173 (Vite dev server, which also rewrites /api/forms/{id} to the endpoint).
import { createServer } from 'vite';
import { runStackCli, stopOnSignals } from '../local-stack/cli.ts';

const stack = await runStackCli(process.argv.slice(2)).catch((err: Error) => {
  console.error(`Local stack failed to start: ${err.stack ?? err}`);
  process.exit(1);
});

process.env.VITE_SUPABASE_URL ??= stack.settings.apiUrl;
process.env.VITE_SUPABASE_ANON_KEY ??= stack.settings.anonKey;

try {
  const vite = await createServer({ server: { host: '127.0.0.1', port: 5173, strictPort: true } });
  await vite.listen();
  console.log(`Site ready: http://127.0.0.1:5173  (Ctrl-C stops site and stack)`);
  // Sign-ups wait for their e-mail to be confirmed (config.toml), and nothing leaves the machine.
  console.log(
    `Mail inbox: ${stack.settings.mailWebUrl}  (every e-mail sent locally, e.g. the link that confirms a sign-up)`,
  );
  stopOnSignals(async () => {
    await vite.close();
    await stack.stop();
  });
} catch (err) {
  console.error(`Site failed to start: ${(err as Error).message}`);
  await stack.stop();
  process.exit(1);
}
