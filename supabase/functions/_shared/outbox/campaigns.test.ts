import { describe, expect, it } from 'vitest';
import {
  classifySendError,
  composeCampaignMail,
  runCampaigns,
  type CampaignResult,
  type CampaignStore,
  type ClaimedMessage,
} from './campaigns.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

const message = (n: number, lease = 'lease-1'): ClaimedMessage => ({
  campaign_id: 'c1',
  subscriber_id: `s${n}`,
  lease,
  attempts: 0,
  user_id: 'u1',
  list_id: '11111111-1111-4111-8111-111111111111',
  recipient: `r${n}@example.test`,
  recipient_name: null,
  subject: 'News',
  body_markdown: '# Hi',
  list_name: 'Shop <news>',
  from_name: 'Ada',
  reply_to: null,
});

const links = async (m: ClaimedMessage) => ({
  oneClick: `https://fn.example.test/newsletter/u/${m.subscriber_id}`,
  page: `https://site.example.test/newsletter/unsubscribe?u=${m.subscriber_id}&c=x`,
});

const limits = {
  perAccountPerSecond: 50,
  perAccountPerDay: 1000,
  newAccountPerDay: 500,
  batchSize: 200,
  window: 2,
  leaseSeconds: 120,
  maxAttempts: 3,
  runSeconds: 30,
};

/** A store over `count` messages: what was begun and what was finished. */
function fakeStore(count: number) {
  const queue = Array.from({ length: count }, (_, i) => message(i + 1));
  const begun: string[] = [];
  const finished: CampaignResult[] = [];
  const store: CampaignStore = {
    async claim() {
      return queue.splice(0, 5);
    },
    async begin(_lease, messages) {
      begun.push(...messages.map((m) => m.subscriber_id));
      return messages.map((m) => ({ ...m, attempts: 1 }));
    },
    async finish(results) {
      finished.push(...results);
      return results.length;
    },
  };
  return { store, begun, finished };
}

const deps = (store: CampaignStore, mailer: Mailer) => ({
  store,
  mailer,
  from: 'tinyback <mail@example.test>',
  renderMarkdown: (md: string) => `<h1>${md.slice(2)}</h1>`,
  links,
  limits,
  listIdDomain: 'site.example.test',
  log: () => undefined,
  sleep: async () => undefined,
});

describe('classifySendError', () => {
  it('tells retry, bounce, failure and an uncertain send apart', () => {
    expect(classifySendError({ code: 'ECONNECTION', command: 'CONN' })).toEqual({
      kind: 'retry',
      unreachable: true,
    });
    expect(classifySendError({ responseCode: 421, command: 'MAIL FROM' }).kind).toBe('retry');
    expect(classifySendError({ responseCode: 550, command: 'RCPT TO' }).kind).toBe('bounced');
    expect(classifySendError({ responseCode: 552, command: 'DATA' }).kind).toBe('failed');
    expect(classifySendError({ code: 'ESOCKET', command: 'DATA' }).kind).toBe('uncertain');
    expect(classifySendError(new Error('sending timed out after 15000 ms')).kind).toBe('uncertain');
    expect(classifySendError(new Error('Resend answered 429: slow down')).kind).toBe('retry');
    expect(classifySendError(new Error('Resend answered 422: bad')).kind).toBe('failed');
  });
});

describe('composeCampaignMail', () => {
  it('carries the list headers, a visible unsubscribe link and a Message-ID per recipient', () => {
    const m = message(1);
    const mail = composeCampaignMail(
      m,
      '<p>body</p>',
      {
        oneClick: 'https://fn.example.test/u/1',
        page: 'https://site.example.test/u?a=1&b=2',
      },
      'x <x@example.test>',
      'site.example.test',
    );
    expect(mail.id).toBe('c1.s1');
    expect(mail.list).toEqual({
      unsubscribeUrl: 'https://fn.example.test/u/1',
      unsubscribeMailto: null,
      listId: '11111111-1111-4111-8111-111111111111.site.example.test',
    });
    expect(mail.html).toContain(
      '<a href="https://site.example.test/u?a=1&amp;b=2">Unsubscribe</a>',
    );
    expect(mail.html).toContain('Shop &lt;news&gt;');
    expect(mail.text).toContain('Unsubscribe: https://site.example.test/u?a=1&b=2');
    expect(mail.fromName).toBe('Ada');
  });

  it('offers the mailto after the URL where the deployment names an address', () => {
    const mailto = 'mailto:unsubscribe@example.test?subject=unsubscribe%20s1%2Fc1%2Fsig';
    const mail = composeCampaignMail(
      message(1),
      '<p>body</p>',
      { oneClick: 'https://fn.example.test/u/1', page: 'https://site.example.test/u', mailto },
      'x <x@example.test>',
      'site.example.test',
    );
    expect(mail.list).toMatchObject({
      unsubscribeUrl: 'https://fn.example.test/u/1',
      unsubscribeMailto: mailto,
    });
  });
});

describe('runCampaigns', () => {
  it('begins each window before sending it and records every answer', async () => {
    const { store, begun, finished } = fakeStore(7);
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = { parallel: 2, send: async (mail) => void sent.push(mail) };
    const report = await runCampaigns(deps(store, mailer));
    expect(report).toMatchObject({ claimed: 7, sent: 7 });
    expect(begun).toHaveLength(7);
    expect(new Set(sent.map((m) => m.id)).size).toBe(7);
    expect(finished.map((r) => r.outcome)).toEqual(Array(7).fill('sent'));
  });

  it('when the server cannot be reached, releases the rest of the batch unbegun and stops', async () => {
    const { store, begun, finished } = fakeStore(5);
    const mailer: Mailer = {
      send: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), {
          code: 'ECONNECTION',
          command: 'CONN',
        });
      },
    };
    const report = await runCampaigns(deps(store, mailer));
    expect(report).toMatchObject({ claimed: 5, sent: 0, retrying: 2 });
    expect(begun).toHaveLength(2);
    expect(finished.map((r) => r.outcome)).toEqual([
      'retry',
      'retry',
      'released',
      'released',
      'released',
    ]);
  });

  it('keeps results the database could not take and offers them first next time', async () => {
    const { store, finished } = fakeStore(2);
    let down = true;
    const flaky: CampaignStore = {
      ...store,
      finish: async (results) => {
        if (down) throw new Error('connection terminated');
        return store.finish(results);
      },
    };
    const unrecorded: CampaignResult[] = [];
    const mailer: Mailer = { send: async () => undefined };
    await runCampaigns({ ...deps(flaky, mailer), unrecorded });
    expect(unrecorded).toHaveLength(2);
    down = false;
    await runCampaigns({ ...deps(flaky, mailer), unrecorded });
    expect(unrecorded).toHaveLength(0);
    expect(finished.map((r) => r.outcome)).toEqual(['sent', 'sent']);
  });
});
