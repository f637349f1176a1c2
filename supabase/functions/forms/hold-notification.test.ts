// @vitest-environment node
// A message stored while its form's target address waits for confirmation: the handler keeps the
// notification it composed, so the owner can send it once the address is confirmed.
import { describe, expect, it } from 'vitest';
import { handleRequest, type FormsDeps } from './handler.ts';
import type { AcceptResult } from './model.ts';
import type { Notification } from './notification.ts';

const FORM_ID = '0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60';
const ORIGIN = 'https://site.test';

function depsAnswering(result: (entryId: string) => AcceptResult) {
  const held: [string, Notification][] = [];
  const deps: FormsDeps = {
    loadForm: async (id) => ({
      id,
      name: 'Contact',
      target_email: 'new-inbox@example.com',
      allowed_origin: ORIGIN,
      redirect_url: null,
    }),
    accept: async (input) => result(input.entryId),
    hashIp: (ip) => `hash(${ip})`,
    sendNow: async () => undefined,
    holdNotification: async (entryId, notification) => void held.push([entryId, notification]),
    background: (work) => work,
    deliverDue: async () => ({ claimed: 0, sent: 0, retrying: 0, failed: 0 }),
    isServiceRole: () => false,
    clientIpPolicy: {},
    siteUrl: 'http://app.test',
    newId: () => 'entry-1',
    now: () => new Date('2026-01-01T00:00:00Z'),
    log: () => undefined,
  };
  return { deps, held };
}

const post = (fields: Record<string, string>) =>
  new Request(`http://fn.test/forms/${FORM_ID}`, {
    method: 'POST',
    headers: {
      origin: ORIGIN,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  });

describe('a message stored while the target is unconfirmed', () => {
  it('keeps the notification it would have sent, with the visitor’s subject and Reply-To', async () => {
    const { deps, held } = depsAnswering((entryId) => ({
      status: 'accepted',
      entryId,
      deliveryId: null,
      notificationSkipped: 'unverified',
    }));
    const res = await handleRequest(
      post({ email: 'ada@example.org', message: 'Hello', _subject: 'Quote please' }),
      deps,
    );
    expect(res.status).toBe(200);
    expect(held).toHaveLength(1);
    const [entryId, notification] = held[0]!;
    expect(entryId).toBe('entry-1');
    expect(notification).toMatchObject({
      to: 'new-inbox@example.com',
      subject: 'Quote please',
      replyTo: 'ada@example.org',
    });
    expect(notification.text).toContain('message: Hello');
  });

  it('keeps nothing when it was e-mailed, or skipped for another reason, or is a repeat', async () => {
    for (const skipped of [null, 'off', 'hourly_limit', 'daily_limit', undefined]) {
      const { deps, held } = depsAnswering((entryId) => ({
        status: 'accepted',
        entryId,
        deliveryId: skipped === null ? 'd1' : null,
        notificationSkipped: skipped,
      }));
      await handleRequest(post({ message: 'Hello' }), deps);
      expect(held, String(skipped)).toEqual([]);
    }
  });
});
