// A campaign started (or resumed) from the dashboard is kicked off through `POST /forms/_campaigns`
// and goes out within seconds, not at the next scheduled run: on a stack of its own whose
// scheduled `_deliver` run is an hour away, a started campaign stays queued until the kick, then
// reaches every recipient in a few seconds. The route takes no key, and each mail's
// List-Unsubscribe also offers the deployment's mailto (NEWSLETTER_UNSUBSCRIBE_MAILTO) with a
// signed code that the operator acts on through the one-click URL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import {
  campaignState,
  controlCampaign,
  seedCampaign,
  startCampaign,
  type SeededCampaign,
} from '../support/campaigns.ts';
import { listMail, mailSource, partsOf, type CaughtMail } from '../support/mail.ts';
import { localOnly, remote } from '../support/target.ts';

const MAILTO = 'unsubscribe@tinyback.test';
const RECIPIENTS = 12;

let stack: RunningStack;
let dataDir: string;

beforeAll(async () => {
  // Under `npm run verify` there is no stack of our own whose scheduler could be slowed.
  if (remote) return;
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-campaign-kick-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    ports: { api, db, mailWeb, smtp },
    seed: false,
    // The stand-in for pg_cron, an hour apart: whatever is sent here was sent by the kick.
    deliveryIntervalMs: 3_600_000,
    functionEnv: { NEWSLETTER_UNSUBSCRIBE_MAILTO: MAILTO },
    log: (service, message) => {
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
  // The forms function's worker started (through `_mail`, which runs no campaigns: a campaign run
  // started here could still be making its first claim when the first test starts its campaign),
  // so the timings below are the kick's alone.
  const warm = await fetch(`${stack.settings.apiUrl}/functions/v1/forms/_mail`, {
    method: 'POST',
    body: '{}',
  });
  await warm.arrayBuffer();
  expect(warm.status).toBe(202);
});
afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});
beforeEach((ctx) => localOnly(ctx, 'it slows the scheduled run of a stack of its own'));

/** `POST /forms/_campaigns` as a stranger sends it: no key, no token, any body. */
function kick(body = '{}'): Promise<Response> {
  return fetch(`${stack.settings.apiUrl}/functions/v1/forms/_campaigns`, {
    method: 'POST',
    body,
  }).then(async (res) => {
    await res.arrayBuffer();
    return res;
  });
}

const mailOf = (seeded: SeededCampaign) => async () =>
  (await listMail(stack.settings.mailWebUrl)).filter((m) =>
    m.to.some((to) => to.address.startsWith(`${seeded.prefix}-`)),
  );

/** Polls until every recipient has their mail; the time it took. */
async function allArrive(seeded: SeededCampaign, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const mine = mailOf(seeded);
  for (;;) {
    if ((await mine()).length >= RECIPIENTS) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`${(await mine()).length} of ${RECIPIENTS} mails within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('POST /forms/_campaigns', () => {
  it('sends a campaign just started within seconds, which otherwise waits for the schedule', async () => {
    const seeded = await seedCampaign(stack.pool, { subscribers: RECIPIENTS, label: 'kick' });
    expect(await startCampaign(stack.pool, seeded)).toMatchObject({ status: 'sending' });

    // Without a kick nothing goes out before the scheduled run.
    await pause(3_000);
    expect(await mailOf(seeded)()).toEqual([]);
    expect((await campaignState(stack.pool, seeded.campaignId)).messages).toEqual({
      queued: RECIPIENTS,
    });

    // Whatever the body says, the route only makes due work leave now.
    expect((await kick('{"campaign_id":"x","limit":1000000}')).status).toBe(202);
    const took = await allArrive(seeded, 10_000);
    expect(took).toBeLessThan(10_000);
    await expect
      .poll(async () => (await campaignState(stack.pool, seeded.campaignId)).status)
      .toBe('sent');
    const state = await campaignState(stack.pool, seeded.campaignId);
    expect(state).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
    // Exactly once: another kick finds nothing due.
    expect((await kick()).status).toBe(202);
    await pause(1_000);
    expect(await mailOf(seeded)()).toHaveLength(RECIPIENTS);
  });

  it('sends a resumed campaign within seconds', async () => {
    const seeded = await seedCampaign(stack.pool, { subscribers: RECIPIENTS, label: 'resume' });
    await startCampaign(stack.pool, seeded);
    expect(await controlCampaign(stack.pool, seeded, 'pause')).toMatchObject({ status: 'paused' });
    // A paused campaign is never claimed, kick or not.
    expect((await kick()).status).toBe(202);
    await pause(1_500);
    expect(await mailOf(seeded)()).toEqual([]);

    expect(await controlCampaign(stack.pool, seeded, 'resume')).toMatchObject({
      status: 'sending',
    });
    expect((await kick()).status).toBe(202);
    expect(await allArrive(seeded, 10_000)).toBeLessThan(10_000);
  });

  it('offers the mailto with a signed code the operator acts on through the one-click URL', async () => {
    const seeded = await seedCampaign(stack.pool, { subscribers: 1, label: 'mailto' });
    await startCampaign(stack.pool, seeded);
    await kick();
    let mail: CaughtMail | undefined;
    await expect
      .poll(async () => (mail = (await mailOf(seeded)())[0]), { timeout: 10_000 })
      .toBeDefined();
    const [top] = partsOf(await mailSource(stack.settings.mailWebUrl, mail!));
    const header = /^list-unsubscribe: (.*)$/im.exec(top!.headers)?.[1] ?? '';
    const match = /^<(http[^>]+)>, <mailto:([^?>]+)\?subject=([^>]+)>$/.exec(header);
    expect(match, top!.headers).not.toBeNull();
    const [, url, address, subject] = match!;
    expect(address).toBe(MAILTO);
    // The subject's code is the one-click URL's own path: subscriber, campaign, signature.
    const code = decodeURIComponent(subject!).replace(/^unsubscribe /, '');
    const functions = `${stack.settings.apiUrl}/functions/v1`;
    expect(url).toBe(`${functions}/newsletter/u/${code}`);
    expect(code.split('/')).toEqual([expect.any(String), seeded.campaignId, expect.any(String)]);

    // The operator acts on a mail to that address with one POST to the URL the code names.
    const answer = await fetch(`${functions}/newsletter/u/${code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    });
    expect(answer.status).toBe(200);
    const { rows } = await stack.pool.query<{ status: string }>(
      `select status from public.list_subscribers where list_id = $1`,
      [seeded.listId],
    );
    expect(rows).toEqual([{ status: 'unsubscribed' }]);
  });
});
