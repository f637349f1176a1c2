import { describe, expect, it } from 'vitest';
import {
  customFields,
  deliveryState,
  fieldNames,
  fieldsPreview,
  fieldSummary,
  isDeliveryInFlight,
  messageColumns,
  replyHref,
  senderEmail,
  senderName,
  toMessage,
  filesSummary,
  toFiles,
} from './message-fields';
import { FORM_CONTACT, makeFile, makeMessage } from './testing/fixtures';

const raw = {
  id: '0b7b2c1e-6a1f-4c56-9d0e-0123456789ab',
  form_id: FORM_CONTACT.id,
  name: 'Ada',
  email: null,
  message: 'Hi',
  data: { company: 'ACME' },
  is_spam: false,
  read_at: null,
  created_at: '2026-11-24T02:46:31.366413+00:00',
  form: { name: 'Contact' },
};
const delivery = {
  status: 'pending',
  attempts: 1,
  last_error: 'timeout',
  next_attempt_at: '2026-11-24T02:50:00+00:00',
  sent_at: null,
};

describe('toFiles', () => {
  it('keeps the files it can show, and none without an embed', () => {
    const cv = makeFile({ name: 'cv.pdf', kind: 'pdf', mime_type: 'application/pdf' });
    expect(toFiles(undefined)).toEqual([]);
    expect(toFiles(null)).toEqual([]);
    expect(toFiles([cv, { ...cv, id: 'nope' }, { ...cv, kind: 'video' }, 'x'])).toEqual([cv]);
    // A bigint written as a string is read as a number.
    expect(toFiles([{ ...cv, size: '2048' }])[0].size).toBe(2048);
    expect(toMessage({ ...makeMessage(), files: [cv] }).files).toEqual([cv]);
  });

  it('names a card’s files in the order sent, bidi controls shown as tokens', () => {
    expect(
      filesSummary([
        makeFile({ position: 2, name: 'b\u202Egnp.exe' }),
        makeFile({ position: 1, name: 'a.pdf' }),
      ]),
    ).toBe('2 files: a.pdf, b[U+202E]gnp.exe');
    expect(filesSummary([makeFile({ name: 'one.txt' })])).toBe('1 file: one.txt');
  });
});

describe('toMessage', () => {
  it('reads a delivery embedded as an object', () => {
    expect(toMessage({ ...raw, delivery }).delivery).toEqual(delivery);
  });

  it('reads a delivery embedded as an array of one, or none', () => {
    expect(toMessage({ ...raw, delivery: [delivery] }).delivery).toEqual(delivery);
    expect(toMessage({ ...raw, delivery: [] }).delivery).toBeNull();
    expect(toMessage({ ...raw, delivery: null }).delivery).toBeNull();
  });

  it('keeps the form name, the extra data and its order', () => {
    const message = toMessage({ ...raw, delivery: [], field_order: ['company'] });
    expect(message.form).toEqual({ name: 'Contact' });
    expect(message.data).toEqual({ company: 'ACME' });
    expect(message.field_order).toEqual(['company']);
    expect(toMessage(raw).field_order).toBeNull();
    expect(toMessage({ ...raw, field_order: [1] }).field_order).toBeNull();
  });

  it('refuses rows without the columns the inbox needs', () => {
    expect(() => toMessage({ ...raw, id: 'x' })).toThrow();
    expect(() => toMessage({ ...raw, created_at: 'today' })).toThrow();
    expect(() => toMessage({ ...raw, name: 42 })).toThrow();
    expect(() => toMessage(null)).toThrow();
  });

  it('reads why a message was not e-mailed, ignoring reasons it does not know', () => {
    expect(toMessage({ ...raw, notification_skipped: 'unverified' }).notification_skipped).toBe(
      'unverified',
    );
    expect(toMessage({ ...raw, notification_skipped: 'hourly_limit' }).notification_skipped).toBe(
      'hourly_limit',
    );
    expect(toMessage({ ...raw, notification_skipped: 'whatever' }).notification_skipped).toBeNull();
    expect(toMessage(raw).notification_skipped).toBeNull();
    // A live insert carries it too.
    expect(messageColumns({ ...raw, notification_skipped: 'off' })).toHaveProperty(
      'notification_skipped',
      'off',
    );
  });
});

describe('messageColumns', () => {
  it('drops the columns the inbox does not keep', () => {
    const picked = messageColumns({ ...raw, user_id: 'u', search_text: 'ada hi' });
    expect(picked).not.toHaveProperty('user_id');
    expect(picked).not.toHaveProperty('search_text');
    expect(picked).toHaveProperty('name', 'Ada');
  });

  it("keeps a live row's field order", () => {
    expect(messageColumns({ ...raw, field_order: ['company'] })).toHaveProperty('field_order', [
      'company',
    ]);
  });
});

describe('sender texts', () => {
  it("shows 'Anonymous' for a missing or blank name", () => {
    expect(senderName({ name: null })).toBe('Anonymous');
    expect(senderName({ name: '   ' })).toBe('Anonymous');
    expect(senderName({ name: 'Ada' })).toBe('Ada');
  });

  it('shows a dash for a missing e-mail', () => {
    expect(senderEmail({ email: null })).toBe('—');
    expect(senderEmail({ email: '' })).toBe('—');
    expect(senderEmail({ email: 'ada@example.com' })).toBe('ada@example.com');
  });
});

describe('replyHref', () => {
  it('builds a mailto link with a subject', () => {
    expect(replyHref({ email: 'ada@example.com', form: { name: 'Contact' } })).toBe(
      'mailto:ada@example.com?subject=Re%3A%20your%20message%20via%20Contact',
    );
  });

  it('refuses a missing or malformed address', () => {
    expect(replyHref({ email: null, form: null })).toBeNull();
    expect(replyHref({ email: 'a@b?bcc=x@y', form: null })).toBeNull();
    expect(replyHref({ email: 'not an address', form: null })).toBeNull();
  });

  it('encodes the address, so it cannot add headers to the link', () => {
    expect(replyHref({ email: 'a?bcc=x@y', form: null })).toBe(
      'mailto:a%3Fbcc%3Dx@y?subject=Re%3A%20your%20message',
    );
  });
});

describe('customFields', () => {
  it('keeps strings, lists as lists, and writes other values as JSON', () => {
    const message = makeMessage({
      data: { company: 'ACME', size: 12, tags: ['a', 'b'], nested: { x: null }, agree: true },
    });
    expect(customFields(message)).toEqual([
      { name: 'company', value: 'ACME' },
      { name: 'size', value: '12' },
      { name: 'tags', value: ['a', 'b'] },
      { name: 'nested', value: '{"x":null}' },
      { name: 'agree', value: 'true' },
    ]);
  });

  it('follows the order sent, skipping names data lacks, then any names it missed', () => {
    const message = makeMessage({
      data: { a: '1', bb: '2', ccc: ['3', '4'], extra: '5' },
      field_order: ['ccc', 'gone', 'a', 'ccc', 'bb'],
    });
    expect(fieldNames(message)).toEqual(['ccc', 'a', 'bb', 'extra']);
    expect(customFields(message).map((f) => f.name)).toEqual(['ccc', 'a', 'bb', 'extra']);
  });

  it("keeps data's own order for a message stored before the order was kept", () => {
    expect(fieldNames(makeMessage({ data: { b: '1', a: '2' }, field_order: null }))).toEqual([
      'b',
      'a',
    ]);
  });
});

describe('fieldsPreview', () => {
  it('shows the first fields in the order sent and counts the rest', () => {
    const message = makeMessage({
      data: { a: '1', b: '2', c: '3', d: '4' },
      field_order: ['d', 'c', 'b', 'a'],
    });
    expect(fieldsPreview(message)).toEqual({
      shown: [
        { name: 'd', value: '4' },
        { name: 'c', value: '3' },
      ],
      more: 2,
    });
    expect(fieldsPreview(makeMessage({ data: { a: '1' } }))).toEqual({
      shown: [{ name: 'a', value: '1' }],
      more: 0,
    });
    expect(fieldsPreview(makeMessage())).toEqual({ shown: [], more: 0 });
  });

  it('puts a list on one line and shows bidi controls as tokens', () => {
    expect(fieldSummary(['Olives', 'Basil'])).toBe('Olives, Basil');
    expect(fieldSummary('a\u202Eb')).toBe('a[U+202E]b');
  });
});

describe('deliveryState', () => {
  it('tells sent, pending, failed and none apart', () => {
    const base = makeMessage();
    expect(deliveryState({ ...base, delivery: { ...toDelivery('sent'), sent_at: 'T' } })).toEqual({
      kind: 'sent',
      at: 'T',
    });
    expect(deliveryState({ ...base, delivery: toDelivery('sending') }).kind).toBe('pending');
    expect(
      deliveryState({ ...base, delivery: { ...toDelivery('failed'), last_error: 'Mailbox full' } }),
    ).toEqual({ kind: 'failed', reason: 'Mailbox full' });
    // Stored before the endpoint recorded a reason, or stored with one.
    expect(deliveryState({ ...base, delivery: null })).toEqual({ kind: 'none', reason: 'unknown' });
    expect(deliveryState({ ...base, delivery: null, notification_skipped: 'off' })).toEqual({
      kind: 'none',
      reason: 'off',
    });
    expect(deliveryState({ ...base, is_spam: true, delivery: null })).toEqual({
      kind: 'none',
      reason: 'spam',
    });
  });

  it('polls only deliveries still in flight', () => {
    expect(isDeliveryInFlight({ delivery: toDelivery('pending') })).toBe(true);
    expect(isDeliveryInFlight({ delivery: toDelivery('sending') })).toBe(true);
    expect(isDeliveryInFlight({ delivery: toDelivery('sent') })).toBe(false);
    expect(isDeliveryInFlight({ delivery: null })).toBe(false);
  });
});

function toDelivery(status: 'pending' | 'sending' | 'sent' | 'failed') {
  return {
    status,
    attempts: 1,
    last_error: null,
    next_attempt_at: '2026-01-01T00:00:00Z',
    sent_at: null,
  };
}
