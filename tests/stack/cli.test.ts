// `npm run stack` as a user runs it: prints `ready` once every service answers, keeps data across
// restarts, wipes it with --reset, and stops everything on Ctrl-C (SIGINT) without orphans.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../local-stack/stack.ts';
import { ANON_KEY, PROJECT_DIR } from '../../local-stack/config.ts';
import { processesUsing } from '../support/processes.ts';

let dataDir: string;
let ports: { api: number; db: number; mailWeb: number; smtp: number };

interface RunningCli {
  child: ChildProcess;
  output: () => string;
}

function startCli(args: string[] = []): Promise<RunningCli> {
  // What `npm run stack` runs (package.json), without npm in between.
  const child = spawn(process.execPath, ['--import', 'tsx', 'local-stack/cli.ts', ...args], {
    cwd: PROJECT_DIR,
    env: {
      ...process.env,
      STACK_DATA_DIR: dataDir,
      STACK_API_PORT: String(ports.api),
      STACK_DB_PORT: String(ports.db),
      STACK_MAIL_WEB_PORT: String(ports.mailWeb),
      STACK_SMTP_PORT: String(ports.smtp),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      if (/\bready\b/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stack exited with ${code} before ready:\n${output}`));
    });
  });
}

function stopCli(cli: RunningCli): Promise<number | null> {
  return new Promise((resolve) => {
    cli.child.once('exit', (code) => resolve(code));
    cli.child.kill('SIGINT');
  });
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
  const client = new pg.Client(`postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`);
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-cli-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  ports = { api, db, mailWeb, smtp };
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

// A first start creates the cluster, migrates and seeds: far over the default 30 s on a busy machine
// (startCli itself waits up to 90 s for the ready line).
describe('npm run stack', { timeout: 120_000 }, () => {
  const marker = `persist-${Date.now()}@example.test`;

  it('prints ready when every service answers, and Ctrl-C stops everything', async () => {
    const cli = await startCli();
    expect(cli.output()).toContain(`http://127.0.0.1:${ports.api}`);
    const api = `http://127.0.0.1:${ports.api}`;
    expect((await fetch(`${api}/auth/v1/health`, { headers: { apikey: ANON_KEY } })).status).toBe(
      200,
    );
    expect((await fetch(`http://127.0.0.1:${ports.mailWeb}/email`)).status).toBe(200);
    // Start a Deno worker too, so the shutdown check covers function processes.
    const fn = await fetch(`${api}/functions/v1/forms/not-a-form-id`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    expect(fn.status).toBe(404);
    await sql('insert into private.newsletter_subscribers (email) values ($1)', [marker]);
    expect(await processesUsing(dataDir)).not.toEqual([]);

    expect(await stopCli(cli)).toBe(0);
    for (const port of Object.values(ports)) expect(await portIsClosed(port)).toBe(true);
    expect(await processesUsing(dataDir)).toEqual([]);
  });

  it('keeps data across restarts', async () => {
    const cli = await startCli();
    try {
      const rows = await sql('select email from private.newsletter_subscribers where email = $1', [
        marker,
      ]);
      expect(rows).toEqual([{ email: marker }]);
    } finally {
      expect(await stopCli(cli)).toBe(0);
    }
  });

  it('wipes and re-seeds with --reset', async () => {
    const cli = await startCli(['--reset']);
    try {
      expect(cli.output()).toMatch(/seeded/);
      expect(
        await sql('select email from private.newsletter_subscribers where email = $1', [marker]),
      ).toEqual([]);
      const posts = await sql<{ n: number }>('select count(*)::int as n from public.blog_posts');
      expect(posts[0].n).toBeGreaterThanOrEqual(5);
    } finally {
      expect(await stopCli(cli)).toBe(0);
    }
    expect(await processesUsing(dataDir)).toEqual([]);
  });
});
