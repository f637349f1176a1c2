// @vitest-environment node
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  runWebhookDeliveries,
  type ClaimedWebhook,
  type WebhookAttempt,
  type WebhookWorkerDeps,
} from './webhook-delivery.ts';
import type { SendResult } from './webhook-sender.ts';
import { WEBHOOKS } from './webhooks.ts';

const now = new Date('2026-11-24T12:00:00Z');
const job = (over: Partial<ClaimedWebhook> = {}): ClaimedWebhook => ({
  id: 'd-1',
  lease: 'l-1',
  attempts: 1,
  event: 'entry.created',
  round_started_at: now.toISOString(),
  webhook_id: 'w-1',
  url: 'https://hooks.example.com/a',
  format: 'json',
  secret: 'whsec_test',
  form_id: 'f-1',
  form_name: 'Contact',
  entry: null,
  allow_local: false,
  ...over,
});

function worker(jobs: ClaimedWebhook[], answer: SendResult, allowLocal = false) {
  const finished: WebhookAttempt[] = [];
  const sent: { body: string; headers: Record<string, string>; allowLocal: boolean }[] = [];
  const deps: WebhookWorkerDeps = {
    store: {
      claim: async () => jobs,
      finish: async (_job, attempt) => void finished.push(attempt),
    },
    send: async (_url, body, headers, local) => {
      sent.push({ body, headers, allowLocal: local });
      return answer;
    },
    allowLocal,
    now: () => now,
  };
  return { deps, finished, sent };
}

const ok: SendResult = { ok: true, statusCode: 204, error: null, excerpt: null, durationMs: 5 };
const down: SendResult = {
  ok: false,
  statusCode: 500,
  error: 'HTTP 500',
  excerpt: 'x',
  durationMs: 5,
};

describe('webhook worker', () => {
  it('signs the exact body it sends', async () => {
    const { deps, sent } = worker([job()], ok);
    const report = await runWebhookDeliveries(deps);
    expect(report).toEqual({ claimed: 1, sent: 1, retrying: 0, failed: 0 });
    const { body, headers } = sent[0]!;
    const t = Math.floor(now.getTime() / 1000);
    const mac = createHmac('sha256', 'whsec_test').update(`${t}.${body}`).digest('hex');
    expect(headers['X-Tinyback-Signature']).toBe(`t=${t},v1=${mac}`);
    expect(headers['X-Tinyback-Delivery']).toBe('d-1');
  });

  it('schedules a retry with backoff, then fails once the round is a day old', async () => {
    const fresh = worker([job({ attempts: 3 })], down);
    expect(await runWebhookDeliveries(fresh.deps)).toMatchObject({ retrying: 1, failed: 0 });
    expect(fresh.finished[0]!.retryInSeconds).toBe(WEBHOOKS.baseDelaySeconds * 4);

    const dayOld = new Date(now.getTime() - WEBHOOKS.retryWindowSeconds * 1000).toISOString();
    const old = worker([job({ attempts: 14, round_started_at: dayOld })], down);
    expect(await runWebhookDeliveries(old.deps)).toMatchObject({ retrying: 0, failed: 1 });
    expect(old.finished[0]).toMatchObject({ ok: false, statusCode: 500, retryInSeconds: null });
  });

  it('allows local targets only when the function and the database both say so', async () => {
    for (const [fn, db, expected] of [
      [true, true, true],
      [true, false, false],
      [false, true, false],
    ] as const) {
      const { deps, sent } = worker([job({ allow_local: db })], ok, fn);
      await runWebhookDeliveries(deps);
      expect(sent[0]!.allowLocal).toBe(expected);
    }
  });
});

describe("a webhook's files", () => {
  const entry = {
    id: 'e-1',
    name: 'Ada',
    email: null,
    message: 'see attached',
    data: {},
    is_spam: false,
    created_at: now.toISOString(),
    files: [
      {
        name: 'cv.pdf',
        size: 900,
        kind: 'pdf',
        mime_type: 'application/pdf',
        object_key: 'u/f/e-1/1-cv.pdf',
      },
      {
        name: 'a.png',
        size: 68,
        kind: 'image',
        mime_type: 'image/png',
        object_key: 'u/f/e-1/2-a.png',
      },
    ],
  };

  it('carries each file with a URL signed at this attempt that expires, never its key', async () => {
    const { deps, sent } = worker([job({ entry })], ok);
    const signed: [string, number][] = [];
    deps.signFile = async (key, seconds) => {
      signed.push([key, seconds]);
      if (key.endsWith('a.png')) throw new Error('Storage away');
      return `https://storage.example/${key}?token=t`;
    };
    await runWebhookDeliveries(deps);
    expect(signed).toEqual([
      ['u/f/e-1/1-cv.pdf', WEBHOOKS.fileUrlSeconds],
      ['u/f/e-1/2-a.png', WEBHOOKS.fileUrlSeconds],
    ]);
    const body = JSON.parse(sent[0]!.body);
    const expires = new Date(now.getTime() + WEBHOOKS.fileUrlSeconds * 1000).toISOString();
    expect(body.entry.files).toEqual([
      {
        name: 'cv.pdf',
        size: 900,
        kind: 'pdf',
        mime_type: 'application/pdf',
        url: 'https://storage.example/u/f/e-1/1-cv.pdf?token=t',
        expires_at: expires,
      },
      // A URL that could not be signed is told as none; the delivery still goes.
      {
        name: 'a.png',
        size: 68,
        kind: 'image',
        mime_type: 'image/png',
        url: null,
        expires_at: null,
      },
    ]);
    expect(sent[0]!.body).not.toContain('object_key');
  });

  it('names the files in a chat message, without URLs', async () => {
    const { deps, sent } = worker([job({ entry, format: 'slack' })], ok);
    deps.signFile = async (key) => `https://storage.example/${key}`;
    await runWebhookDeliveries(deps);
    const text = JSON.parse(sent[0]!.body).text as string;
    expect(text).toContain('*Files:* cv.pdf, a.png');
    expect(text).not.toContain('storage.example');
  });
});
