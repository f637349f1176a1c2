// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DELIVERY } from '../limits.ts';
import {
  calendarOf,
  createSendSoon,
  FINISH_RETRIES_MS,
  runDeliveries,
  type ClaimedJob,
  type DeliveryStore,
  type Outcome,
} from './mail-delivery.ts';
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
  const finishCalls: number[] = [];
  const store: DeliveryStore = {
    claim: async ({ id }) => (id ? jobs.filter((j) => j.id === id) : jobs),
    finish: async (results) => {
      finishCalls.push(results.length);
      finished.push(...results.map(([j, o]): [string, Outcome] => [j.id, o]));
    },
  };
  return { store, finished, finishCalls };
}

/** A promise with its resolve function, to hold a step until the test lets it go. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('delivery worker', () => {
  it('hands the mailer the row’s sender name beside MAIL_FROM', async () => {
    const { store } = fakeStore([{ ...job('a'), from_name: 'Contact via tinyback' }, job('b')]);
    const sentMail: OutgoingMail[] = [];
    const mailer: Mailer = { send: async (mail) => void sentMail.push(mail) };
    await runDeliveries(store, mailer, 'tinyback <forms@x.test>');
    expect(sentMail.map((m) => [m.from, m.fromName])).toEqual([
      ['tinyback <forms@x.test>', 'Contact via tinyback'],
      ['tinyback <forms@x.test>', null],
    ]);
  });

  it('hands the mailer a booking’s invitation with its method, and none for plain mail', async () => {
    const { store } = fakeStore([
      { ...job('a'), calendar: 'BEGIN:VCALENDAR…', calendar_method: 'REQUEST' },
      { ...job('b'), calendar: 'BEGIN:VCALENDAR…', calendar_method: 'CANCEL' },
      { ...job('c'), calendar: null, calendar_method: null },
      job('d'),
    ]);
    const sentMail: OutgoingMail[] = [];
    await runDeliveries(store, { send: async (mail) => void sentMail.push(mail) }, 'f');
    expect(sentMail.map((m) => m.calendar)).toEqual([
      { method: 'REQUEST', content: 'BEGIN:VCALENDAR…' },
      { method: 'CANCEL', content: 'BEGIN:VCALENDAR…' },
      null,
      null,
    ]);
  });

  it('sends a row with half an invitation, or an unknown method, as plain mail', () => {
    expect(calendarOf({ calendar: 'X', calendar_method: null })).toBeNull();
    expect(calendarOf({ calendar: null, calendar_method: 'REQUEST' })).toBeNull();
    expect(calendarOf({ calendar: '', calendar_method: 'REQUEST' })).toBeNull();
    expect(calendarOf({ calendar: 'X', calendar_method: 'PUBLISH' })).toBeNull();
    expect(calendarOf({})).toBeNull();
    expect(calendarOf({ calendar: 'X', calendar_method: 'cancel' })).toEqual({
      method: 'CANCEL',
      content: 'X',
    });
  });

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

  it('records a whole batch in one call, sending as many at once as the mailer allows', async () => {
    const jobs = ['a', 'b', 'c', 'd', 'e'].map((id) => job(id));
    const { store, finished, finishCalls } = fakeStore(jobs);
    let inFlight = 0;
    let most = 0;
    const mailer: Mailer = {
      parallel: 2,
      send: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
      },
    };
    expect(await runDeliveries(store, mailer, 'f')).toMatchObject({ claimed: 5, sent: 5 });
    expect(most).toBe(2);
    expect(finishCalls).toEqual([5]);
    expect(finished.map(([id]) => id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('records nothing when nothing was due', async () => {
    const { store, finishCalls } = fakeStore([]);
    expect(await runDeliveries(store, { send: async () => undefined }, 'f')).toEqual({
      claimed: 0,
      sent: 0,
      retrying: 0,
      failed: 0,
    });
    expect(finishCalls).toEqual([]);
  });
  it('records the batch again through a short outage, then gives up to the lease', async () => {
    const { store, finished } = fakeStore([job('a')]);
    let failures = 2;
    const flaky: DeliveryStore = {
      claim: store.claim,
      finish: async (results) => {
        if (failures-- > 0) throw new Error('database restarting');
        await store.finish(results);
      },
    };
    const pauses: number[] = [];
    const sleep = async (ms: number) => void pauses.push(ms);
    const mailer: Mailer = { send: async () => undefined };
    await runDeliveries(flaky, mailer, 'f', { sleep });
    expect(pauses).toEqual(FINISH_RETRIES_MS.slice(0, 2));
    expect(finished).toEqual([['a', { sent: true }]]);

    const down: DeliveryStore = {
      claim: store.claim,
      finish: async () => {
        throw new Error('database down');
      },
    };
    await expect(runDeliveries(down, mailer, 'f', { sleep })).rejects.toThrow('database down');
  });
});

describe('sending soon after posts', () => {
  const report = (claimed: number) => ({ claimed, sent: claimed, retrying: 0, failed: 0 });

  it('runs once per burst: calls during a run add one more round, not one run each', async () => {
    const first = gate();
    let runs = 0;
    const soon = createSendSoon(
      async () => {
        runs++;
        if (runs === 1) await first.opened;
        return report(1);
      },
      () => undefined,
      20,
    );
    const a = soon();
    const b = soon();
    const c = soon();
    expect(b).toBe(a);
    expect(c).toBe(a);
    first.open();
    await a;
    // The calls that came in during the first round were served by one more round.
    expect(runs).toBe(2);
    // Idle again: the next call starts a new run.
    await soon();
    expect(runs).toBe(3);
  });

  it('goes round again while batches come back full, and survives a failed run', async () => {
    const claims = [20, 20, 3];
    const logged: string[] = [];
    let calls = 0;
    const soon = createSendSoon(
      async () => {
        calls++;
        if (calls === 1) throw new Error('storage down');
        return report(claims.shift() ?? 0);
      },
      (m) => logged.push(m),
      20,
    );
    await soon();
    expect(logged).toEqual(['sending e-mail failed: storage down']);
    expect(calls).toBe(1);
    await soon();
    expect(calls).toBe(4);
  });
});
