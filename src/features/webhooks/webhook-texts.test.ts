import { describe, expect, it } from 'vitest';
import {
  attemptOutcome,
  deliveryStatusLabel,
  describeWebhookError,
  failingStreak,
  isUrlRefusal,
  turnedOffNotice,
} from './webhook-texts';

const UTC = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

describe('webhook texts', () => {
  it('names a delivery’s state', () => {
    expect(deliveryStatusLabel('pending', 0)).toBe('Queued');
    expect(deliveryStatusLabel('pending', 2)).toBe('Retrying');
    expect(deliveryStatusLabel('sent', 6)).toBe('Delivered');
    expect(deliveryStatusLabel('failed', 14)).toBe('Failed');
  });

  it('never says a test event is retrying: it is tried once', () => {
    expect(deliveryStatusLabel('pending', 1, 'test')).toBe('Queued');
    expect(deliveryStatusLabel('pending', 1, 'entry.created')).toBe('Retrying');
  });

  it('says when and why tinyback turned a webhook off, and nothing when the owner did', () => {
    expect(
      turnedOffNotice({ disabled_reason: 'failing', disabled_at: '2026-11-24T14:47:00Z' }, UTC),
    ).toBe('Turned off after 50 failed attempts in a row on Nov 24, 2026, 2:47 PM.');
    expect(turnedOffNotice({ disabled_reason: 'failing', disabled_at: null }, UTC)).toBe(
      'Turned off after 50 failed attempts in a row.',
    );
    expect(turnedOffNotice({ disabled_reason: null, disabled_at: null })).toBeNull();
  });

  it('counts failed attempts in a row while a webhook is on', () => {
    expect(failingStreak({ enabled: true, consecutive_failures: 3 })).toBe(
      'The last 3 attempts failed. After 50 failed attempts in a row the webhook is turned off.',
    );
    expect(failingStreak({ enabled: true, consecutive_failures: 1 })).toMatch(
      /^The last attempt failed\./,
    );
    expect(failingStreak({ enabled: true, consecutive_failures: 0 })).toBeNull();
    expect(failingStreak({ enabled: false, consecutive_failures: 50 })).toBeNull();
  });

  it('says what an attempt got', () => {
    expect(attemptOutcome({ status_code: 502, error: 'HTTP 502' })).toBe('HTTP 502');
    expect(attemptOutcome({ status_code: null, error: 'Refused: private address' })).toBe(
      'Refused: private address',
    );
  });

  it('passes the database’s own refusal through, and words everything else', () => {
    const refused = {
      code: '23514',
      message: 'Webhook URLs must start with https://.',
      hint: 'webhook_url_refused',
    };
    expect(describeWebhookError(refused, 'add the webhook')).toBe(refused.message);
    // An unknown hint never leaks a raw database message.
    expect(
      describeWebhookError({ code: '23514', message: 'internal detail', hint: 'other' }, 'add it'),
    ).toBe('Could not add it. Check your connection and try again.');
    expect(describeWebhookError({ code: '42501' }, 'add it')).toBe(
      'You are not allowed to add it.',
    );
    expect(describeWebhookError(new TypeError('fetch failed'), 'add it')).toMatch(/connection/);
  });

  it('shows the database’s sentences for the limits', () => {
    for (const refusal of [
      { code: '23514', message: 'A form can have at most 10 webhooks.', hint: 'webhook_limit' },
      { code: '23514', message: 'An account can have at most 25 webhooks.', hint: 'webhook_limit' },
      {
        code: 'PT429',
        message: 'Too many test events and resends; wait a minute.',
        hint: 'webhook_rate_limited',
      },
    ]) {
      expect(describeWebhookError(refusal, 'do it')).toBe(refusal.message);
      expect(isUrlRefusal(refusal)).toBe(false);
    }
    expect(isUrlRefusal({ code: '23514', hint: 'webhook_url_refused' })).toBe(true);
  });

  it('says a webhook is gone for a 404 (PT404) as for the older P0002', () => {
    for (const code of ['PT404', 'P0002', 'PGRST116'])
      expect(
        describeWebhookError({ code, message: 'This delivery no longer exists.' }, 'send it'),
      ).toBe('This webhook no longer exists. Close the dialog and open it again.');
  });
});
