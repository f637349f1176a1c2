// Benchmark (not a test): how soon after a visitor's post is answered does the message show in
// its owner's open inbox?
//
// Starts its own local stack (bench/stack-process.ts: a separate process, with the forms
// function's rate limits lifted by the test-only FORMS_RATE_LIMITS=off) on free ports in a
// temporary folder, builds the production site against it and serves it, creates a confirmed
// owner with one form (target: the owner's own address, so every post queues an e-mail, as in
// production) and signs the owner in through the sign-in page in Chromium. With the form's inbox
// open and live, it posts to the form endpoint (JSON, with the form's Origin) at a steady rate and
// times each post from its 2xx answer to the message on screen: the page records, with Date.now()
// on the same machine's clock, when a card with the post's marker entered the DOM (a
// MutationObserver) and the animation frame after that ("shown"); a listener on the page's
// WebSocket records when the Realtime frame carrying it arrived (answer → frame, frame → shown),
// and a second subscriber in Node gives the server's part without the page. Scenarios: 1 post/s
// (60 posts) and 20 posts/s (400 posts), each on a freshly opened inbox. Prints p50/p95/p99 and
// writes them into docs/PERFORMANCE.md.
//
//   npm run bench:live             (about two and a half minutes; BENCH_LIVE_SLOW_POSTS and
//                                   BENCH_LIVE_FAST_POSTS change the counts, BENCH_LIVE_NO_WRITE=1
//                                   leaves docs/PERFORMANCE.md alone)
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import ws from 'ws';
import { launchBrowser, waitForAppOnGoto } from '../tests/e2e/support/browser.ts';
import { serveSite, type SiteServer } from '../tests/e2e/site-server.ts';
import { postForm } from './form-post.ts';
import { machineSummary, writeSection } from './report.ts';
import { startStackProcess, stopProcess } from './stack-process.ts';

const ORIGIN = 'https://site.example.test';
const PASSWORD = 'bench-password-1';
const TARGET_P95_MS = 300;
/** How long a post may take to show before it counts as never shown. */
const SHOW_TIMEOUT_MS = 15_000;
const WARM_UP_POSTS = 5;
const SCENARIOS = [
  { rate: 1, posts: Number(process.env.BENCH_LIVE_SLOW_POSTS ?? 60) },
  { rate: 20, posts: Number(process.env.BENCH_LIVE_FAST_POSTS ?? 400) },
];

interface Sample {
  /** Post's 2xx answer → card shown (the animation frame after it entered the DOM). */
  shown: number;
  /** Answer → the Realtime frame carrying it arrived at the page (negative: before the answer). */
  frame: number;
  /** Frame → shown: the client's part. */
  client: number;
  /** Answer → the reference subscriber in Node got it (the server's part, without the page). */
  reference: number | undefined;
}

interface Result {
  rate: number;
  posts: number;
  errors: number;
  samples: Sample[];
  /** Achieved posting rate (posts/s). */
  achieved: number;
  load: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]
    : NaN;
};
const ms = (value: number) => (Number.isNaN(value) ? '–' : `${Math.round(value)} ms`);
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/**
 * Runs in the page before its own scripts, on every navigation: records per post marker
 * (`[lb:<n>]`) when a Realtime frame carrying it arrived, when it entered the DOM, and the
 * animation frame after that, each as Date.now(). Plain JavaScript in a string: tsx would wrap a
 * function's inner functions in a naming helper the page does not have.
 */
const RECORD_ARRIVALS = `(() => {
  const record = { frame: {}, dom: {}, shown: {} };
  window.__liveBench = record;
  const marker = /\\[lb:(\\d+)\\]/g;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      // Added before the client sets onmessage, so it runs first.
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        const now = Date.now();
        for (const [, n] of event.data.matchAll(marker)) record.frame[n] ??= now;
      });
    }
  };
  function scan(text, now, fresh) {
    if (!text || !text.includes('[lb:')) return;
    for (const [, n] of text.matchAll(marker)) {
      if (record.dom[n] !== undefined) continue;
      record.dom[n] = now;
      fresh.push(n);
    }
  }
  new MutationObserver((mutations) => {
    const now = Date.now();
    const fresh = [];
    for (const mutation of mutations) {
      if (mutation.type === 'characterData') scan(mutation.target.textContent, now, fresh);
      for (const node of mutation.addedNodes) scan(node.textContent, now, fresh);
    }
    if (fresh.length) {
      requestAnimationFrame(() => {
        const shown = Date.now();
        for (const n of fresh) record.shown[n] = shown;
      });
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

type Arrivals = Record<'frame' | 'dom' | 'shown', Record<string, number>>;
const arrivals = (page: Page) =>
  page.evaluate(() => (window as unknown as { __liveBench: Arrivals }).__liveBench);

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-live-'));
  const { child, settings } = await startStackProcess(dataDir, {
    functionEnv: { FORMS_RATE_LIMITS: 'off' },
  });
  const pool = new pg.Pool({ connectionString: settings.dbUrl, max: 2 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let site: SiteServer | undefined;
  let browser: Browser | undefined;
  let reference: SupabaseClient | undefined;
  try {
    const email = `bench-live-${Date.now()}@example.test`;
    // Created confirmed by the service role (sign-ups wait for their e-mail to be confirmed),
    // then signed in through the sign-in page as a user would.
    const admin = createClient(settings.apiUrl, settings.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no global WebSocket (the client builds its realtime side eagerly).
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    const { data, error } = await admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    if (error || !data.user) throw error ?? new Error('creating the user failed');
    const ownerId = data.user.id;
    // More posts than a free month: the owner has no quota.
    await pool.query(`select public.set_account_plan($1, 'unlimited')`, [ownerId]);
    const {
      rows: [form],
    } = await pool.query<{ id: string }>(
      `insert into public.forms (user_id, name, target_email, allowed_origin)
       values ($1, 'Contact', $2, $3) returning id`,
      [ownerId, email, ORIGIN],
    );

    // A reference subscriber in Node, as the dashboard subscribes (src/lib/live-sync.ts): when
    // Realtime delivers each post to a client that does nothing else, so the page's own share of
    // the time can be told from the server's.
    const subscriber = createClient(settings.apiUrl, settings.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    reference = subscriber;
    const signedIn = await subscriber.auth.signInWithPassword({ email, password: PASSWORD });
    if (signedIn.error) throw signedIn.error;
    const delivered = new Map<number, number>();
    await new Promise<void>((resolve, reject) => {
      subscriber
        .channel(`live:${ownerId}`)
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'entries', filter: `user_id=eq.${ownerId}` },
          (payload) => {
            const at = Date.now();
            const n = /\[lb:(\d+)\]/.exec(String((payload.new as { message?: unknown }).message));
            if (n) delivered.set(Number(n[1]), at);
          },
        )
        .subscribe((state, err) => {
          if (state === 'SUBSCRIBED') resolve();
          else if (state !== 'CLOSED') reject(err ?? new Error(`reference subscriber: ${state}`));
        });
    });

    console.log('Building the site against the stack…');
    const built = performance.now();
    site = await serveSite(settings.apiUrl, settings.anonKey);
    console.log(`  built in ${((performance.now() - built) / 1000).toFixed(0)} s`);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: RECORD_ARRIVALS });
    const page = waitForAppOnGoto(await context.newPage(), site.url);
    await page.goto(`${site.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/dashboard/);

    const inbox = `${site.url}/dashboard/forms?tab=messages&form=${form.id}`;
    const openInbox = async () => {
      await page.goto(inbox);
      await page.locator('[data-live-status="live"]').first().waitFor({ timeout: 30_000 });
      // The list has loaded: a card, or the empty inbox.
      await page
        .locator('article[aria-label^="Message from"]')
        .first()
        .or(page.getByText('No messages received yet.'))
        .waitFor();
    };

    const url = new URL(`${settings.apiUrl}/functions/v1/forms/${form.id}`);
    let next = 0;
    /** Posts `count` messages at `rate` per second; answers each post's number and 2xx time. */
    const postAt = async (rate: number, count: number) => {
      const answered = new Map<number, number>();
      let errors = 0;
      let firstError: string | undefined;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const n = next++;
          const due = started + (i * 1000) / rate - performance.now();
          if (due > 0) await sleep(due);
          const body = JSON.stringify({
            name: `Visitor [lb:${n}]`,
            email: `visitor${n}@example.test`,
            message: `[lb:${n}] Hello! I would like to know more about your project and its pricing.`,
          });
          try {
            answered.set(n, await postForm(url, { agent, origin: ORIGIN, body }));
          } catch (err) {
            errors++;
            firstError ??= (err as Error).message;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      if (firstError) console.log(`  first error: ${firstError}`);
      return { answered, errors, achieved: count / seconds };
    };
    /** Waits until every answered post is shown (or SHOW_TIMEOUT_MS passed since the last). */
    const collect = async (answered: Map<number, number>) => {
      const until = Date.now() + SHOW_TIMEOUT_MS;
      let seen = await arrivals(page);
      while ([...answered.keys()].some((n) => seen.shown[n] === undefined) && Date.now() < until) {
        await sleep(200);
        seen = await arrivals(page);
      }
      const samples: Sample[] = [];
      for (const [n, at] of answered) {
        const shown = seen.shown[n];
        if (shown === undefined) continue;
        const frame = seen.frame[n] ?? shown;
        const reached = delivered.get(n);
        samples.push({
          shown: Math.max(0, shown - at),
          frame: frame - at,
          client: shown - frame,
          reference: reached === undefined ? undefined : reached - at,
        });
      }
      return samples;
    };

    const results: Result[] = [];
    for (const { rate, posts } of SCENARIOS) {
      await openInbox();
      // Warm-up on the freshly opened page: the first events pay for lazy work.
      const warm = await postAt(2, WARM_UP_POSTS);
      await collect(warm.answered);
      console.log(`${rate} post/s: ${posts} posts…`);
      const run = await postAt(rate, posts);
      const samples = await collect(run.answered);
      results.push({
        rate,
        posts,
        errors: run.errors,
        samples,
        achieved: run.achieved,
        load: os.loadavg()[0],
      });
      const shown = samples.map((s) => s.shown);
      console.log(
        `  p50 ${ms(percentile(shown, 0.5))}, p95 ${ms(percentile(shown, 0.95))} ` +
          `(target < ${TARGET_P95_MS} ms), p99 ${ms(percentile(shown, 0.99))}; ` +
          `${samples.length}/${posts} shown`,
      );
    }

    const lines = [
      `| posts/s | posts | shown | answer → shown: p50 | p95 (target < ${TARGET_P95_MS} ms) | p99 | max | answer → event at a Node subscriber: p50 / p95 | answer → Realtime frame in the page: p50 / p95 | frame → shown: p50 / p95 | load (1 min) |`,
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...results.map((r) => {
        const shown = r.samples.map((s) => s.shown);
        const frame = r.samples.map((s) => s.frame);
        const client = r.samples.map((s) => s.client);
        const reference = r.samples.flatMap((s) =>
          s.reference === undefined ? [] : [s.reference],
        );
        const p95 = percentile(shown, 0.95);
        return [
          '',
          `${r.rate} (${r.achieved.toFixed(1)} achieved)`,
          r.posts,
          `${r.samples.length}${r.errors ? ` (${r.errors} posts failed)` : ''}`,
          ms(percentile(shown, 0.5)),
          `${ms(p95)} ${p95 < TARGET_P95_MS ? '(met)' : '(missed)'}`,
          ms(percentile(shown, 0.99)),
          ms(Math.max(...shown)),
          `${ms(percentile(reference, 0.5))} / ${ms(percentile(reference, 0.95))}`,
          `${ms(percentile(frame, 0.5))} / ${ms(percentile(frame, 0.95))}`,
          `${ms(percentile(client, 0.5))} / ${ms(percentile(client, 0.95))}`,
          r.load.toFixed(1),
          '',
        ]
          .join(' | ')
          .trim();
      }),
    ];
    const machine = machineSummary();
    const notes = [
      `Production build in headless Chromium (1280 × 800), one owner with the form's inbox open and live; ${WARM_UP_POSTS} warm-up posts per scenario, each scenario on a freshly opened inbox.`,
      "Posts: JSON to the form endpoint with the form's Origin, on a schedule (open loop), each a new message that queues an e-mail to the owner; rate limits lifted by the test-only FORMS_RATE_LIMITS=off.",
      "Times are Date.now() on one machine: the bench at the 2xx answer, the page at the animation frame after the card entered the DOM (a MutationObserver) and at the Realtime frame (a WebSocket listener, which runs on the page's main thread and so waits behind its work). A card shown before its answer arrived counts as 0 ms; the other columns may be negative (an event before the answer).",
      "The Node subscriber is a second client of the same owner, subscribed as the dashboard is, in the bench's process: the server's part of the time without the page.",
      `Stack, site server, load generator and Chromium share the machine (${os.cpus().length} cores); the load column is the 1-minute load average after the scenario.`,
    ];
    console.log(`\n${lines.join('\n')}\n\nMachine: ${machine}.\n${notes.join('\n')}`);
    if (process.env.BENCH_LIVE_NO_WRITE !== '1') {
      await writeSection('live', 'From a post to the open inbox', machine, lines, notes);
    }
  } finally {
    agent.destroy();
    await reference?.removeAllChannels();
    await browser?.close();
    await site?.close();
    await pool.end();
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
