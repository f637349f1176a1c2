import { describe, expect, it } from 'vitest';
import { describeApiKeyError, formatKeyDate, keyDates } from './api-key-texts';

const UTC = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

describe('keyDates', () => {
  it('says when a key was created and last used', () => {
    expect(
      keyDates({ created_at: '2026-11-24T14:47:00Z', last_used_at: '2026-11-25T09:05:00Z' }, UTC),
    ).toBe('Created Nov 24, 2026, 2:47 PM · last used Nov 25, 2026, 9:05 AM');
  });

  it('says so when a key was never used', () => {
    expect(keyDates({ created_at: '2026-11-24T14:47:00Z', last_used_at: null }, UTC)).toBe(
      'Created Nov 24, 2026, 2:47 PM · never used',
    );
  });

  it('writes nothing for a value that is not a date', () => {
    expect(formatKeyDate('soon', UTC)).toBe('');
  });
});

describe('describeApiKeyError', () => {
  it('shows the database’s sentence when an account has too many keys or made too many today', () => {
    const active = {
      code: 'PT409',
      hint: 'api_key_limit',
      message: 'You have 20 active API keys, the most an account may have. Revoke one first.',
    };
    const today = {
      code: 'PT429',
      hint: 'api_key_rate',
      message: 'You have created 20 API keys today, the most an account may. Try again tomorrow.',
    };
    expect(describeApiKeyError(active)).toBe(active.message);
    expect(describeApiKeyError(today)).toBe(today.message);
    // The same sentences, should a refusal come without its words.
    expect(describeApiKeyError({ ...active, message: undefined })).toBe(active.message);
    expect(describeApiKeyError({ ...today, message: '' })).toBe(today.message);
  });

  it('passes create_api_key()’s own checks, and never a raw message otherwise', () => {
    expect(
      describeApiKeyError({
        code: '22023',
        message: 'Give the key a name of 1 to 100 characters.',
      }),
    ).toBe('Give the key a name of 1 to 100 characters.');
    expect(describeApiKeyError({ code: 'XX000', message: 'internal detail' })).toBe(
      'The API key could not be created. Please try again.',
    );
    expect(describeApiKeyError(new TypeError('Failed to fetch'))).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
  });
});
