// Benchmark (not a test): how fast does analytics take events, and how fast does the dashboard
// answer for a big site?
//
// Starts its own local stack on free ports in a temporary folder, in a process of its own
// (bench/stack-process.ts: the posting clients never share the servers' event loop), then:
//   (a) ingestion at 16 concurrent clients, in the same run: events through the tracker's endpoint
//       (`POST /functions/v1/analytics/collect` → gateway → `analytics` on Deno →
//       analytics_collect() in Postgres), against single-row INSERTs into
//       private.analytics_events with the same columns through a pg.Pool of 16 connections. Each
//       client posts to a site of its own, from addresses of its own in turn (a visitor may send
//       60 events a minute to a site; the limits stay on, as in production);
//   (b) one site with BENCH_EVENTS (10 million by default) events over the last 365 days,
//       generated in SQL (paths, referrers, countries, browsers, campaigns and visitors per day
//       spread unevenly, as on a real site), rolled up by the scheduled pass's function, then
//       p50/p95 of analytics_stats() for the dashboard's default 30-day view, filtered 30-day
//       views and the 12-month view, through supabase-js as the signed-in owner (the dashboard's
//       own path) and inside Postgres alone.
// Prints the figures and writes them into docs/PERFORMANCE.md.
//
//   npm run bench:analytics    (10 million events: about 15 minutes on 2 cores; BENCH_EVENTS=…
//                               runs smaller, BENCH_SECONDS=… changes the 5 s of each ingestion
//                               run, BENCH_RUNS=… the 30 timed runs of each view;
//                               BENCH_SHARED_BUFFERS=2GB gives Postgres the shared buffers of a
//                               bigger Supabase compute size, written as a section of its own)
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import { startStackProcess, stopProcess } from './stack-process.ts';
import { load, ms, percentile, perSecond } from './load.ts';
import { machineSummary, writeSection } from './report.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** Postgres's shared_buffers when given; the stand-in's default (128 MB, as on the smallest computes) else. */
const SHARED_BUFFERS = process.env.BENCH_SHARED_BUFFERS;
const CLIENTS = 16;
/** Addresses each client takes turns with: 60 events a minute each is far above one client's rate. */
const ADDRESSES_PER_CLIENT = 32;
const WARM_UP_SECONDS = 1;
/** Events generated per statement, so progress shows and no statement runs for minutes. */
const CHUNK = 1_000_000;
const DOMAIN = 'bench.example.test';
const PASSWORD = 'bench-password-1';
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const utcDay = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** One event as the tracker sends it: JSON as text/plain (no preflight), keep-alive. */
function postEvent(url: URL, agent: http.Agent, localAddress: string, body: string) {
  return new Promise<void>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        localAddress,
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'user-agent': USER_AGENT,
          origin: `https://${DOMAIN}`,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode === 202) resolve();
          else
            reject(
              new Error(
                `HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`,
              ),
            );
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A view whose warm-up takes longer than this is timed SLOW_RUNS times only. */
const SLOW_MS = 1000;
const SLOW_RUNS = 5;

/** Times `run` RUNS times (SLOW_RUNS when slow) after one warm-up; sorted milliseconds. */
async function time(run: () => Promise<unknown>): Promise<number[]> {
  const warmUp = performance.now();
  await run();
  const runs = performance.now() - warmUp > SLOW_MS ? Math.min(SLOW_RUNS, RUNS) : RUNS;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

// Events over the 365 days before now, in time order (as they arrive), `:from`..`:to` of `:n`:
// visitors per day from a day's own ids, a quarter of page views on the home page and the rest
// over 300 posts, half of them direct, 8 % from a campaign, 30 countries, 6 browsers, 5 systems,
// 3 devices, 5 % custom events, 40 % of events beginning a visit; every spread uneven (powers of
// random()). The `0 * n` ties each random() to its row: a subquery without it is run once.
const GENERATE = `
insert into private.analytics_events (site_id, at, visitor, name, path, referrer_host, utm_source,
                                      utm_medium, utm_campaign, country, browser, os, device,
                                      screen, entry)
select $1,
       now() - interval '365 days' + (n::float8 / $4) * interval '365 days' - interval '1 minute',
       floor(n::float8 * 365 / $4)::bigint * 1000000 + floor($5 * random() ^ 1.3)::bigint,
       case when r.r < 0.95 then 'pageview' when r.r < 0.97 then 'signup'
            when r.r < 0.99 then 'outbound' else 'download' end,
       case when random() < 0.25 then '/' else '/blog/post-' || floor(300 * random() ^ 3)::int end,
       case when random() < 0.5 then null else 'ref' || floor(30 * random() ^ 2)::int || '.example' end,
       u.u[1], u.u[2], u.u[3],
       (array['US','DE','GB','FR','IN','CA','NL','BR','ES','IT','SE','PL','AU','JP','CH','AT','BE',
              'DK','NO','FI','IE','PT','CZ','RO','MX','AR','ZA','NG','KR','SG'])[1 + floor(30 * random() ^ 2)::int],
       (array['Chrome','Safari','Firefox','Edge','Samsung Internet','Opera'])[1 + floor(6 * random() ^ 2.5)::int],
       (array['Windows','iOS','Android','macOS','Linux'])[1 + floor(5 * random() ^ 1.5)::int],
       (array['desktop','mobile','tablet'])[1 + floor(3 * random() ^ 2)::int],
       'laptop',
       random() < 0.4
  from generate_series($2::bigint, $3::bigint) n
  cross join lateral (select random() + 0 * n as r) r
  cross join lateral (
    select case when random() + 0 * n < 0.08
                then array['src' || floor(5 * random())::int,
                           (array['email','cpc','social'])[1 + floor(3 * random())::int],
                           'camp' || floor(10 * random())::int]
                else array[null, null, null]::text[] end as u) u`;

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-analytics-'));
  const { child, settings } = await startStackProcess(dataDir, {
    postgresSettings: SHARED_BUFFERS ? { shared_buffers: SHARED_BUFFERS } : undefined,
  });
  const pool = new pg.Pool({ connectionString: settings.dbUrl, max: CLIENTS });
  const agents: http.Agent[] = [];
  try {
    // The owner, confirmed, signed in on a client of their own (the dashboard's session).
    const admin = createClient(settings.apiUrl, settings.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    const email = `bench-analytics-${Date.now()}@example.test`;
    const created = await admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    if (created.error || !created.data.user) throw created.error ?? new Error('no user');
    const ownerId = created.data.user.id;
    const owner = createClient(settings.apiUrl, settings.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    const signIn = await owner.auth.signInWithPassword({ email, password: PASSWORD });
    if (signIn.error) throw signIn.error;
    const newSite = async (name: string) =>
      (
        await pool.query<{ id: string }>(
          `insert into public.analytics_sites (user_id, name, domains) values ($1, $2, $3)
           returning id`,
          [ownerId, name, [DOMAIN]],
        )
      ).rows[0]!.id;

    // ---- (a) ingestion ----------------------------------------------------------------------
    const sites: string[] = [];
    for (let c = 0; c < CLIENTS; c++) sites.push(await newSite(`Ingest ${c}`));
    const url = new URL(`${settings.apiUrl}/functions/v1/analytics/collect`);
    const sent = new Array<number>(CLIENTS).fill(0);
    const clientAgents = sites.map(() => {
      // One keep-alive socket per local address.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      return agent;
    });
    const endpoint = async (client: number) => {
      const n = sent[client]!++;
      const body = JSON.stringify({
        s: sites[client],
        n: 'pageview',
        u: `https://${DOMAIN}/posts/${n % 50}?utm_source=bench`,
        r: 'https://news.example/',
        w: 1280,
        z: 'Europe/Berlin',
      });
      await postEvent(
        url,
        clientAgents[client]!,
        `127.${10 + client}.0.${1 + (n % ADDRESSES_PER_CLIENT)}`,
        body,
      );
    };
    let baselineVisitor = 0;
    const baseline = async (client: number) => {
      await pool.query(
        `insert into private.analytics_events (site_id, visitor, name, path, referrer_host,
                                               utm_source, country, browser, os, device, screen,
                                               entry)
         values ($1, $2, 'pageview', $3, 'news.example', 'bench', 'DE', 'Chrome', 'Windows',
                 'desktop', 'laptop', true)`,
        [sites[client], baselineVisitor++, `/posts/${baselineVisitor % 50}`],
      );
    };
    const stored = async () =>
      (
        await pool.query<{ n: number }>(
          'select count(*)::int as n from private.analytics_events where site_id = any($1)',
          [sites],
        )
      ).rows[0]!.n;

    console.log(`Ingestion at ${CLIENTS} clients, ${SECONDS} s each …`);
    await load(CLIENTS, WARM_UP_SECONDS, endpoint);
    const before = await stored();
    const full = await load(CLIENTS, SECONDS, endpoint);
    const after = await stored();
    // Every 202 must be a stored event, or the figure means nothing.
    if (after - before !== full.ok) {
      throw new Error(`${full.ok} events answered 202 but ${after - before} were stored`);
    }
    await load(CLIENTS, WARM_UP_SECONDS, baseline);
    const base = await load(CLIENTS, SECONDS, baseline);
    if (full.errors || base.errors) {
      console.log(`errors: endpoint ${full.errors} (${full.firstError}), inserts ${base.errors}`);
    }

    // ---- (b) a site with EVENTS events over a year -------------------------------------------
    const big = await newSite('Big');
    const visitorsPerDay = Math.max(50, Math.round(EVENTS / 365 / 3.4));
    console.log(`Generating ${EVENTS.toLocaleString('en')} events …`);
    const generateStarted = performance.now();
    for (let from = 1; from <= EVENTS; from += CHUNK) {
      const to = Math.min(EVENTS, from + CHUNK - 1);
      await pool.query(GENERATE, [big, from, to, EVENTS, visitorsPerDay]);
      process.stdout.write(`  ${to.toLocaleString('en')}\r`);
    }
    await pool.query('analyze private.analytics_events');
    const generateSeconds = (performance.now() - generateStarted) / 1000;

    console.log('Rolling up …');
    const rollupStarted = performance.now();
    let rolledDays = 0;
    // Until the site's closed days and today's part are rolled up: the stack's scheduled pass
    // may hold the rollup's lock for a while (a call then returns 0) and do some of the days.
    for (;;) {
      const { rows } = await pool.query<{ n: number; ready: boolean }>(
        `select private.analytics_rollup(50) as n,
                (select m.rolled_through >= ((now() - interval '5 minutes') at time zone 'UTC')::date - 1
                        and m.partial_through is not null
                   from private.analytics_rollup_marks m where m.site_id = $1) as ready`,
        [big],
      );
      rolledDays += rows[0]!.n;
      if (rows[0]!.ready) break;
      if (!rows[0]!.n) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await pool.query('analyze private.analytics_rollups');
    const rollupSeconds = (performance.now() - rollupStarted) / 1000;

    const { rows: todayRows } = await pool.query<{
      n: number;
      tail: number;
      page: string;
      share: number;
    }>(
      `select (select count(*)::int from private.analytics_events
                where site_id = $1 and at >= date_trunc('day', now(), 'UTC')) as n,
              (select count(*)::int from private.analytics_events e, private.analytics_rollup_marks m
                where e.site_id = $1 and m.site_id = $1 and e.at >= m.partial_through) as tail,
              p.path as page, p.share
         from (select path, round(100.0 * count(*) / sum(count(*)) over (), 1)::float8 as share
                 from private.analytics_events
                where site_id = $1 and at >= now() - interval '30 days'
                group by path order by count(*) desc offset 4 limit 1) p`,
      [big],
    );
    const { n: todayEvents, tail, page, share } = todayRows[0]!;

    const views: { label: string; from: string; filters: Record<string, string> }[] = [
      { label: '30 days (the default view)', from: utcDay(-29), filters: {} },
      {
        label: `30 days, filtered: country US and page ${page} (${share} % of page views)`,
        from: utcDay(-29),
        filters: { country: 'US', page },
      },
      { label: '30 days, filtered: country DE', from: utcDay(-29), filters: { country: 'DE' } },
      { label: 'today (hours)', from: utcDay(0), filters: {} },
      { label: '12 months', from: utcDay(-364), filters: {} },
    ];
    // Inside Postgres alone, as the owner: the function, without gateway or REST.
    const asOwner = await pool.connect();
    const rows: string[] = [];
    try {
      for (const view of views) {
        const args = {
          p_site_id: big,
          p_from: view.from,
          p_to: utcDay(0),
          p_filters: view.filters,
        };
        const rpc = await time(async () => {
          const { data, error } = await owner.rpc('analytics_stats', args);
          if (error || !data) throw error ?? new Error('no stats');
        });
        const sql = await time(async () => {
          await asOwner.query('begin');
          await asOwner.query('set local role authenticated');
          await asOwner.query(`select set_config('request.jwt.claims', $1, true)`, [
            JSON.stringify({ sub: ownerId, role: 'authenticated' }),
          ]);
          await asOwner.query('select public.analytics_stats($1, $2, $3, $4)', [
            args.p_site_id,
            args.p_from,
            args.p_to,
            JSON.stringify(args.p_filters),
          ]);
          await asOwner.query('rollback');
        });
        const line = `| ${view.label} | ${ms(percentile(rpc, 0.5))} / ${ms(percentile(rpc, 0.95))} | ${ms(percentile(sql, 0.5))} / ${ms(percentile(sql, 0.95))} |`;
        console.log(line);
        rows.push(line);
      }
    } finally {
      asOwner.release();
    }

    const lines = [
      '| ingestion, 16 clients | events/s | p50 / p99 latency |',
      '|---|---|---|',
      `| endpoint (\`POST /functions/v1/analytics/collect\`) | ${perSecond(full).toFixed(0)} | ${ms(percentile(full.latencies, 0.5))} / ${ms(percentile(full.latencies, 0.99))} |`,
      `| single-row INSERTs into private.analytics_events | ${perSecond(base).toFixed(0)} | ${ms(percentile(base.latencies, 0.5))} / ${ms(percentile(base.latencies, 0.99))} |`,
      `| ratio endpoint / inserts | ${(perSecond(full) / perSecond(base)).toFixed(2)} | |`,
      '',
      `| analytics_stats(), ${EVENTS.toLocaleString('en')} events over a year | supabase-js RPC p50 / p95 | in Postgres p50 / p95 |`,
      '|---|---|---|',
      ...rows,
    ];
    const machine = machineSummary();
    const notes = [
      `Ingestion: ${SECONDS} s each after a ${WARM_UP_SECONDS} s warm-up; every 202 checked against the stored events; each client posts to a site of its own from ${ADDRESSES_PER_CLIENT} addresses in turn (the per-visitor and per-site limits stay on). Errors: endpoint ${full.errors}, inserts ${base.errors}.`,
      `The big site: ${EVENTS.toLocaleString('en')} events generated in SQL in ${generateSeconds.toFixed(0)} s, about ${visitorsPerDay.toLocaleString('en')} visitor ids a day; rolled up (the closed days, and today until 5 minutes ago; the stack's scheduled pass may take some of the ${rolledDays} site-days counted here) in ${rollupSeconds.toFixed(0)} s; ${todayEvents.toLocaleString('en')} events so far today, ${tail.toLocaleString('en')} of them after today's rolled-up part (read raw by every unfiltered view that ends today). ${RUNS} timed runs per view after one warm-up (${SLOW_RUNS} when the warm-up takes over ${SLOW_MS / 1000} s).`,
      `Postgres shared_buffers: ${SHARED_BUFFERS ?? '128MB (the default)'}. Load average (1 min) at the end: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores.`,
    ];
    console.log(`\n${lines.join('\n')}\n\nMachine: ${machine}.\n${notes.join('\n')}`);
    await writeSection(
      SHARED_BUFFERS ? 'analytics-shared-buffers' : 'analytics',
      'Analytics',
      machine,
      lines,
      notes,
      SHARED_BUFFERS
        ? `BENCH_SHARED_BUFFERS=${SHARED_BUFFERS} npm run bench:analytics`
        : 'npm run bench:analytics',
    );
  } finally {
    for (const agent of agents) agent.destroy();
    await pool.end();
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
