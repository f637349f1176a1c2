import { describe, expect, it } from 'vitest';
import type { Delivery, NotificationSkipped } from '../types';
import { deliveryText } from './delivery-status';

const delivery = (overrides: Partial<Delivery>): Delivery => ({
  status: 'pending',
  attempts: 0,
  last_error: null,
  next_attempt_at: '2026-11-24T10:00:00Z',
  sent_at: null,
  ...overrides,
});
const DATE = /[A-Z][a-z]{2} \d{1,2}, 2026, \d{1,2}:\d{2} [AP]M/;

describe('deliveryText', () => {
  it('says when the e-mail was sent', () => {
    const text = deliveryText({
      is_spam: false,
      delivery: delivery({ status: 'sent', attempts: 1, sent_at: '2026-11-24T10:00:05Z' }),
    });
    expect(text).toMatch(new RegExp(`^E-mailed ${DATE.source}$`));
  });

  it('tells a queued, a sending and a retried e-mail apart', () => {
    expect(deliveryText({ is_spam: false, delivery: delivery({}) })).toBe('E-mail queued');
    expect(
      deliveryText({ is_spam: false, delivery: delivery({ status: 'sending', attempts: 1 }) }),
    ).toBe('E-mail being sent');
    const retried = delivery({ attempts: 2, last_error: 'Connection refused' });
    expect(deliveryText({ is_spam: false, delivery: retried })).toMatch(
      new RegExp(`^E-mail pending, next try at ${DATE.source}$`),
    );
    expect(deliveryText({ is_spam: false, delivery: retried }, true)).toMatch(
      /\(last error: Connection refused\)$/,
    );
  });

  it('gives the reason of a failed e-mail', () => {
    const failed = delivery({
      status: 'failed',
      attempts: 5,
      last_error: '550 Mailbox unavailable',
    });
    expect(deliveryText({ is_spam: false, delivery: failed })).toBe(
      'E-mail failed: 550 Mailbox unavailable',
    );
  });

  it('says why no e-mail went out', () => {
    expect(deliveryText({ is_spam: false, delivery: null })).toBe('Not e-mailed');
    expect(deliveryText({ is_spam: true, delivery: null })).toBe('Not e-mailed (spam)');
    const skipped = (notification_skipped: NotificationSkipped) =>
      deliveryText({ is_spam: false, delivery: null, notification_skipped });
    expect(skipped('off')).toBe('Not e-mailed: notifications off');
    expect(skipped('unverified')).toBe('Not e-mailed: address not confirmed');
    expect(skipped('hourly_limit')).toBe('Not e-mailed: hourly limit reached');
    expect(skipped('daily_limit')).toBe('Not e-mailed: daily limit reached');
  });
});
