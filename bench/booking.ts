// Benchmark (not a test): how fast are a busy booking calendar's free slots, and how many bookings
// a second does the booking endpoint take?
//
// Starts its own local stack on free ports in a temporary folder, in a process of its own
// (bench/stack-process.ts), then:
//   (a) one owner (Europe/Berlin, 08:00–20:00 every day, 30-minute slots) with 500 confirmed
//       bookings spread over the next 60 days; p50/p95 of booking_slots() for those 60 days (the
//       public page asks for at most 62 days a call), inside Postgres alone and through
//       supabase-js as anon (the public page's own path);
//   (b) booking requests at 16 concurrent clients, in the same run: bookings through the endpoint
//       (`POST /functions/v1/booking/book` → gateway → `booking` on Deno → booking_request() in
//       Postgres: limits, the free-slot check, the insert under the exclusion constraint, the
//       manage token and both e-mails queued), against single-row INSERTs into public.bookings
//       (the same constraint and indexes) through a pg.Pool of 16 connections. Each client books
//       for an owner of its own, from addresses of its own in turn (the limits stay on, as in
//       production).
// Prints the figures and writes them into docs/PERFORMANCE.md.
//
//   npm run bench:booking     (about a minute; BENCH_SECONDS=… changes the 5 s of each load run,
//                              BENCH_RUNS=… the 50 timed calls of each slot query)
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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const CLIENTS = 16;
const ADDRESSES_PER_CLIENT = 32;
const WARM_UP_SECONDS = 1;
const EXISTING_BOOKINGS = 500;
const DAYS = 60;
const DAY_MS = 86_400_000;

/** Creates a confirmed user straight in auth.users; its id. */
async function createOwner(pool: pg.Pool, label: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data,
                             raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated',
             'authenticated', $1, now(), '{"provider":"email","providers":["email"]}',
             '{"name":"Bench owner"}', now(), now())
     returning id`,
    [`${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`],
  );
  return rows[0]!.id;
}

async function createForm(
  pool: pg.Pool,
  ownerId: string,
  slug: string,
  weekly: number[][][],
  duration: number,
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.booking_forms (user_id, slug, name, time_zone, duration_minutes, weekly,
                                       min_notice_minutes, max_days_ahead)
     values ($1, $2, 'Bench call', 'Europe/Berlin', $3, $4, 0, 365) returning id`,
    [ownerId, slug, duration, JSON.stringify(weekly)],
  );
  return rows[0]!.id;
}

/** Times `run` RUNS times after two warm-ups; sorted milliseconds. */
async function time(run: () => Promise<unknown>): Promise<number[]> {
  await run();
  await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

/** One booking as the public page sends it; resolves on 201. */
function postBooking(url: URL, agent: http.Agent, localAddress: string, body: string) {
  return new Promise<void>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode === 201) resolve();
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

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-booking-'));
  const { child, settings } = await startStackProcess(dataDir);
  const pool = new pg.Pool({ connectionString: settings.dbUrl, max: CLIENTS });
  const agents: http.Agent[] = [];
  try {
    // ---- (a) slots of a busy calendar --------------------------------------------------------
    const busyOwner = await createOwner(pool, 'bench-busy');
    const busySlug = `bench-busy-${Date.now().toString(36)}`;
    const busyForm = await createForm(
      pool,
      busyOwner,
      busySlug,
      Array.from({ length: 7 }, () => [[480, 1200]]),
      30,
    );
    // 500 bookings on free slots of the next 60 days, picked at random (the exclusion constraint
    // skips a pick that overlaps one already made).
    const { rows: booked } = await pool.query<{ n: number }>(
      `with picks as (
         select s from private.booking_free_slots(
                  (select f from public.booking_forms f where f.id = $1), now(), now() + interval '60 days') s
          order by random() limit $2)
       insert into public.bookings (booking_form_id, user_id, starts_at, ends_at, blocked, name, email,
                                    visitor_time_zone)
       select $1, $3, s, s + interval '30 minutes', tstzrange(s, s + interval '30 minutes', '[)'),
              'Visitor', 'visitor@example.test', 'America/New_York'
         from picks
       returning 1 as n`,
      [busyForm, EXISTING_BOOKINGS, busyOwner],
    );
    await pool.query('analyze public.bookings');
    const from = new Date();
    const to = new Date(from.getTime() + DAYS * DAY_MS);
    const slotCount = (
      await pool.query<{ n: number }>(
        `select jsonb_array_length(public.booking_slots($1, $2, $3) -> 'slots') as n`,
        [busySlug, from.toISOString(), to.toISOString()],
      )
    ).rows[0]!.n;
    const inPostgres = await time(() =>
      pool.query('select public.booking_slots($1, $2, $3)', [
        busySlug,
        from.toISOString(),
        to.toISOString(),
      ]),
    );
    const anon = createClient(settings.apiUrl, settings.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    const throughRest = await time(async () => {
      const { data, error } = await anon.rpc('booking_slots', {
        p_slug: busySlug,
        p_from: from.toISOString(),
        p_to: to.toISOString(),
      });
      if (error || !data) throw error ?? new Error('no slots');
    });

    // ---- (b) booking requests ------------------------------------------------------------------
    const everyMinute = Array.from({ length: 7 }, () => [[0, 1440]]);
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const owner = await createOwner(pool, `bench-owner-${c}`);
        const slug = `bench-${c}-${Date.now().toString(36)}`;
        const form = await createForm(pool, owner, slug, everyMinute, 15);
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        agents.push(agent);
        return { owner, slug, form, agent, next: 0 };
      }),
    );
    // Each client walks its own owner's 15-minute slots from two hours from now, one per request.
    const firstSlot = Math.ceil((Date.now() + 2 * 3_600_000) / 900_000) * 900_000;
    const url = new URL(`${settings.apiUrl}/functions/v1/booking/book`);
    const endpoint = async (c: number) => {
      const client = clients[c]!;
      const n = client.next++;
      const body = JSON.stringify({
        slug: client.slug,
        start: new Date(firstSlot + n * 900_000).toISOString(),
        name: 'Bench visitor',
        email: `visitor-${c}-${n}@example.test`,
        timeZone: 'America/New_York',
      });
      await postBooking(
        url,
        client.agent,
        `127.${10 + c}.0.${1 + (n % ADDRESSES_PER_CLIENT)}`,
        body,
      );
    };
    // The baseline books the same kind of row for the same owners, far later in the year.
    const baselineStart = firstSlot + 200 * DAY_MS;
    const baseline = async (c: number) => {
      const client = clients[c]!;
      const n = client.next++;
      const start = new Date(baselineStart + n * 900_000).toISOString();
      await pool.query(
        `insert into public.bookings (booking_form_id, user_id, starts_at, ends_at, blocked, name, email,
                                      visitor_time_zone)
         values ($1, $2, $3, $3::timestamptz + interval '15 minutes',
                 tstzrange($3, $3::timestamptz + interval '15 minutes', '[)'),
                 'Bench visitor', 'visitor@example.test', 'America/New_York')`,
        [client.form, client.owner, start],
      );
    };
    const stored = async () =>
      (
        await pool.query<{ n: number }>(
          'select count(*)::int as n from public.bookings where user_id = any($1)',
          [clients.map((c) => c.owner)],
        )
      ).rows[0]!.n;

    console.log(`Booking requests at ${CLIENTS} clients, ${SECONDS} s each …`);
    await load(CLIENTS, WARM_UP_SECONDS, endpoint);
    const before = await stored();
    const full = await load(CLIENTS, SECONDS, endpoint);
    const after = await stored();
    if (after - before !== full.ok) {
      throw new Error(`${full.ok} bookings answered 201 but ${after - before} were stored`);
    }
    for (const client of clients) client.next = 0;
    await load(CLIENTS, WARM_UP_SECONDS, baseline);
    const base = await load(CLIENTS, SECONDS, baseline);
    if (full.errors || base.errors) {
      console.log(`errors: endpoint ${full.errors} (${full.firstError}), inserts ${base.errors}`);
    }

    const lines = [
      `| measure | figure |`,
      `|---|---|`,
      `| busy calendar | ${booked.length} confirmed bookings over the next ${DAYS} days; ${slotCount} free 30-minute slots left |`,
      `| booking_slots() for ${DAYS} days, inside Postgres | p50 ${ms(percentile(inPostgres, 0.5))} · p95 ${ms(percentile(inPostgres, 0.95))} |`,
      `| booking_slots() for ${DAYS} days, through supabase-js as anon | p50 ${ms(percentile(throughRest, 0.5))} · p95 ${ms(percentile(throughRest, 0.95))} |`,
      `| bookings through the endpoint, ${CLIENTS} clients | ${perSecond(full).toFixed(0)}/s (p50 ${ms(percentile(full.latencies, 0.5))}, p99 ${ms(percentile(full.latencies, 0.99))}; ${full.errors} errors) |`,
      `| single-row INSERTs into public.bookings, ${CLIENTS} connections | ${perSecond(base).toFixed(0)}/s (p50 ${ms(percentile(base.latencies, 0.5))}) |`,
      `| ratio endpoint / raw inserts | ${(perSecond(full) / perSecond(base)).toFixed(2)} |`,
    ];
    console.log(lines.join('\n'));
    await writeSection('booking', 'Booking: slots and booking requests', machineSummary(), lines, [
      '',
      `Each endpoint booking checks the limits, recomputes the slot's day, inserts under the exclusion constraint, makes a manage token and queues two e-mails with invitations; the baseline is the bare insert.`,
    ]);
  } finally {
    for (const agent of agents) agent.destroy();
    await pool.end();
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
