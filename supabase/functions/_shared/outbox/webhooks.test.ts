// @vitest-environment node
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isPublicAddress,
  signatureHeader,
  webhookBody,
  webhookRetryDelaySeconds,
  webhookUrlProblem,
  WEBHOOKS,
  type WebhookEventInput,
} from './webhooks.ts';

const now = new Date('2026-11-24T10:00:00Z');
const input = (over: Partial<WebhookEventInput> = {}): WebhookEventInput => ({
  event: 'entry.created',
  deliveryId: 'd-1',
  form: { id: 'f-1', name: 'Contact <b>' },
  entry: {
    id: 'e-1',
    name: 'Ann',
    email: 'ann@example.org',
    message: 'Hi @everyone <script>',
    data: { plan: 'pro', tags: ['a', 'b'] },
    is_spam: false,
    created_at: now.toISOString(),
  },
  now,
  ...over,
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.2.3.4',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    // IPv4-translated (RFC 2765): judged as the IPv4 address it carries.
    '::ffff:0:7f00:1',
    '::ffff:0:10.0.0.1',
    '[::1]',
    'not-an-ip',
    '1.2.3',
  ])('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  );
});

describe('webhookUrlProblem', () => {
  it.each([
    'http://example.com/hook',
    'https://127.0.0.1/hook',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://[::1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://169.254.169.254/latest/meta-data',
    'https://localhost:8443/',
    'https://api.localhost/',
    'https://metadata.google.internal/',
    'https://intranet/',
    'https://user:pass@example.com/',
    'ftp://example.com/',
    'not a url',
  ])('refuses %s outside local development', (url) => {
    expect(webhookUrlProblem(url, false)).not.toBeNull();
  });

  it('accepts public https URLs', () => {
    expect(webhookUrlProblem('https://hooks.slack.com/services/T/B/X', false)).toBeNull();
    expect(webhookUrlProblem('https://8.8.8.8:8443/a?b=c', false)).toBeNull();
  });

  it('accepts http and loopback only when local targets are allowed', () => {
    expect(webhookUrlProblem('http://127.0.0.1:9999/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:9999/hook', false)).not.toBeNull();
    // Credentials stay refused even locally: they would be sent to the receiver.
    expect(webhookUrlProblem('http://u:p@127.0.0.1/', true)).not.toBeNull();
  });
});

describe('webhookRetryDelaySeconds', () => {
  it('doubles from the base delay up to the cap', () => {
    const at = (n: number) => webhookRetryDelaySeconds(n, now, now);
    expect(at(1)).toBe(WEBHOOKS.baseDelaySeconds);
    expect(at(2)).toBe(WEBHOOKS.baseDelaySeconds * 2);
    expect(at(5)).toBe(WEBHOOKS.baseDelaySeconds * 16);
    expect(at(40)).toBe(WEBHOOKS.maxDelaySeconds);
  });

  it('keeps retrying for at least 24 hours, then gives up', () => {
    // Follow the schedule as the worker would: every retry waits the delay it was given.
    let clock = now.getTime();
    let attempts = 1;
    for (;;) {
      const delay = webhookRetryDelaySeconds(attempts, now, new Date(clock));
      if (delay === null) break;
      clock += delay * 1000;
      attempts++;
    }
    expect(clock - now.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    // …and not endlessly: the last retry is at most one capped delay past the window.
    expect(clock - now.getTime()).toBeLessThan((24 * 3600 + WEBHOOKS.maxDelaySeconds) * 1000);
    expect(attempts).toBeGreaterThan(6);
  });
});

describe('webhookBody', () => {
  it('sends the entry as tinyback JSON', () => {
    const body = JSON.parse(webhookBody('json', input()));
    expect(body).toMatchObject({
      event: 'entry.created',
      delivery_id: 'd-1',
      form: { id: 'f-1', name: 'Contact <b>' },
      entry: { id: 'e-1', email: 'ann@example.org', data: { plan: 'pro' } },
    });
  });

  it('sends a sample entry for a test event', () => {
    const body = JSON.parse(webhookBody('json', input({ event: 'test', entry: null })));
    expect(body.event).toBe('test');
    expect(body.entry.email).toBe('sender@example.com');
  });

  it('escapes Slack mrkdwn control characters', () => {
    const { text } = JSON.parse(webhookBody('slack', input()));
    expect(text).toContain('*Contact &lt;b&gt;*');
    expect(text).toContain('&lt;script&gt;');
    expect(text).not.toContain('<script>');
    expect(text).toContain('*tags:* a, b');
  });

  it('gives Discord no mentions and neutralised markdown, within 2000 characters', () => {
    const long = input();
    long.entry!.message = 'x'.repeat(5000);
    const msg = JSON.parse(webhookBody('discord', long));
    expect(msg.allowed_mentions).toEqual({ parse: [] });
    expect(msg.content.length).toBeLessThanOrEqual(2000);
    const mention = JSON.parse(webhookBody('discord', input()));
    expect(mention.content).toContain('\\@everyone');
  });
});

describe('signatureHeader', () => {
  it('is an HMAC-SHA256 of "<t>.<body>" that Node computes alike', async () => {
    const header = await signatureHeader('whsec_abc', '{"a":1}', now);
    const t = Math.floor(now.getTime() / 1000);
    const expected = createHmac('sha256', 'whsec_abc').update(`${t}.{"a":1}`).digest('hex');
    expect(header).toBe(`t=${t},v1=${expected}`);
  });
});
