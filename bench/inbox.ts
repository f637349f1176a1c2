// Benchmark (not a test): does an inbox of 10 000 messages open as fast as one of 10?
//
// Starts its own local stack on free ports in a temporary folder, signs up two owners, seeds
// 10 000 messages for one and 10 for the other, then times, for both, the first page of Messages
// and a search, server side (the app's queries through supabase-js) and in the browser (a
// production build in Chromium, from navigation to the first card on screen). Prints medians and
// the ratio big/small from the same run, and writes them into docs/PERFORMANCE.md.
//
//   npm run bench:inbox            (about a minute)
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { chromium, type Browser } from 'playwright-core';
import ws from 'ws';
import { freePorts, startStack } from '../local-stack/stack.ts';
import { serveSite } from '../tests/e2e/site-server.ts';
import { INBOX_PAGE_SIZE, inboxPageQuery } from './inbox-queries.ts';
import { machineSummary, writeSection } from './report.ts';

const BIG = 10_000;
const SMALL = 10;
const SERVER_RUNS = 40;
const BROWSER_RUNS = 5;
const NEEDLE = 'quokka';
const PASSWORD = 'bench-password-1';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Owner {
  label: string;
  email: string;
  id: string;
  client: SupabaseClient;
  messages: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function time(run: () => Promise<unknown>, times: number): Promise<number[]> {
  const samples: number[] = [];
  await run(); // warm-up: plans cached, connections open
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-inbox-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  const stack = await startStack({ dataDir, ports: { api, db, mailWeb, smtp }, seed: false });
  const { apiUrl, anonKey, serviceRoleKey } = stack.settings;
  let browser: Browser | undefined;
  let site: Awaited<ReturnType<typeof serveSite>> | undefined;
  try {
    const owners: Owner[] = [];
    for (const [label, messages] of [
      ['10 000 messages', BIG],
      ['10 messages', SMALL],
    ] as const) {
      const client = createClient(apiUrl, anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        // Node 20 has no global WebSocket (the client builds its realtime side eagerly).
        realtime: { transport: ws as unknown as typeof WebSocket },
      });
      const email = `bench-${messages}-${Date.now()}@example.test`;
      // Created confirmed by the service role: sign-ups wait for their e-mail to be confirmed.
      const { data, error } = await createClient(apiUrl, serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: ws as unknown as typeof WebSocket },
      }).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
      if (error || !data.user) throw error ?? new Error('creating the user failed');
      owners.push({ label, email, id: data.user.id, client, messages });
    }

    // Seed with SQL: three forms per owner, messages spread over the last 30 days, a few of them
    // (and a tenth as spam) mentioning the search word.
    for (const owner of owners) {
      await stack.pool.query(
        `insert into public.forms (id, user_id, name, target_email, allowed_origin)
         select gen_random_uuid(), $1, 'Form ' || n, 'owner@example.test', 'https://example.test'
           from generate_series(1, 3) n`,
        [owner.id],
      );
      await stack.pool.query(
        `insert into public.entries (form_id, user_id, name, email, message, is_spam, created_at)
         select f.ids[1 + n % 3], $1, 'Visitor ' || n, 'visitor' || n || '@example.test',
                case when n % 2000 = 7 then 'I saw a ${NEEDLE} today (' || n || ')'
                     else 'Hello, this is message number ' || n || ' about our project.' end,
                n % 10 = 0,
                now() - make_interval(secs => n * 259.2 * 10000 / $2::int)
           from generate_series(1, $2::int) n,
                (select array_agg(id) ids from public.forms where user_id = $1) f`,
        [owner.id, owner.messages],
      );
      const { error } = await owner.client.auth.signInWithPassword({
        email: owner.email,
        password: PASSWORD,
      });
      if (error) throw error;
    }
    await stack.pool.query('analyze public.entries');

    console.log(
      `\nServer side: the inbox's queries through supabase-js (${SERVER_RUNS} runs each)`,
    );
    const server: Record<string, { first: number[]; search: number[] }> = {};
    for (const owner of owners) {
      const first = await time(async () => {
        const { data, error } = await inboxPageQuery(owner.client, {});
        if (error) throw error;
        if (!data?.length) throw new Error('empty first page');
      }, SERVER_RUNS);
      const search = await time(async () => {
        const { error } = await inboxPageQuery(owner.client, { search: NEEDLE });
        if (error) throw error;
      }, SERVER_RUNS);
      server[owner.label] = { first, search };
    }

    console.log(
      '\nBrowser: production build in Chromium, navigation → first card; typing → result',
    );
    site = await serveSite(apiUrl, anonKey);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'],
    });
    const inBrowser: Record<string, { first: number[]; search: number[] }> = {};
    for (const owner of owners) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${site.url}/login`);
      await page.getByLabel('Email', { exact: true }).fill(owner.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(/\/dashboard/);
      const first: number[] = [];
      const search: number[] = [];
      for (let i = 0; i < BROWSER_RUNS + 1; i++) {
        const started = performance.now();
        await page.goto(`${site.url}/dashboard/forms?tab=messages`);
        await page.locator('article[aria-label^="Message from"]').first().waitFor();
        const firstMs = performance.now() - started;
        const box = page.getByRole('searchbox', { name: 'Search messages' });
        const typed = performance.now();
        await box.fill(NEEDLE);
        await page
          .locator('article[aria-label^="Message from"]', { hasText: NEEDLE })
          .first()
          .waitFor();
        await page
          .locator('article[aria-label^="Message from"]', { hasNotText: NEEDLE })
          .first()
          .waitFor({ state: 'detached' });
        const searchMs = performance.now() - typed;
        if (i > 0) {
          first.push(firstMs);
          search.push(searchMs);
        }
      }
      inBrowser[owner.label] = { first, search };
      await context.close();
    }

    const [big, small] = owners.map((o) => o.label);
    const rows = [
      ['first page, server (p50 / p95)', server, 'first'],
      ['search, server (p50 / p95)', server, 'search'],
      ['first page, browser (p50)', inBrowser, 'first'],
      ['search, browser (p50, incl. 300 ms debounce)', inBrowser, 'search'],
    ] as const;
    const lines = [
      `| measure | ${small} | ${big} | ratio big/small |`,
      '|---|---|---|---|',
      ...rows.map(([name, source, key]) => {
        const a = source[small][key];
        const b = source[big][key];
        const cell = (v: number[]) =>
          name.includes('p95') ? `${ms(median(v))} / ${ms(p95(v))}` : ms(median(v));
        return `| ${name} | ${cell(a)} | ${cell(b)} | ${(median(b) / median(a)).toFixed(2)} |`;
      }),
    ];
    const machine = machineSummary();
    console.log(`\n${lines.join('\n')}\n\nMachine: ${machine}; page size ${INBOX_PAGE_SIZE}.`);
    await writeSection('inbox', 'Inbox with 10 000 messages', machine, lines);
  } finally {
    await browser?.close();
    await site?.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
