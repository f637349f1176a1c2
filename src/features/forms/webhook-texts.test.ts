import { describe, expect, it } from 'vitest';
import { attemptOutcome, deliveryStatusLabel, describeWebhookError } from './webhook-texts';

describe('webhook texts', () => {
  it('names a delivery’s state', () => {
    expect(deliveryStatusLabel('pending', 0)).toBe('Queued');
    expect(deliveryStatusLabel('pending', 2)).toBe('Retrying');
    expect(deliveryStatusLabel('sent', 6)).toBe('Delivered');
    expect(deliveryStatusLabel('failed', 14)).toBe('Failed');
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
});
