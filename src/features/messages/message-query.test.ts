import { describe, expect, it } from 'vitest';
import {
  compareNewestFirst,
  cursorOf,
  filterFromParams,
  keysetFilter,
  MESSAGE_COLUMNS,
  matchesFilter,
  messageColumnsFor,
  searchPattern,
  searchTextOf,
} from './message-query';
import { FORM_BETA, FORM_CONTACT } from './testing/fixtures';

const ID = '0b7b2c1e-6a1f-4c56-9d0e-0123456789ab';

describe('filterFromParams', () => {
  it('reads form, view and search', () => {
    const params = new URLSearchParams({
      tab: 'messages',
      form: FORM_BETA.id,
      view: 'spam',
      q: ' Ada ',
    });
    expect(filterFromParams(params)).toEqual({
      formId: FORM_BETA.id,
      view: 'spam',
      q: 'Ada',
      files: false,
    });
  });

  it('falls back to every form, the inbox and no search', () => {
    expect(filterFromParams(new URLSearchParams('form=nope&view=trash&files=yes'))).toEqual({
      formId: null,
      view: 'inbox',
      q: '',
      files: false,
    });
  });

  it('reads "has files"', () => {
    expect(filterFromParams(new URLSearchParams('files=1')).files).toBe(true);
  });

  it('caps the search term', () => {
    const q = 'x'.repeat(500);
    expect(filterFromParams(new URLSearchParams({ q })).q).toHaveLength(200);
  });
});

describe('keysetFilter', () => {
  it('selects rows strictly before the cursor in (created_at desc, id desc) order', () => {
    const cursor = cursorOf({ created_at: '2026-11-24T02:46:31.366413+00:00', id: ID });
    expect(keysetFilter(cursor)).toBe(
      `created_at.lt.2026-11-24T02:46:31.366413+00:00,and(created_at.eq.2026-11-24T02:46:31.366413+00:00,id.lt.${ID})`,
    );
  });

  it('refuses values that could change the filter tree', () => {
    expect(() =>
      keysetFilter({ created_at: '2026-01-01T00:00:00Z),or(id.eq.x', id: ID }),
    ).toThrow();
    expect(() => keysetFilter({ created_at: '2026-01-01T00:00:00Z', id: 'a,b' })).toThrow();
  });
});

describe('searchPattern', () => {
  it('lower-cases and wraps the term', () => {
    expect(searchPattern('  Ada ')).toBe('%ada%');
  });

  it("escapes LIKE's own characters so they match themselves", () => {
    expect(searchPattern('100%_off\\now')).toBe('%100\\%\\_off\\\\now%');
  });

  it('keeps characters that are only special inside or= trees', () => {
    expect(searchPattern('a,b (c)')).toBe('%a,b (c)%');
  });
});

describe('messageColumnsFor', () => {
  it('reads every message with its files, and only those with files as an inner join', () => {
    expect(MESSAGE_COLUMNS).toContain(
      'files:entry_files(id, position, name, kind, mime_type, size, object_key)',
    );
    expect(messageColumnsFor({ files: false })).toBe(MESSAGE_COLUMNS);
    expect(messageColumnsFor({ files: true })).toBe(
      MESSAGE_COLUMNS.replace('files:entry_files(', 'files:entry_files!inner('),
    );
  });
});

describe('matchesFilter', () => {
  const row = {
    form_id: FORM_CONTACT.id,
    is_spam: false,
    name: 'Ada',
    email: 'ada@example.com',
    message: 'Quote please',
  };

  it('puts non-spam rows in the inbox only', () => {
    expect(matchesFilter(row, { formId: null, view: 'inbox', q: '', files: false })).toBe(true);
    expect(matchesFilter(row, { formId: null, view: 'spam', q: '', files: false })).toBe(false);
    expect(
      matchesFilter({ ...row, is_spam: true }, { formId: null, view: 'spam', q: '', files: false }),
    ).toBe(true);
    expect(
      matchesFilter(
        { ...row, is_spam: true },
        { formId: null, view: 'inbox', q: '', files: false },
      ),
    ).toBe(false);
  });

  it('honours the form filter', () => {
    expect(
      matchesFilter(row, { formId: FORM_CONTACT.id, view: 'inbox', q: '', files: false }),
    ).toBe(true);
    expect(matchesFilter(row, { formId: FORM_BETA.id, view: 'inbox', q: '', files: false })).toBe(
      false,
    );
  });

  it('keeps only rows with files in a "has files" list (a payload without them waits)', () => {
    const withFiles = { formId: null, view: 'inbox', q: '', files: true } as const;
    expect(matchesFilter(row, withFiles)).toBe(false);
    expect(matchesFilter({ ...row, files: [] }, withFiles)).toBe(false);
    expect(matchesFilter({ ...row, files: [{ id: ID }] }, withFiles)).toBe(true);
    expect(matchesFilter({ ...row, files: [] }, { ...withFiles, files: false })).toBe(true);
  });

  it('searches name, e-mail and message case-insensitively', () => {
    expect(matchesFilter(row, { formId: null, view: 'inbox', q: 'QUOTE', files: false })).toBe(
      true,
    );
    expect(
      matchesFilter(row, { formId: null, view: 'inbox', q: 'example.com', files: false }),
    ).toBe(true);
    expect(matchesFilter(row, { formId: null, view: 'inbox', q: 'invoice', files: false })).toBe(
      false,
    );
  });

  it("prefers the payload's search_text", () => {
    expect(
      matchesFilter(
        { ...row, search_text: 'only this' },
        { formId: null, view: 'inbox', q: 'only', files: false },
      ),
    ).toBe(true);
    expect(
      matchesFilter(
        { ...row, search_text: 'only this' },
        { formId: null, view: 'inbox', q: 'ada', files: false },
      ),
    ).toBe(false);
  });
});

describe('searchTextOf', () => {
  it('joins the fields like the database trigger', () => {
    expect(searchTextOf({ name: 'Ada', email: null, message: 'Hi' })).toBe('ada  hi ');
  });

  it("includes the custom fields' values, a list's items each, bounded like the trigger", () => {
    expect(
      searchTextOf({
        name: 'Ada',
        message: 'Hi',
        data: { company: 'ACME Corp', topping: ['Olives', 'Basil'] },
      }),
    ).toBe('ada  hi acme corp olives basil');
    const long = searchTextOf({ data: { a: 'x'.repeat(900), b: 'y'.repeat(900) } });
    expect(long).toBe(`   ${'x'.repeat(500)} ${'y'.repeat(500)}`);
    const many = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`f${i}`, 'z'.repeat(500)]),
    );
    expect(searchTextOf({ data: many }).length).toBe(3 + 4000);
  });

  it('finds a live message by a custom value', () => {
    expect(
      matchesFilter(
        { is_spam: false, form_id: FORM_CONTACT.id, data: { company: 'Initech' } },
        { formId: null, view: 'inbox', q: 'initech', files: false },
      ),
    ).toBe(true);
  });
});

describe('compareNewestFirst', () => {
  const at = (created_at: string, id = ID) => ({ created_at, id });

  it('orders newer rows first', () => {
    const rows = [
      at('2026-01-01T00:00:00+00:00'),
      at('2026-01-03T00:00:00+00:00'),
      at('2026-01-02T00:00:00+00:00'),
    ];
    expect(rows.sort(compareNewestFirst).map((r) => r.created_at.slice(0, 10))).toEqual([
      '2026-01-03',
      '2026-01-02',
      '2026-01-01',
    ]);
  });

  it('tells microseconds apart, with any number of fraction digits', () => {
    expect(
      compareNewestFirst(
        at('2026-01-01T00:00:00.000002+00:00'),
        at('2026-01-01T00:00:00.000001+00:00'),
      ),
    ).toBeLessThan(0);
    expect(
      compareNewestFirst(at('2026-01-01T00:00:00.5+00:00'), at('2026-01-01T00:00:00.45+00:00')),
    ).toBeLessThan(0);
    expect(
      compareNewestFirst(at('2026-01-01T00:00:00+00:00'), at('2026-01-01T00:00:00.1+00:00')),
    ).toBeGreaterThan(0);
  });

  it('compares offsets as instants', () => {
    expect(
      compareNewestFirst(at('2026-01-01T10:00:00+02:00'), at('2026-01-01T09:00:00+00:00')),
    ).toBeGreaterThan(0);
  });

  it('breaks ties by id, descending', () => {
    const low = at('2026-01-01T00:00:00+00:00', '00000000-0000-4000-8000-000000000001');
    const high = at('2026-01-01T00:00:00+00:00', 'ffffffff-0000-4000-8000-000000000001');
    expect(compareNewestFirst(high, low)).toBeLessThan(0);
    expect(compareNewestFirst(low, low)).toBe(0);
  });
});
