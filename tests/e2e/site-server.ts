// Builds the site against a given Supabase URL and key, and serves the build with `vite preview`
// on a free port, as a static host would (SPA fallback to index.html).
//
// A build takes a while, so browser tests share one per stack (the build names its API): given
// `outDir` (the global setup names one per stack, see tests/setup/stack.ts), the site is built
// there only when no build is there yet, and every file previews that build on its own port.
// Without `outDir` (the inbox benchmark) a private build is made and removed again on close.
import { access, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import { buildSite } from '../../scripts/build-site';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface SiteServer {
  url: string;
  close: () => Promise<void>;
}

export interface ServeOptions {
  /** A build folder shared by several servers: built into only if it holds no build yet. */
  outDir?: string;
}

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function buildFor(outDir: string, supabaseUrl: string, anonKey: string): Promise<void> {
  // Vite reads VITE_* from the process environment as well as from .env files.
  const saved = {
    url: process.env.VITE_SUPABASE_URL,
    key: process.env.VITE_SUPABASE_ANON_KEY,
    nodeEnv: process.env.NODE_ENV,
  };
  process.env.VITE_SUPABASE_URL = supabaseUrl;
  process.env.VITE_SUPABASE_ANON_KEY = anonKey;
  // As `npm run build` does: Vitest sets NODE_ENV=test, which Vite would keep, shipping React's
  // development build (larger and slower) instead of the one visitors get.
  process.env.NODE_ENV = 'production';
  try {
    await buildSite(outDir, 'warn');
  } finally {
    restore('VITE_SUPABASE_URL', saved.url);
    restore('VITE_SUPABASE_ANON_KEY', saved.key);
    restore('NODE_ENV', saved.nodeEnv);
  }
}

/**
 * Builds into `outDir` unless a complete build is there. The build goes to a sibling folder first
 * and is renamed into place, so a reader never sees half a build and two racing builders leave
 * one whole build behind (the loser's rename fails because the folder is then full).
 */
export async function ensureBuilt(
  outDir: string,
  supabaseUrl: string,
  anonKey: string,
): Promise<void> {
  if (await exists(path.join(outDir, 'index.html'))) return;
  const staging = `${outDir}.building-${process.pid}-${Date.now()}`;
  await buildFor(staging, supabaseUrl, anonKey);
  try {
    await rename(staging, outDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!(await exists(path.join(outDir, 'index.html')))) throw error;
  }
}

export async function serveSite(
  supabaseUrl: string,
  anonKey: string,
  options: ServeOptions = {},
): Promise<SiteServer> {
  const shared = options.outDir;
  const outDir = shared ?? (await mkdtemp(path.join(tmpdir(), 'tinyback-site-')));
  if (shared) await ensureBuilt(shared, supabaseUrl, anonKey);
  else await buildFor(outDir, supabaseUrl, anonKey);
  const port = await freePort();
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      // A shared build outlives this server; the global setup's teardown removes it.
      if (!shared) await rm(outDir, { recursive: true, force: true });
    },
  };
}
