// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  CONFIRM_ADDRESS_PATH,
  confirmationLinkPrefix,
  createDeliverStep,
} from './confirmations.ts';
import type { DeliveryReport } from './report.ts';

const REPORT: DeliveryReport = { claimed: 1, sent: 1, retrying: 0, failed: 0 };

function step(siteUrl: string | null, compose: (prefix: string) => Promise<number>) {
  const calls: string[] = [];
  const logs: string[] = [];
  const run = createDeliverStep({
    siteUrl,
    compose: (prefix) => (calls.push(`compose ${prefix}`), compose(prefix)),
    deliver: async () => (calls.push('deliver'), REPORT),
    log: (m) => logs.push(m),
  });
  return { run, calls, logs };
}

describe('confirmation links', () => {
  it('open the site page (tests/endpoint checks the site routes the same path)', () => {
    expect(CONFIRM_ADDRESS_PATH).toBe('/confirm-address');
    expect(confirmationLinkPrefix('https://forms.example.com/')).toBe(
      'https://forms.example.com/confirm-address?token=',
    );
  });
});

describe('the _deliver step', () => {
  it('composes confirmation mails first, then delivers', async () => {
    const { run, calls } = step('https://site.test', async () => 2);
    expect(await run()).toEqual(REPORT);
    expect(calls).toEqual(['compose https://site.test/confirm-address?token=', 'deliver']);
  });

  it('still delivers when composing fails, and says why', async () => {
    const { run, calls, logs } = step('https://site.test', () => Promise.reject(new Error('down')));
    expect(await run()).toEqual(REPORT);
    expect(calls.at(-1)).toBe('deliver');
    expect(logs).toEqual(['composing confirmation e-mails failed: down']);
  });

  it('makes no link without SITE_URL, and says so once', async () => {
    const { run, calls, logs } = step(null, async () => 1);
    await run();
    await run();
    expect(calls).toEqual(['deliver', 'deliver']);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/SITE_URL/);
  });
});
