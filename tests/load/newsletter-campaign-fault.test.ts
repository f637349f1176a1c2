// Faults while a 2 000-recipient campaign is sent by the forms function's scheduled run, each on
// a campaign of its own: the mail server stopped (messages stay queued and go later), Postgres
// restarted (the sender resumes, nothing twice), the sender's process killed between batches and
// in the middle of one. Each ends with the count per recipient in the mail catcher: nobody twice,
// and everybody the database calls sent caught exactly once. A message begun when the sender died
// is recorded failed ('may have been delivered'), never sent a second time: at most one window.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUPABASE_DIR } from '../../local-stack/config.ts';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { until } from '../endpoint/support.ts';
import {
  campaignState,
  seedCampaign,
  startCampaign,
  type SeededCampaign,
} from '../support/campaigns.ts';
import { clearMail, listMail, mailSource } from '../support/mail.ts';

const RECIPIENTS = 2_000;
/** Messages begun together (CAMPAIGNS.window): the most one kill may leave uncertain. */
const WINDOW = 10;
const functionLog: string[] = [];
let stack: RunningStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-load-campaign-'));
  const supabaseDir = path.join(dataDir, 'supabase');
  await cp(SUPABASE_DIR, supabaseDir, { recursive: true });
  const [api, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    supabaseDir,
    ports: { api, db, mailWeb, smtp },
    seed: false,
    // 200 a second, so each campaign takes seconds; leases of 15 s, so a killed sender's
    // unbegun messages are handed on within the test's time.
    functionEnv: { CAMPAIGNS_PER_ACCOUNT_PER_SECOND: '200', CAMPAIGNS_LEASE_SECONDS: '15' },
    deliveryIntervalMs: 250,
    log: (service, message) => {
      if (service === 'functions') functionLog.push(message);
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => clearMail(stack.settings.mailWebUrl));

const pool = () => stack.pool;

/** Caught mail per recipient of the campaign (its addresses share the prefix). */
async function caughtPerRecipient(c: SeededCampaign) {
  const into = new Map<string, number>();
  for (const mail of await listMail(stack.settings.mailWebUrl))
    for (const to of mail.to) {
      const address = to.address.toLowerCase();
      if (address.startsWith(`${c.prefix}-`)) into.set(address, (into.get(address) ?? 0) + 1);
    }
  return into;
}

async function messagesBy(c: SeededCampaign) {
  const { rows } = await pool().query<{ email: string; status: string; last_error: string | null }>(
    `select s.email, m.status, m.last_error from private.campaign_messages m
       join public.list_subscribers s on s.id = m.subscriber_id where m.campaign_id = $1`,
    [c.campaignId],
  );
  return rows;
}

const finished = (c: SeededCampaign, timeoutMs = 150_000) =>
  until(
    'the campaign to finish',
    () => campaignState(pool(), c.campaignId),
    (s) => s.status === 'sent',
    timeoutMs,
  );

const reached = (c: SeededCampaign, sent: number) =>
  until(
    `${sent} sent`,
    () => campaignState(pool(), c.campaignId),
    (s) => s.sent >= sent,
    60_000,
  );

/** Nobody twice; every 'sent' caught once; an uncertain 'failed' at most once. */
async function expectExactlyOnce(c: SeededCampaign, maxUncertain: number) {
  const state = await finished(c);
  // The catcher keeps what it caught across its own restarts.
  const caught = await caughtPerRecipient(c);
  const rows = await messagesBy(c);
  const twice = [...caught].filter(([, n]) => n > 1);
  expect(twice).toEqual([]);
  const sent = rows.filter((r) => r.status === 'sent');
  const failed = rows.filter((r) => r.status === 'failed');
  expect(sent.filter((r) => caught.get(r.email.toLowerCase()) !== 1)).toEqual([]);
  expect(failed.every((r) => /may have been delivered/.test(r.last_error ?? ''))).toBe(true);
  expect(failed.length).toBeLessThanOrEqual(maxUncertain);
  expect(sent.length + failed.length).toBe(RECIPIENTS);
  expect(state).toMatchObject({ sent: sent.length, failed: failed.length, bounced: 0 });
  expect(caught.size).toBeGreaterThanOrEqual(sent.length);
  return { sent: sent.length, uncertain: failed.length };
}

async function newCampaign(label: string) {
  const c = await seedCampaign(pool(), { subscribers: RECIPIENTS, label });
  expect(await startCampaign(pool(), c)).toEqual({ status: 'sending', recipients: RECIPIENTS });
  return c;
}

describe(`a ${RECIPIENTS}-recipient campaign under faults`, () => {
  it('mail server stopped: nothing is lost, messages stay queued and go out later', async () => {
    const c = await newCampaign('smtp-down');
    await reached(c, 400);
    // Paused until nothing is in flight, so the catcher's copy before it stops is complete.
    await pool().query(`update public.campaigns set status = 'paused' where id = $1`, [
      c.campaignId,
    ]);
    await until(
      'nothing in flight',
      async () =>
        (
          await pool().query(
            `select count(*)::int as n from private.campaign_messages where campaign_id = $1 and status = 'sending'`,
            [c.campaignId],
          )
        ).rows[0]!.n,
      (n) => n === 0,
    );
    // Read once before it stops: the catcher files what it holds raw when first asked.
    await listMail(stack.settings.mailWebUrl);
    await stack.mail.stop();
    const before = await campaignState(pool(), c.campaignId);
    await pool().query(`update public.campaigns set status = 'sending' where id = $1`, [
      c.campaignId,
    ]);
    await until(
      'attempts against the stopped server',
      async () =>
        (
          await pool().query(
            `select count(*)::int as n from private.campaign_messages where campaign_id = $1 and status = 'queued' and last_error is not null`,
            [c.campaignId],
          )
        ).rows[0]!.n,
      (n) => n > 0,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 2_000));
    const during = await campaignState(pool(), c.campaignId);
    // Nothing counted sent or failed while the server was away: all still queued.
    expect(during).toMatchObject({ sent: before.sent, failed: 0, status: 'sending' });
    await stack.mail.start();
    await finished(c);
    const result = await expectExactlyOnce(c, 0);
    expect(result.sent).toBe(RECIPIENTS);

    // What a recipient gets: list headers, one Message-ID per (campaign, subscriber), the owner's
    // raw HTML escaped, links kept, a visible unsubscribe link.
    // The last one caught (the catcher's files from before its restart are gone from disk).
    const mail = (await listMail(stack.settings.mailWebUrl))
      .filter((m) => m.to.some((t) => t.address.toLowerCase().startsWith(`${c.prefix}-`)))
      .at(-1)!;
    const address = mail.to[0]!.address.toLowerCase();
    const source = await mailSource(stack.settings.mailWebUrl, mail);
    const { rows } = await pool().query<{ id: string }>(
      `select id from public.list_subscribers where list_id = $1 and email = $2`,
      [c.listId, address],
    );
    expect(source).toMatch(
      new RegExp(
        `^List-Unsubscribe: <https?://[^>]+/newsletter/u/${rows[0]!.id}/${c.campaignId}/[A-Za-z0-9_-]{43}>$`,
        'm',
      ),
    );
    expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(source).toMatch(new RegExp(`^List-ID: <${c.listId}\\.`, 'm'));
    expect(source).toMatch(
      new RegExp(`^Message-ID:\\s+<delivery-${c.campaignId}\\.${rows[0]!.id}@`, 'im'),
    );
    expect(mail.html).toContain('&lt;b&gt;raw&lt;/b&gt;');
    expect(mail.html).toContain('<a href="https://example.test/">Our site</a>');
    expect(mail.html).toMatch(/<a href="[^"]+\/newsletter\/unsubscribe\?[^"]+">Unsubscribe<\/a>/);
    expect(mail.text).toMatch(/Unsubscribe: \S+\/newsletter\/unsubscribe\?/);
    console.log(
      `[load] campaign, mail server stopped at ${before.sent} sent: all ${RECIPIENTS} sent once after it came back`,
    );
  }, 240_000);

  it('Postgres restarted mid-campaign: resumes without duplicates', async () => {
    const c = await newCampaign('pg-restart');
    await reached(c, 500);
    await stack.postgres.stop();
    await new Promise((r) => setTimeout(r, 2_000));
    await stack.postgres.start();
    const result = await expectExactlyOnce(c, WINDOW);
    console.log(
      `[load] campaign, Postgres restarted: ${result.sent} sent once, ${result.uncertain} uncertain (failed, not repeated)`,
    );
  }, 240_000);

  it('sender killed between batches: nothing twice', async () => {
    const c = await newCampaign('kill-between');
    await reached(c, 400);
    // No lease held at all: between two claims.
    await until(
      'a moment between batches',
      async () =>
        (
          await pool().query(
            `select count(*)::int as n from private.campaign_messages where campaign_id = $1 and lease is not null`,
            [c.campaignId],
          )
        ).rows[0]!.n,
      (n) => n === 0,
      30_000,
    );
    const pid = stack.functions.kill('forms');
    expect(pid).toBeDefined();
    const result = await expectExactlyOnce(c, WINDOW);
    console.log(
      `[load] campaign, sender killed between batches: ${result.sent} sent once, ${result.uncertain} uncertain`,
    );
  }, 240_000);

  it('sender killed mid-batch: nothing twice; at most one window uncertain', async () => {
    const c = await newCampaign('kill-mid');
    await reached(c, 400);
    await until(
      'a window in flight',
      async () =>
        (
          await pool().query(
            `select count(*)::int as n from private.campaign_messages where campaign_id = $1 and status = 'sending'`,
            [c.campaignId],
          )
        ).rows[0]!.n,
      (n) => n > 0,
      30_000,
    );
    const pid = stack.functions.kill('forms');
    expect(pid).toBeDefined();
    const result = await expectExactlyOnce(c, WINDOW);
    console.log(
      `[load] campaign, sender killed mid-batch: ${result.sent} sent once, ${result.uncertain} uncertain (failed, not repeated)`,
    );
  }, 240_000);
});
