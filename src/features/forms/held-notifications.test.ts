import { describe, expect, it } from 'vitest';
import { toSendHeldOutcome } from './api/held-notifications';
import { heldMessagesText, sendHeldFeedback, sendHeldLabel } from './form-texts';

describe('sending the messages received before a confirmation', () => {
  it('reads the database’s answers, and refuses an unknown one', () => {
    expect(
      toSendHeldOutcome({ status: 'queued', queued: 2, remaining: 1, email: 'a@b.example' }),
    ).toEqual({ status: 'queued', queued: 2, remaining: 1, email: 'a@b.example' });
    expect(toSendHeldOutcome({ status: 'limited', remaining: 4 })).toEqual({
      status: 'limited',
      remaining: 4,
    });
    for (const status of ['none', 'unverified', 'off', 'not_found'])
      expect(toSendHeldOutcome({ status })).toEqual({ status });
    expect(() => toSendHeldOutcome({ status: 'queued', queued: 1 })).toThrow();
    expect(() => toSendHeldOutcome(null)).toThrow();
    expect(() => toSendHeldOutcome({ status: 'sent' })).toThrow();
  });

  it('words the card’s note and button by number', () => {
    expect(heldMessagesText(1, 'a@b.example')).toBe(
      '1 message arrived before a@b.example was confirmed and was not e-mailed.',
    );
    expect(heldMessagesText(4, 'a@b.example')).toBe(
      '4 messages arrived before a@b.example was confirmed and were not e-mailed.',
    );
    expect(sendHeldLabel(1)).toBe('Send the message received meanwhile');
    expect(sendHeldLabel(4)).toBe('Send the 4 messages received meanwhile');
  });

  it('says what went, what waits for the caps, and why nothing went', () => {
    expect(
      sendHeldFeedback({ status: 'queued', queued: 1, remaining: 0, email: 'a@b.example' }),
    ).toEqual({ type: 'success', title: '1 message is on its way to a@b.example' });
    expect(
      sendHeldFeedback({ status: 'queued', queued: 100, remaining: 20, email: 'a@b.example' }),
    ).toMatchObject({
      title: '100 messages are on their way to a@b.example',
      description: expect.stringMatching(
        /^20 more messages wait: .*100 notification e-mails an hour and 1,000 a day/,
      ),
    });
    expect(sendHeldFeedback({ status: 'limited', remaining: 3 }).type).toBe('error');
    expect(sendHeldFeedback({ status: 'unverified' }).title).toBe('The address is not confirmed');
    expect(sendHeldFeedback({ status: 'off' }).description).toMatch(/Turn them on in Edit/);
  });
});
