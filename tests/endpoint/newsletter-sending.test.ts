// The campaign sender's database half: campaign_claim (due scheduled campaigns start, leases fair
// across accounts within the per-call and daily ceilings, confirmed subscribers only, never a
// paused or cancelled campaign's messages), campaign_begin ('sending' before SMTP) and
// campaign_finish (only under its own lease; counts, bounces, completion). An interrupted send is
// never handed out again. Calls are made as the service role, as the outbox's connection does.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAsService, superuserPool } from '../support/db.ts';
import {
  campaignState,
  controlCampaign,
  seedCampaign,
  startCampaign,
  type SeededCampaign,
} from '../support/campaigns.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(() => pool?.end());

interface Claimed {
  campaign_id: string;
  subscriber_id: string;
  lease: string;
  attempts: number;
  user_id: string;
  list_id: string;
  recipient: string;
  recipient_name: string | null;
  subject: string;
  body_markdown: string;
  list_name: string;
  from_name: string | null;
  reply_to: string | null;
}

/** One claim; only the rows of `owners` (other tests' campaigns may be sending on this stack). */
async function claim(
  owners: SeededCampaign[],
  opts: {
    limit?: number;
    perSecond?: number;
    perDay?: number;
    newPerDay?: number;
    intervalMs?: number;
  } = {},
): Promise<Claimed[]> {
  const rows = await commitAsService<Claimed>(
    pool,
    `select * from public.campaign_claim($1, $2, $3, $4, $5, $6)`,
    [
      opts.limit ?? 5000,
      120,
      opts.perSecond ?? 1000,
      opts.perDay ?? 50000,
      opts.newPerDay ?? 500,
      opts.intervalMs ?? 0,
    ],
  );
  const ids = new Set(owners.map((o) => o.userId));
  const mine = rows.filter((r) => ids.has(r.user_id));
  // Others' rows go back at once, so their tests see them queued again.
  const others = rows.filter((r) => !ids.has(r.user_id));
  if (others.length) await finish(others.map((r) => [r, 'released']));
  return mine;
}

async function begin(rows: Claimed[]) {
  const byLease = new Map<string, Claimed[]>();
  for (const r of rows) byLease.set(r.lease, [...(byLease.get(r.lease) ?? []), r]);
  const begun: { campaign_id: string; subscriber_id: string; attempts: number }[] = [];
  for (const [lease, group] of byLease)
    begun.push(
      ...(await commitAsService<{ campaign_id: string; subscriber_id: string; attempts: number }>(
        pool,
        `select * from public.campaign_begin($1, $2::jsonb)`,
        [
          lease,
          JSON.stringify(
            group.map((r) => ({ campaign_id: r.campaign_id, subscriber_id: r.subscriber_id })),
          ),
        ],
      )),
    );
  return begun;
}

async function finish(
  results: [Pick<Claimed, 'campaign_id' | 'subscriber_id' | 'lease'>, string, string?][],
): Promise<number> {
  const rows = await commitAsService<{ n: number }>(
    pool,
    `select public.campaign_finish($1::jsonb) as n`,
    [
      JSON.stringify(
        results.map(([r, outcome, error]) => ({
          campaign_id: r.campaign_id,
          subscriber_id: r.subscriber_id,
          lease: r.lease,
          outcome,
          error: error ?? null,
          retry_in_seconds: outcome === 'retry' ? 30 : null,
        })),
      ),
    ],
  );
  return rows[0]!.n;
}

const label = (name: string) => `${name}-${randomUUID().slice(0, 6)}`;

describe('campaign_claim / campaign_begin / campaign_finish', () => {
  it('leases, sends once under the lease, counts and finishes the campaign', async () => {
    const c = await seedCampaign(pool, { subscribers: 5, label: label('once') });
    expect(await startCampaign(pool, c)).toEqual({ status: 'sending', recipients: 5 });

    const first = await claim([c], { perSecond: 3 });
    expect(first).toHaveLength(3);
    expect(first[0]).toMatchObject({
      campaign_id: c.campaignId,
      list_id: c.listId,
      list_name: expect.stringContaining('News'),
      from_name: 'Ada from Example',
      reply_to: 'ada@example.test',
      subject: expect.stringContaining('Spring news'),
      body_markdown: expect.stringContaining('# Hello'),
      recipient: expect.stringMatching(/@example\.test$/),
      recipient_name: expect.stringMatching(/^Reader /),
      attempts: 0,
    });
    // Leased rows are not claimed again; the other two are.
    const second = await claim([c], { perSecond: 3 });
    expect(second).toHaveLength(2);
    expect(new Set([...first, ...second].map((r) => r.subscriber_id)).size).toBe(5);

    // A finish before begin, or under another lease, records nothing.
    expect(await finish([[first[0]!, 'sent']])).toBe(0);
    const begun = await begin(first);
    expect(begun.map((b) => b.attempts)).toEqual([1, 1, 1]);
    expect(await finish([[{ ...first[0]!, lease: randomUUID() }, 'sent']])).toBe(0);
    expect(await finish(first.map((r) => [r, 'sent']))).toBe(3);
    // Twice is once.
    expect(await finish(first.map((r) => [r, 'sent']))).toBe(0);
    await begin(second);
    expect(await finish(second.map((r) => [r, 'sent']))).toBe(2);

    const state = await campaignState(pool, c.campaignId);
    expect(state).toMatchObject({ status: 'sent', recipients: 5, sent: 5, failed: 0 });
    expect(state.messages).toEqual({ sent: 5 });
    expect(await claim([c])).toHaveLength(0);
  });

  it('never hands out an interrupted send again; an unbegun lease runs out and is claimed again', async () => {
    const c = await seedCampaign(pool, { subscribers: 4, label: label('lease') });
    await startCampaign(pool, c);
    const rows = await claim([c]);
    expect(rows).toHaveLength(4);
    // Two were begun (their SMTP transactions started), two not, when the sender died.
    await begin(rows.slice(0, 2));
    await pool.query(
      `update private.campaign_messages set locked_until = now() - interval '1 second'
        where campaign_id = $1`,
      [c.campaignId],
    );
    const again = await claim([c]);
    expect(again.map((r) => r.subscriber_id).sort()).toEqual(
      rows
        .slice(2)
        .map((r) => r.subscriber_id)
        .sort(),
    );
    // The dead sender's late finish of an unbegun message does not count: it is leased anew.
    expect(await finish([[rows[2]!, 'released']])).toBe(0);
    const state = await campaignState(pool, c.campaignId);
    expect(state.messages).toMatchObject({ failed: 2, queued: 2 });
    expect(state.failed).toBe(2);
    const { rows: errors } = await pool.query<{ last_error: string }>(
      `select last_error from private.campaign_messages where campaign_id = $1 and status = 'failed'`,
      [c.campaignId],
    );
    expect(errors[0]!.last_error).toMatch(/not sent again/);
    await begin(again);
    await finish(again.map((r) => [r, 'sent']));
    expect(await campaignState(pool, c.campaignId)).toMatchObject({
      status: 'sent',
      sent: 2,
      failed: 2,
    });
  });

  it('a late finish of a begun message under its own lease still counts (database was away)', async () => {
    const c = await seedCampaign(pool, { subscribers: 1, label: label('late') });
    await startCampaign(pool, c);
    const [row] = await claim([c]);
    await begin([row!]);
    await pool.query(
      `update private.campaign_messages set locked_until = now() - interval '1 second'
        where campaign_id = $1`,
      [c.campaignId],
    );
    expect(await finish([[row!, 'sent']])).toBe(1);
    expect(await campaignState(pool, c.campaignId)).toMatchObject({ status: 'sent', sent: 1 });
  });

  it('a retry goes back to the queue later; a 5xx bounces the subscriber; a failure counts', async () => {
    const c = await seedCampaign(pool, { subscribers: 3, label: label('outcomes') });
    await startCampaign(pool, c);
    const rows = await claim([c]);
    await begin(rows);
    await finish([
      [rows[0]!, 'retry', '421 try later'],
      [rows[1]!, 'bounced', '550 no such user'],
      [rows[2]!, 'failed', 'message too large'],
    ]);
    const state = await campaignState(pool, c.campaignId);
    expect(state).toMatchObject({ status: 'sending', bounced: 1, failed: 1, sent: 0 });
    expect(state.messages).toEqual({ queued: 1, bounced: 1, failed: 1 });
    const { rows: sub } = await pool.query<{ status: string }>(
      `select status from public.list_subscribers where id = $1`,
      [rows[1]!.subscriber_id],
    );
    expect(sub[0]!.status).toBe('bounced');
    // Not before its retry time.
    expect(await claim([c])).toHaveLength(0);
    await pool.query(
      `update private.campaign_messages set locked_until = now() - interval '1 second'
        where campaign_id = $1 and status = 'queued'`,
      [c.campaignId],
    );
    const retried = await claim([c]);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.attempts).toBe(1);
  });

  it('claims nothing of a paused or cancelled campaign; a pause after the claim releases at begin', async () => {
    const c = await seedCampaign(pool, { subscribers: 6, label: label('pause') });
    await startCampaign(pool, c);
    const rows = await claim([c], { perSecond: 2 });
    expect(rows).toHaveLength(2);
    expect(await controlCampaign(pool, c, 'pause')).toEqual({ status: 'paused' });
    expect(await claim([c])).toHaveLength(0);
    expect(await begin(rows)).toHaveLength(0);
    expect((await campaignState(pool, c.campaignId)).messages).toEqual({ queued: 6 });
    expect(await controlCampaign(pool, c, 'resume')).toEqual({ status: 'sending' });
    const resumed = await claim([c], { perSecond: 2 });
    expect(resumed).toHaveLength(2);
    expect(await controlCampaign(pool, c, 'cancel')).toEqual({ status: 'cancelled' });
    expect(await begin(resumed)).toHaveLength(0);
    expect(await claim([c])).toHaveLength(0);
    expect(await campaignState(pool, c.campaignId)).toMatchObject({
      status: 'cancelled',
      sent: 0,
      messages: { skipped: 6 },
    });
  });

  it('skips a subscriber who left after the start, at claim and at begin', async () => {
    const c = await seedCampaign(pool, { subscribers: 3, label: label('left') });
    await startCampaign(pool, c);
    await pool.query(
      `update public.list_subscribers set status = 'unsubscribed', unsubscribed_at = now()
        where list_id = $1 and email = $2`,
      [c.listId, `${c.prefix}-1@example.test`],
    );
    const rows = await claim([c]);
    expect(rows.map((r) => r.recipient).sort()).toEqual([
      `${c.prefix}-2@example.test`,
      `${c.prefix}-3@example.test`,
    ]);
    await pool.query(
      `update public.list_subscribers set status = 'unsubscribed', unsubscribed_at = now()
        where list_id = $1 and email = $2`,
      [c.listId, `${c.prefix}-2@example.test`],
    );
    const begun = await begin(rows);
    expect(begun).toHaveLength(1);
    await finish(
      rows.filter((r) => r.subscriber_id === begun[0]!.subscriber_id).map((r) => [r, 'sent']),
    );
    expect(await campaignState(pool, c.campaignId)).toMatchObject({
      status: 'sent',
      sent: 1,
      messages: { sent: 1, skipped: 2 },
    });
  });

  it('starts a due scheduled campaign with the subscribers confirmed then', async () => {
    const c = await seedCampaign(pool, { subscribers: 2, label: label('scheduled') });
    const at = new Date(Date.now() + 3_600_000);
    expect(await startCampaign(pool, c, at)).toMatchObject({ status: 'scheduled' });
    expect(await claim([c])).toHaveLength(0);
    await pool.query(
      `update public.campaigns set scheduled_at = now() - interval '1 second' where id = $1`,
      [c.campaignId],
    );
    const rows = await claim([c]);
    expect(rows).toHaveLength(2);
    expect(await campaignState(pool, c.campaignId)).toMatchObject({
      status: 'sending',
      recipients: 2,
    });
  });

  it('a new account sends at most 500 campaign messages a day, and deleting resets nothing', async () => {
    const c = await seedCampaign(pool, { subscribers: 600, label: label('new'), newAccount: true });
    await startCampaign(pool, c);
    const first = await claim([c], { perSecond: 400 });
    const second = await claim([c], { perSecond: 400 });
    expect(first.length + second.length).toBe(500);
    expect(await claim([c], { perSecond: 400 })).toHaveLength(0);
    // Released messages go back to the day's allowance.
    await finish(second.slice(0, 10).map((r) => [r, 'released']));
    expect(await claim([c], { perSecond: 400 })).toHaveLength(10);

    // Deleting the list (and its campaign) resets nothing: a new campaign claims nothing today.
    await pool.query(`delete from public.newsletter_lists where id = $1`, [c.listId]);
    const d = await seedCampaign(pool, { subscribers: 5, label: label('new2'), ownerId: c.userId });
    await startCampaign(pool, d);
    expect(await claim([d])).toHaveLength(0);
    const { rows } = await pool.query<{ messages: number }>(
      `select messages from private.campaign_account_days where user_id = $1`,
      [c.userId],
    );
    expect(rows[0]!.messages).toBe(500);
  });

  it('an established account is held to the deployment ceiling per day', async () => {
    const c = await seedCampaign(pool, { subscribers: 30, label: label('ceiling') });
    await startCampaign(pool, c);
    expect(await claim([c], { perDay: 12 })).toHaveLength(12);
    expect(await claim([c], { perDay: 12 })).toHaveLength(0);
  });

  it('gives an account one share per interval, whichever sender asks', async () => {
    const c = await seedCampaign(pool, { subscribers: 30, label: label('interval') });
    await startCampaign(pool, c);
    expect(await claim([c], { perSecond: 5, intervalMs: 60_000 })).toHaveLength(5);
    expect(await claim([c], { perSecond: 5, intervalMs: 60_000 })).toHaveLength(0);
  });

  it('shares a claim round robin between accounts', async () => {
    const a = await seedCampaign(pool, { subscribers: 50, label: label('fair-a') });
    const b = await seedCampaign(pool, { subscribers: 50, label: label('fair-b') });
    await startCampaign(pool, a);
    await startCampaign(pool, b);
    const rows = await claim([a, b], { perSecond: 10 });
    const perOwner = (owner: SeededCampaign) =>
      rows.filter((r) => r.user_id === owner.userId).length;
    expect(perOwner(a)).toBe(10);
    expect(perOwner(b)).toBe(10);
  });

  it('is for the service role only', async () => {
    const client = await pool.connect();
    try {
      for (const role of ['anon', 'authenticated']) {
        await client.query('begin');
        await client.query(`set local role ${role}`);
        await expect(
          client.query(`select * from public.campaign_claim(1, 60, 1)`),
        ).rejects.toMatchObject({
          code: '42501',
        });
        await client.query('rollback');
      }
    } finally {
      client.release();
    }
  });
});
