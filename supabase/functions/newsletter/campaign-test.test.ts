// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../_shared/html.ts';
import {
  campaignTestRouteOf,
  composeCampaignTest,
  handleCampaignTest,
  type CampaignTestDeps,
  type TestCampaign,
  type TestQueued,
} from './campaign-test.ts';

const FN = 'https://project.test/functions/v1/newsletter';
const CAMPAIGN = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
const OWNER = '7d6c5b4a-3928-4716-a5b4-c3d2e1f00112';
const GOOD_TOKEN = 'eyJhbGciOi.eyJzdWIi.sig';

// The sender's renderer (micromark) runs on Deno only; its own tests are the endpoint's.
const renderCampaignMarkdown = (markdown: string) => `<main>${escapeHtml(markdown)}</main>`;

const campaign: TestCampaign = {
  id: CAMPAIGN,
  subject: 'Spring <sale>',
  bodyMarkdown: '# Hello\n\n<script>alert(1)</script> **bold**',
  listId: 'list-1',
  listName: 'Shop "news"',
  fromName: 'Shop',
  replyTo: null,
};

function fakeDeps(queued: TestQueued = { status: 'ok', recipient: 'owner@example.test' }) {
  const queuedTests: Parameters<CampaignTestDeps['queueTest']>[0][] = [];
  const calls = { deliver: 0, loads: [] as [string, string][] };
  const deps: CampaignTestDeps = {
    userOf: async (token) => (token === GOOD_TOKEN ? { id: OWNER } : null),
    loadCampaign: async (userId, campaignId) => {
      calls.loads.push([userId, campaignId]);
      return campaignId === CAMPAIGN ? campaign : null;
    },
    queueTest: async (input) => {
      queuedTests.push(input);
      return queued;
    },
    renderMarkdown: renderCampaignMarkdown,
    siteUrl: 'https://site.test/',
    deliverSoon: () => void calls.deliver++,
    log: () => undefined,
  };
  return { deps, queuedTests, calls };
}

const post = (id: string, authorization?: string) =>
  new Request(`${FN}/campaigns/${id}/test`, {
    method: 'POST',
    headers: authorization ? { authorization } : {},
  });

describe('a campaign’s test', () => {
  it('is its own route', () => {
    expect(campaignTestRouteOf(`/functions/v1/newsletter/campaigns/${CAMPAIGN}/test`)).toBe(
      CAMPAIGN,
    );
    expect(campaignTestRouteOf(`/newsletter/campaigns/${CAMPAIGN}/test/`)).toBe(CAMPAIGN);
    expect(campaignTestRouteOf(`/newsletter/campaigns/${CAMPAIGN}`)).toBeNull();
    expect(campaignTestRouteOf(`/newsletter/lists/${CAMPAIGN}`)).toBeNull();
  });

  it('queues the rendered campaign for the signed-in owner and sends it at once', async () => {
    const { deps, queuedTests, calls } = fakeDeps();
    const res = await handleCampaignTest(post(CAMPAIGN, `Bearer ${GOOD_TOKEN}`), CAMPAIGN, deps);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, recipient: 'owner@example.test' });
    expect(calls.loads).toEqual([[OWNER, CAMPAIGN]]);
    expect(queuedTests).toHaveLength(1);
    expect(queuedTests[0]).toMatchObject({ userId: OWNER, campaignId: CAMPAIGN });
    // No address in the request reaches the queue: the database takes the owner's own.
    expect(Object.keys(queuedTests[0]!).sort()).toEqual([
      'campaignId',
      'html',
      'subject',
      'text',
      'userId',
    ]);
    expect(calls.deliver).toBe(1);
  });

  it('refuses without a valid sign-in, and another owner’s campaign as not found', async () => {
    const { deps, queuedTests } = fakeDeps();
    for (const authorization of [
      undefined,
      'Bearer nope',
      'Basic abc',
      `Bearer ${'a'.repeat(5000)}`,
    ]) {
      const res = await handleCampaignTest(post(CAMPAIGN, authorization), CAMPAIGN, deps);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const other = 'b1b2c3d4-e5f6-4789-8abc-def012345678';
    expect(
      (await handleCampaignTest(post(other, `Bearer ${GOOD_TOKEN}`), other, deps)).status,
    ).toBe(404);
    expect(
      (await handleCampaignTest(post('nope', `Bearer ${GOOD_TOKEN}`), 'nope', deps)).status,
    ).toBe(404);
    expect(queuedTests).toEqual([]);
  });

  it('answers the account’s cap with 429 and Retry-After, and an outage with 503', async () => {
    const limited = await handleCampaignTest(
      post(CAMPAIGN, `Bearer ${GOOD_TOKEN}`),
      CAMPAIGN,
      fakeDeps({ status: 'rate_limited', retryAfter: 3600 }).deps,
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3600');
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });

    const { deps, calls } = fakeDeps();
    deps.userOf = async () => {
      throw new Error('auth is away');
    };
    const down = await handleCampaignTest(post(CAMPAIGN, `Bearer ${GOOD_TOKEN}`), CAMPAIGN, deps);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('30');
    expect(calls.deliver).toBe(0);
  });

  it('takes POST only (and answers the preflight)', async () => {
    const { deps } = fakeDeps();
    const get = new Request(`${FN}/campaigns/${CAMPAIGN}/test`);
    expect((await handleCampaignTest(get, CAMPAIGN, deps)).status).toBe(405);
    const preflight = new Request(`${FN}/campaigns/${CAMPAIGN}/test`, { method: 'OPTIONS' });
    const res = await handleCampaignTest(preflight, CAMPAIGN, deps);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
  });
});

describe('the test mail', () => {
  it('is the subscribers’ mail, marked as a test, with the owner’s words escaped', () => {
    const mail = composeCampaignTest(campaign, renderCampaignMarkdown, 'https://site.test/');
    expect(mail.subject).toBe('[Test] Spring <sale>');
    expect(mail.text).toMatch(/^This is a test of your campaign, sent only to you\./);
    expect(mail.text).toContain('# Hello');
    expect(mail.html).toContain('<main># Hello');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Shop &quot;news&quot;');
    expect(mail.html.indexOf('This is a test')).toBeLessThan(mail.html.indexOf('<main>'));
    expect(mail.html).toContain('href="https://site.test/newsletter/unsubscribe"');
  });

  it('names an empty subject', () => {
    expect(composeCampaignTest({ ...campaign, subject: '  ' }, (m) => m, null).subject).toBe(
      '[Test] (no subject)',
    );
  });
});
