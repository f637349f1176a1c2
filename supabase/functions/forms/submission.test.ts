// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../_shared/limits.ts';
import type { RawField } from './request-body.ts';
import { validateSubmission } from './submission.ts';

const ok = (fields: RawField[]) => {
  const r = validateSubmission(fields);
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
  return r.submission;
};
const refused = (fields: RawField[]) => {
  const r = validateSubmission(fields);
  if (r.ok) throw new Error('accepted');
  return r.error;
};

describe('submission validation', () => {
  it('maps columns, data, special fields and ignores userId', () => {
    const s = ok([
      ['userId', 'u-1'],
      ['name', '  Ada  '],
      ['email', 'ada@example.com'],
      ['company', 'ACME'],
      ['message', 'Hi\r\nthere'],
      ['topic', 'a'],
      ['topic', 'b'],
      ['_subject', 'Custom'],
      ['_next', 'https://site.test/ok'],
      ['_gotcha', ''],
    ]);
    expect(s).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hi\nthere',
      subject: 'Custom',
      next: 'https://site.test/ok',
      replyTo: 'ada@example.com',
      isSpam: false,
    });
    expect({ ...s.data }).toEqual({ company: 'ACME', topic: ['a', 'b'] });
    expect(s.ordered.map(([n]) => n)).toEqual([
      'name',
      'email',
      'company',
      'message',
      'topic',
      'topic',
    ]);
  });

  it('prefers _replyto over email and flags a filled honeypot', () => {
    expect(
      ok([
        ['email', 'a@b.co'],
        ['_replyto', 'c@d.co'],
      ]).replyTo,
    ).toBe('c@d.co');
    expect(
      ok([
        ['message', 'x'],
        ['_honey', 'bot'],
      ]).isSpam,
    ).toBe(true);
    expect(
      ok([
        ['message', 'x'],
        ['_gotcha', 'bot'],
      ]).isSpam,
    ).toBe(true);
  });

  it('refuses invalid e-mails, too long values and repeated single fields with 422', () => {
    expect(refused([['email', 'nope']]).fields).toEqual({ email: 'Enter a valid e-mail address.' });
    expect(
      refused([
        ['_replyto', 'x@y'],
        ['message', 'm'],
      ]).status,
    ).toBe(422);
    expect(refused([['name', 'n'.repeat(LIMITS.maxNameLength + 1)]]).fields).toHaveProperty('name');
    expect(refused([['message', 'm'.repeat(LIMITS.maxMessageLength + 1)]]).status).toBe(422);
    expect(refused([['x'.repeat(LIMITS.maxFieldNameLength + 1), 'v']]).status).toBe(422);
    expect(
      refused([
        ['name', 'a'],
        ['name', 'b'],
      ]).fields,
    ).toEqual({ name: 'Send this field only once.' });
  });

  it('accepts values at the limits (trimmed first)', () => {
    const s = ok([
      ['name', ` ${'n'.repeat(LIMITS.maxNameLength)} `],
      ['message', 'm'.repeat(LIMITS.maxMessageLength)],
    ]);
    expect(s.name).toHaveLength(LIMITS.maxNameLength);
  });

  it('refuses too many fields (413), nameless fields (400) and empty submissions (422)', () => {
    const many: RawField[] = Array.from({ length: LIMITS.maxFields + 1 }, (_, i) => [`f${i}`, 'v']);
    expect(refused(many).status).toBe(413);
    expect(refused([['', 'v']]).status).toBe(400);
    expect(refused([]).status).toBe(422);
    expect(
      refused([
        ['name', '  '],
        ['_subject', 'x'],
      ]).status,
    ).toBe(422);
  });

  it('keeps a field called __proto__ as data', () => {
    const s = ok([['__proto__', 'x']]);
    expect(Object.keys(s.data)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(s.data))).toEqual(JSON.parse('{"__proto__":"x"}'));
  });

  it('refuses an over-long field called __proto__ instead of dropping it', () => {
    const error = refused([
      ['name', 'Ada'],
      ['__proto__', 'x'.repeat(LIMITS.maxOtherValueLength + 1)],
    ]);
    expect(error.status).toBe(422);
    expect(Object.keys(error.fields ?? {})).toEqual(['__proto__']);
  });

  it('stores field names without control characters or line separators', () => {
    const s = ok([
      ['multi\nline name', 'forged?'],
      ['tab\there\u2028and\u0085there', 'v'],
    ]);
    expect(Object.keys(s.data)).toEqual(['multi line name', 'tab here and there']);
    expect(s.ordered.map(([n]) => n)).toEqual(['multi line name', 'tab here and there']);
    // A name of nothing but control characters is no name.
    expect(refused([['\r\n', 'x']]).status).toBe(400);
  });
});
