// Benchmark (not a test): how long does `npm start` take, with a warm data folder, until the site
// and the API answer? Target ≤ 2 s.
//
// Runs `npm start` with STACK_DATA_DIR in a temporary folder and the stack on free ports (the
// README's STACK_*_PORT overrides; the site keeps its fixed http://127.0.0.1:5173, so the bench
// refuses to run while that port is taken). The first start warms the folder (initdb, migrations,
// seed); then N warm starts are timed from the spawn until both `GET {api}/rest/v1/` (anon key) and
// `GET http://127.0.0.1:5173/` answer 200, polling every 20 ms, each stopped with Ctrl-C (SIGINT).
// Baselines from the same run: a bare `node -e ""`, and the stack's own "ready in N ms" line.
//
//   npm run bench:startup          (about a minute)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from '../local-stack/stack.ts';
import { machineSummary, writeSection } from './report.ts';

const RUNS = 5;
const TARGET_MS = 2000;
const SITE = 'http://127.0.0.1:5173/';
const POLL_MS = 20;
const TIMEOUT_MS = 120_000;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value)} ms`;

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

async function answers200(url: string, headers: Record<string, string> = {}) {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

interface Start {
  /** Spawn → API and site both answer 200. */
  totalMs: number;
  /** The stack's own "Local stack ready in N ms" (its start → every service answers). */
  stackReadyMs: number;
  /** Spawn → that line printed; minus stackReadyMs, the time before the stack starts. */
  stackLineAt: number;
  /** Spawn → "Site ready" printed (Vite listening). */
  siteLineAt: number;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Ctrl-C to the whole process group; SIGKILL if it has not exited after 20 s. */
async function stop(child: ChildProcess, exited: Promise<void>) {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  if (running(child)) signal('SIGINT');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (running(child)) signal('SIGKILL');
}

/** One `npm start`: time until API and site answer, then Ctrl-C and wait for it to exit. */
async function start(env: NodeJS.ProcessEnv, apiUrl: string): Promise<Start> {
  const started = performance.now();
  // Its own process group, so that SIGINT reaches npm, tsx and node as a terminal's Ctrl-C would.
  const child = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let anonKey: string | undefined;
  let stackReadyMs: number | undefined;
  let stackLineAt: number | undefined;
  let siteLineAt: number | undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    anonKey ??= /anon key:\s+(\S+)/.exec(output)?.[1];
    const ready = /Local stack ready in (\d+) ms/.exec(output);
    if (ready && stackReadyMs === undefined) {
      stackReadyMs = Number(ready[1]);
      stackLineAt = performance.now() - started;
    }
    if (siteLineAt === undefined && output.includes('Site ready:')) {
      siteLineAt = performance.now() - started;
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let api = false;
    let site = false;
    while (!(api && site)) {
      if (!running(child)) throw new Error(`npm start exited early:\n${output}`);
      if (performance.now() - started > TIMEOUT_MS)
        throw new Error(`no answer in time:\n${output}`);
      // The anon key is printed once the stack is up; before that the API cannot answer anyway.
      [api, site] = await Promise.all([
        api || (anonKey !== undefined && answers200(`${apiUrl}/rest/v1/`, { apikey: anonKey })),
        site || answers200(SITE),
      ]);
      if (!(api && site)) await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const totalMs = performance.now() - started;
    if (stackReadyMs === undefined || stackLineAt === undefined || siteLineAt === undefined) {
      throw new Error(`npm start printed no "ready" lines:\n${output}`);
    }
    return { totalMs, stackReadyMs, stackLineAt, siteLineAt };
  } finally {
    await stop(child, exited);
  }
}

async function main() {
  if (await portTaken(5173)) {
    console.error(
      'Port 5173 is taken (a running `npm start` or `npm run dev`?). `npm start` serves the site on ' +
        'that fixed port; stop whatever holds it and run the benchmark again.',
    );
    process.exit(1);
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-startup-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  const env = {
    ...process.env,
    STACK_DATA_DIR: dataDir,
    STACK_API_PORT: String(api),
    STACK_DB_PORT: String(db),
    STACK_MAIL_WEB_PORT: String(mailWeb),
    STACK_SMTP_PORT: String(smtp),
  };
  const apiUrl = `http://127.0.0.1:${api}`;
  try {
    const node: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      spawnSync(process.execPath, ['-e', '']);
      node.push(performance.now() - t);
    }

    console.log('Cold start (initdb, migrations, seed)…');
    const cold = await start(env, apiUrl);
    console.log(`  ${ms(cold.totalMs)}`);
    const warm: Start[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await start(env, apiUrl);
      console.log(
        `  warm start ${i + 1}: ${ms(run.totalMs)} (stack ready in ${run.stackReadyMs} ms)`,
      );
      warm.push(run);
    }
    const totals = warm.map((w) => w.totalMs);
    const row = (name: string, values: number[]) =>
      `| ${name} | ${ms(median(values))} | ${ms(Math.min(...values))} | ${ms(Math.max(...values))} |`;
    const verdict = median(totals) <= TARGET_MS ? 'met' : '**missed**';
    const lines = [
      '| measure | median | min | max |',
      '|---|---|---|---|',
      row(`\`npm start\` → API and site answer 200 (warm, ${RUNS} runs)`, totals),
      row(
        '… before the stack starts (npm, tsx, loading modules)',
        warm.map((w) => w.stackLineAt - w.stackReadyMs),
      ),
      row(
        '… the stack\'s own "ready in" (Postgres, services, all answering)',
        warm.map((w) => w.stackReadyMs),
      ),
      row(
        '… stack ready → Vite listening ("Site ready")',
        warm.map((w) => w.siteLineAt - w.stackLineAt),
      ),
      row(
        "… Vite listening → the site's first 200",
        warm.map((w) => w.totalMs - w.siteLineAt),
      ),
      `| baseline: \`node -e ""\` | ${ms(median(node))} | ${ms(Math.min(...node))} | ${ms(Math.max(...node))} |`,
      `| first start, empty data folder (initdb, migrations, seed) | ${ms(cold.totalMs)} | | |`,
      '',
      `Load average (1 min) at the end: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores (other work on the machine slows every row).`,
      '',
      `Target ≤ ${TARGET_MS} ms (median of the warm starts): ${verdict}.`,
    ];
    const machine = machineSummary();
    console.log(`\n${lines.join('\n')}\n\nMachine: ${machine}.`);
    await writeSection('startup', 'Start-up time', machine, lines);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
