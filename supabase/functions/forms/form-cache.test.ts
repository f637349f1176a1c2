// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cachedForms, type FormSource } from './form-cache.ts';
import type { AcceptInput, AcceptResult, FormRecord } from './model.ts';

const form = (id: string, name = 'Contact'): FormRecord => ({
  id,
  name,
  target_email: 'owner@example.com',
  allowed_origin: 'https://site.test',
  redirect_url: null,
});

function source(rows: Map<string, FormRecord>, answer: (input: AcceptInput) => AcceptResult) {
  const reads: string[] = [];
  const src: FormSource = {
    loadForm: async (id) => {
      reads.push(id);
      return rows.get(id) ?? null;
    },
    accept: async (input) => answer(input),
  };
  return { src, reads };
}

const input = (f: FormRecord): AcceptInput => ({
  entryId: 'e1',
  formId: f.id,
  form: f,
  ipHash: 'h',
  name: null,
  email: null,
  message: 'm',
  data: {},
  isSpam: false,
  notification: null,
});

describe('cachedForms', () => {
  it('reads a form once while it is remembered, again when asked for a fresh read or after the TTL', async () => {
    let clock = 0;
    const { src, reads } = source(new Map([['a', form('a')]]), () => ({
      status: 'form_not_found',
    }));
    const forms = cachedForms(src, { ttlMs: 1_000, maxForms: 10, now: () => clock });
    expect(await forms.loadForm('a')).toEqual(form('a'));
    expect(await forms.loadForm('a')).toEqual(form('a'));
    expect(reads).toEqual(['a']);
    await forms.loadForm('a', { fresh: true });
    expect(reads).toEqual(['a', 'a']);
    clock = 1_001;
    await forms.loadForm('a');
    expect(reads).toEqual(['a', 'a', 'a']);
  });

  it('never remembers a missing form', async () => {
    const { src, reads } = source(new Map(), () => ({ status: 'form_not_found' }));
    const forms = cachedForms(src, { ttlMs: 1_000, maxForms: 10 });
    expect(await forms.loadForm('x')).toBeNull();
    expect(await forms.loadForm('x')).toBeNull();
    expect(reads).toEqual(['x', 'x']);
  });

  it('follows what storage answered: the changed form replaces the remembered one, a deleted one is forgotten', async () => {
    const rows = new Map([['a', form('a')]]);
    let answer: AcceptResult = { status: 'form_changed', form: form('a', 'Renamed') };
    const { src, reads } = source(rows, () => answer);
    const forms = cachedForms(src, { ttlMs: 60_000, maxForms: 10 });
    await forms.loadForm('a');
    expect(await forms.accept(input(form('a')))).toEqual(answer);
    expect(await forms.loadForm('a')).toEqual(form('a', 'Renamed'));
    answer = { status: 'form_not_found' };
    await forms.accept(input(form('a', 'Renamed')));
    rows.delete('a');
    expect(await forms.loadForm('a')).toBeNull();
    expect(reads).toEqual(['a', 'a']);
  });

  it('keeps at most maxForms, dropping the least recently used', async () => {
    const rows = new Map(['a', 'b', 'c'].map((id) => [id, form(id)]));
    const { src, reads } = source(rows, () => ({ status: 'form_not_found' }));
    const forms = cachedForms(src, { ttlMs: 60_000, maxForms: 2 });
    await forms.loadForm('a');
    await forms.loadForm('b');
    await forms.accept({ ...input(form('a')) }); // not found: forgets a
    await forms.loadForm('a');
    await forms.loadForm('c'); // b is now the least recently used
    expect(forms.size).toBe(2);
    await forms.loadForm('a');
    await forms.loadForm('b');
    expect(reads).toEqual(['a', 'b', 'a', 'c', 'b']);
  });
});
