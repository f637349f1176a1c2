// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DELIVERY } from '../_shared/limits.ts';
import { runDeliveries, type ClaimedJob, type DeliveryStore, type Outcome } from './delivery.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

const job = (id: string, attempts = 1): ClaimedJob => ({
  id,
  lease: `lease-${id}`,
  attempts,
  recipient: 'owner@example.com',
  subject: 'S',
  reply_to: 'a@b.co',
  text_body: 't',
  html_body: 'h',
});

function fakeStore(jobs: ClaimedJob[]) {
  const finished: [string, Outcome][] = [];
  const store: DeliveryStore = {
    claim: async ({ id }) => (id ? jobs.filter((j) => j.id === id) : jobs),
    finish: async (j, outcome) => void finished.push([j.id, outcome]),
  };
  return { store, finished };
}

describe('delivery worker', () => {
  it('sends each claimed job and records the outcome', async () => {
    const { store, finished } = fakeStore([job('a'), job('b', 3), job('c', DELIVERY.maxAttempts)]);
    const sentMail: OutgoingMail[] = [];
    const mailer: Mailer = {
      send: async (mail) => {
        if (mail.id !== 'a') throw new Error(`refused ${mail.id}`);
        sentMail.push(mail);
      },
    };
    const report = await runDeliveries(store, mailer, 'tinyback <forms@x.test>');
    expect(report).toEqual({ claimed: 3, sent: 1, retrying: 1, failed: 1 });
    expect(sentMail[0]).toMatchObject({
      id: 'a',
      from: 'tinyback <forms@x.test>',
      to: 'owner@example.com',
      replyTo: 'a@b.co',
    });
    expect(finished).toEqual([
      ['a', { sent: true }],
      ['b', { sent: false, error: 'refused b', retryInSeconds: DELIVERY.baseDelaySeconds * 4 }],
      ['c', { sent: false, error: `refused c`, retryInSeconds: null }],
    ]);
  });

  it('restricts an immediate send to one job', async () => {
    const { store, finished } = fakeStore([job('a'), job('b')]);
    await runDeliveries(store, { send: async () => undefined }, 'f', { id: 'b' });
    expect(finished.map(([id]) => id)).toEqual(['b']);
  });
});
