// Benchmark (not a test): how many submissions per second does the full path take, next to what
// the database alone takes?
//
// Starts its own local stack on free ports in a temporary folder, in a process of its own
// (bench/stack-process.ts: the posting clients never share the servers' event loop), with the forms
// function's rate limits lifted by the test-only FORMS_RATE_LIMITS=off (one machine posts far more than any
// visitor may). One owner, one form whose target is the owner's own confirmed e-mail, so every
// post stores an entry and queues an e-mail job, as in production; the SMTP send runs after the
// answer. At 1, 16 and 64 clients it measures, in the same run:
//   - full path: JSON posts over keep-alive HTTP → gateway → `forms` on Deno → Postgres (entry and
//     e-mail job committed), each client its own visitor address;
//   - baseline: single-row INSERTs into the same table with the same columns through a pg.Pool.
// Prints throughput and p50/p99 latency for both and the ratio full/baseline, and writes them into
// docs/PERFORMANCE.md. The e-mails go out after the answers, in batches; after each level the
// benchmark waits until every one of them is sent (before the baseline runs) and reports how many
// were still queued when the level ended and the rate counting that wait.
//
//   npm run bench:submissions      (about a minute; BENCH_SECONDS=… changes the 5 s per level,
//                                   BENCH_LEVELS=1,16 the client counts, BENCH_FORMS=16 the
//                                   number of forms and owners the clients post to, 1 by default;
//                                   BENCH_DURABLE=1 runs Postgres with its default durability,
//                                   each commit on disk, which the local stack turns off)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startStackProcess, stopProcess } from './stack-process.ts';
import { postForm } from './form-post.ts';
import { load, ms, percentile, perSecond, type Run } from './load.ts';
import { machineSummary, writeSection } from './report.ts';

const LEVELS = (process.env.BENCH_LEVELS ?? '1,16,64').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Forms (each its own owner) the clients post to: 1 is the worst case, every post on one form's
 * and one account's counter rows (a form takes at most 60 posts a minute in production). */
const FORMS = Number(process.env.BENCH_FORMS ?? 1);
/** Postgres's default durability: each commit on disk before it is answered, as a production
 * database runs. The local stack's development settings skip that (local-stack/postgres/server.ts),
 * which favours the baseline's one commit per row over the endpoint's one commit per batch. */
const DURABLE = process.env.BENCH_DURABLE === '1';
const DURABLE_SETTINGS = { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' };
const durabilitySettings = Object.keys(DURABLE_SETTINGS).join(', ');
const WARM_UP_SECONDS = 1;
const ORIGIN = 'https://site.example.test';
/** The test-only switch of the forms function (supabase/functions/forms/README.md). */
const RATE_LIMITS_OFF = { FORMS_RATE_LIMITS: 'off' };

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-submissions-'));
  const { child, settings, functionLog } = await startStackProcess(dataDir, {
    functionEnv: RATE_LIMITS_OFF,
    functionLog: true,
    ...(DURABLE ? { postgresSettings: DURABLE_SETTINGS } : {}),
  });
  const stack = { settings, pool: new pg.Pool({ connectionString: settings.dbUrl, max: 2 }) };
  const agents: http.Agent[] = [];
  try {
    // Each owner's own confirmed e-mail is its form's target: no confirmation step, every post
    // queues an e-mail job. BENCH_FORMS owners with one form each; client i posts to form i mod n.
    const createForm = async () => {
      const ownerId = randomUUID();
      const ownerEmail = `owner-${ownerId.slice(0, 8)}@example.test`;
      await stack.pool.query(
        `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
                 now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
        [ownerId, ownerEmail],
      );
      // Far more posts than any plan's month: the owner has no quota.
      await stack.pool.query(`select public.set_account_plan($1, 'unlimited')`, [ownerId]);
      const {
        rows: [form],
      } = await stack.pool.query<{ id: string; notify_email: boolean; target_verified: boolean }>(
        `insert into public.forms (user_id, name, target_email, allowed_origin)
         values ($1, 'Contact', $2, $3) returning id, notify_email, target_verified`,
        [ownerId, ownerEmail, ORIGIN],
      );
      if (!form.notify_email || !form.target_verified) throw new Error('form would not e-mail');
      return form.id;
    };
    const formIds: string[] = [];
    for (let i = 0; i < FORMS; i++) formIds.push(await createForm());
    const urls = formIds.map((id) => new URL(`${stack.settings.apiUrl}/functions/v1/forms/${id}`));
    const body = JSON.stringify({
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      message: 'Hello! I would like to know more about your project and its pricing.',
    });
    // Each client is its own visitor: a keep-alive connection from its own 127.0.1.x address.
    const clientAgents = Array.from({ length: Math.max(...LEVELS) }, () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      return agent;
    });
    const fullPath = (client: number) =>
      postForm(urls[client % FORMS], {
        agent: clientAgents[client],
        localAddress: `127.0.1.${client + 1}`,
        origin: ORIGIN,
        body,
      }).then(() => undefined);

    // The same columns accept_submission writes (the owner comes from the entries_set_owner
    // trigger there too).
    const insert = (pool: pg.Pool) => async (client: number) => {
      await pool.query(
        `insert into public.entries (id, form_id, name, email, message, data, is_spam)
         values ($1, $2, $3, $4, $5, $6, false)`,
        [
          randomUUID(),
          formIds[client % FORMS],
          'Ada Lovelace',
          'ada@example.test',
          'Hello! I would like to know more about your project and its pricing.',
          JSON.stringify({}),
        ],
      );
    };

    const count = async () => {
      const { rows } = await stack.pool.query<{ entries: number; jobs: number }>(
        `select (select count(*)::int from public.entries where form_id = any($1)) entries,
                (select count(*)::int from public.email_deliveries d
                   join public.entries e on e.id = d.entry_id where e.form_id = any($1)) jobs`,
        [formIds],
      );
      return rows[0];
    };

    /** Waits until every e-mail job of the form is sent; answers [still queued, seconds]. */
    const drainMail = async (): Promise<[number, number]> => {
      const queued = async () =>
        (
          await stack.pool.query<{ n: number }>(
            `select count(*)::int n from public.email_deliveries d
               join public.entries e on e.id = d.entry_id
              where e.form_id = any($1) and d.status <> 'sent'`,
            [formIds],
          )
        ).rows[0].n;
      const started = performance.now();
      const atEnd = await queued();
      for (let left = atEnd; left > 0; left = await queued()) {
        if (performance.now() - started > 120_000) throw new Error(`${left} e-mails never sent`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return [atEnd, (performance.now() - started) / 1000];
    };

    const results: { clients: number; full: Run; base: Run; queued: number; drain: number }[] = [];
    for (const clients of LEVELS) {
      await load(clients, WARM_UP_SECONDS, fullPath);
      await drainMail();
      const before = await count();
      const full = await load(clients, SECONDS, fullPath);
      const after = await count();
      const [queued, drain] = await drainMail();
      // Every 2xx must be a committed entry with its e-mail job, or the figure means nothing.
      if (after.entries - before.entries !== full.ok || after.jobs - before.jobs !== full.ok) {
        throw new Error(
          `${full.ok} posts answered 2xx but ${after.entries - before.entries} entries and ` +
            `${after.jobs - before.jobs} e-mail jobs were committed`,
        );
      }
      const pool = new pg.Pool({ connectionString: stack.settings.dbUrl, max: clients });
      try {
        await load(clients, WARM_UP_SECONDS, insert(pool));
        const base = await load(clients, SECONDS, insert(pool));
        results.push({ clients, full, base, queued, drain });
      } finally {
        await pool.end();
      }
      console.log(`${clients} client(s) done`);
      if (full.firstError) {
        console.log(`  first error: ${full.firstError}`);
        for (const line of functionLog.filter((m) => /fail|error/i.test(m)).slice(-5))
          console.log(`  function: ${line}`);
      }
    }
    const lifted = functionLog.some((m) => m.includes('RATE LIMITS ARE LIFTED'));
    if (!lifted) throw new Error('the forms function did not report FORMS_RATE_LIMITS=off');

    const lines = [
      '| clients | full path: posts/s | p50 | p99 | errors | e-mails queued at the end | posts/s counting their sending | baseline INSERT: rows/s | p50 | p99 | ratio full/baseline |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(({ clients, full, base, queued, drain }) =>
        [
          '',
          clients,
          perSecond(full).toFixed(0),
          ms(percentile(full.latencies, 0.5)),
          ms(percentile(full.latencies, 0.99)),
          full.errors,
          queued,
          (full.ok / (full.seconds + drain)).toFixed(0),
          perSecond(base).toFixed(0),
          ms(percentile(base.latencies, 0.5)),
          ms(percentile(base.latencies, 0.99)),
          (perSecond(full) / perSecond(base)).toFixed(2),
          '',
        ]
          .join(' | ')
          .trim(),
      ),
    ];
    const machine = machineSummary();
    const notes = [
      `${SECONDS} s per level after a ${WARM_UP_SECONDS} s warm-up; every 2xx checked against the committed entries and e-mail jobs.`,
      FORMS === 1
        ? 'One form and one owner take every post (the worst case: every post counts on the same form and account counter rows; BENCH_FORMS=16 spreads the clients over 16 owners).'
        : `${FORMS} forms, each its own owner; client i posts to form i mod ${FORMS}.`,
      'E-mails are sent after the answer, in batches, to the stack\'s mail catcher; "counting their sending" divides the posts by the level\'s time plus the wait until the last of its e-mails was sent.',
      `Load average (1 min) at the end: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores (other work on the machine slows every row; the ratio is taken in the same run).`,
      'Rate limits: lifted by the test-only FORMS_RATE_LIMITS=off (the function logged its warning); never set it in production.',
      DURABLE
        ? `Postgres with its default durability: ${durabilitySettings} on (BENCH_DURABLE=1).`
        : `Postgres as the local stack runs it: ${durabilitySettings} off (BENCH_DURABLE=1 turns them on, Postgres's defaults).`,
    ];
    console.log(`\n${lines.join('\n')}\n\nMachine: ${machine}.\n${notes.join('\n')}`);
    await writeSection('submissions', 'Submission throughput', machine, lines, notes);
  } finally {
    for (const agent of agents) agent.destroy();
    await stack.pool.end();
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
