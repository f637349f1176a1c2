// Benchmark (not a test): how fast does the outbox send an owner's campaign, with how much memory
// in the sender, and how much of the time is the database's?
//
// Starts its own local stack on free ports in a temporary folder, in a process of its own
// (bench/stack-process.ts), with the per-account ceilings lifted for this run (the deployment's
// own are CAMPAIGNS in supabase/functions/_shared/limits.ts: 50 a second, 50 000 a day). One owner
// with a list of 100 000 confirmed subscribers starts a campaign; the forms function's scheduled
// run (`POST /functions/v1/forms/_deliver`, called here every second as the scheduler would)
// claims, begins, sends into the mail catcher over SMTP and finishes it, a batch at a time. Then:
//   - messages per second, from the start to the campaign marked sent;
//   - the sender's peak memory: the peak resident set (VmHWM) of the forms function's Deno worker;
//   - the database's share: the time spent inside campaign_claim / campaign_begin /
//     campaign_finish (pg_stat_user_functions) against the run's wall-clock time.
// listmonk's published figures stand beside ours (README of this section).
//
//   npm run bench:campaign      (a few minutes; BENCH_RECIPIENTS=… changes the 100 000)
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startStackProcess, stopProcess } from './stack-process.ts';
import { machineSummary, writeSection } from './report.ts';
import { campaignState, seedCampaign, startCampaign } from '../tests/support/campaigns.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const RATE_CEILING = 1_000;
const BATCH = 1_000;

async function memoryOf(pid: number): Promise<{ rss: number; peak: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
  } catch {
    return null;
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-campaign-'));
  const { child, settings, functionLog } = await startStackProcess(dataDir, {
    functionEnv: {
      CAMPAIGNS_PER_ACCOUNT_PER_SECOND: String(RATE_CEILING),
      CAMPAIGNS_PER_ACCOUNT_PER_DAY: String(RECIPIENTS * 2),
      CAMPAIGNS_BATCH_SIZE: String(BATCH),
    },
    functionLog: true,
    postgresSettings: { track_functions: 'pl' },
  });
  const pool = new pg.Pool({ connectionString: settings.dbUrl, max: 4 });
  const deliver = () =>
    fetch(`${settings.apiUrl}/functions/v1/forms/_deliver`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${settings.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: '{}',
    }).then((r) => r.text());
  try {
    // The worker boots on its first call: its memory before any campaign is the baseline.
    await deliver();
    const workerPid = () => {
      const line = functionLog.filter((l) => /^forms: worker \d+ ready/.test(l)).at(-1);
      return line ? Number(/worker (\d+)/.exec(line)![1]) : null;
    };
    const pid = workerPid();
    if (!pid) throw new Error('the forms worker did not report its pid');
    const baseline = await memoryOf(pid);

    const seeded = performance.now();
    const c = await seedCampaign(pool, {
      subscribers: RECIPIENTS,
      label: 'bench',
      body:
        '# Our spring letter\n\nDear reader, here is what is new this month:\n\n' +
        '- a **new** shop at the harbour\n- [the spring catalogue](https://example.test/catalogue)\n\n' +
        '| Item | Price |\n| --- | --- |\n| Tea | 4 € |\n\nSee you soon.',
    });
    await startCampaign(pool, c);
    console.log(
      `seeded and started ${RECIPIENTS} recipients in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    await pool.query('select pg_stat_reset()');

    const started = performance.now();
    let peakRss = 0;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        const m = await memoryOf(pid);
        if (m) peakRss = Math.max(peakRss, m.rss);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    let lastLog = 0;
    for (;;) {
      await deliver();
      const state = await campaignState(pool, c.campaignId);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        console.log(`  ${state.sent} sent after ${((lastLog - started) / 1000).toFixed(0)} s`);
      }
      if (state.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    // Completion is seen at most a second late; the last finish's time is the end.
    const { rows: endRows } = await pool.query<{ ms: number }>(
      `select extract(epoch from (finished_at - started_at)) * 1000 as ms from public.campaigns where id = $1`,
      [c.campaignId],
    );
    done = true;
    await sampler;
    const wallMs = Number(endRows[0]!.ms);
    const final = await campaignState(pool, c.campaignId);
    const memory = await memoryOf(pid);
    if (workerPid() !== pid) throw new Error('the forms worker was restarted during the run');
    const { rows: fnRows } = await pool.query<{ name: string; calls: number; ms: number }>(
      `select funcname as name, calls::int, total_time as ms from pg_stat_user_functions
        where funcname in ('campaign_claim', 'campaign_begin', 'campaign_finish') order by funcname`,
    );
    const dbMs = fnRows.reduce((sum, r) => sum + Number(r.ms), 0);
    const rate = (final.sent / wallMs) * 1000;
    const lines = [
      `| | tinyback (this run) | listmonk (published) |`,
      `| --- | --- | --- |`,
      `| campaign | ${final.sent.toLocaleString('en')} of ${RECIPIENTS.toLocaleString('en')} recipients sent, ${final.failed} failed, in ${(wallMs / 1000).toFixed(1)} s | "a campaign of 7+ million e-mails" |`,
      `| messages per second | **${rate.toFixed(0)}** (SMTP to the local mail catcher, 3 connections; per-account ceiling lifted from 50 to ${RATE_CEILING} a second for the run) | default ceiling 100/s (concurrency 10 × message_rate 10) |`,
      `| sender's peak memory | **${mib(Math.max(peakRss, memory?.peak ?? 0))}** resident (Deno worker of the forms function; ${mib(baseline?.rss ?? 0)} before the campaign) | "peak RAM usage of 57 MB" |`,
      `| database's share | **${((dbMs / wallMs) * 100).toFixed(0)} %** of the wall-clock time inside the three functions (${fnRows.map((r) => `${r.name} ${r.calls}× ${(Number(r.ms) / r.calls).toFixed(1)} ms`).join(', ')}) | "CPU usage is a fraction of a single core" |`,
      `| batch | ${BATCH} leased per claim (200 by default), ${10} begun per window, one claim a second per account | batch_size 1000 per ~5 s cycle |`,
    ];
    console.log(lines.join('\n'));
    await writeSection('campaign', 'Campaign sending', machineSummary(), lines, [
      '',
      `One owner's campaign to ${RECIPIENTS.toLocaleString('en')} confirmed subscribers, sent by the forms function's scheduled run into the local mail catcher. Each message is marked 'sending' (campaign_begin, 10 at a time) before its SMTP transaction and recorded after the server's answer (campaign_finish): the price of never sending a message twice is two database calls per window. The sender holds one batch (${BATCH} messages here, 200 by default) at a time, whatever the campaign's size. listmonk's figures are its own published ones (docs site and schema.sql defaults), not measured here; its memory figure is for a whole production instance.`,
    ]);
  } finally {
    await pool.end();
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
