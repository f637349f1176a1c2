import { describe, expect, it } from 'vitest';
import type { RowChange } from '../../lib/merge-change';
import {
  listRows,
  mergeEntryChange,
  mergeEntryDetail,
  shareRows,
  deliveryPatches,
  withPatches,
  type MessagePages,
} from './merge-messages';
import { FORM_BETA, FORM_CONTACT, makeMessage } from './testing/fixtures';
import type { Message, MessageFilter } from './types';

const INBOX: MessageFilter = { formId: null, view: 'inbox', q: '', files: false };
const SPAM: MessageFilter = { formId: null, view: 'spam', q: '', files: false };

function pages(...groups: Message[][]): MessagePages {
  return {
    pages: groups.map((rows, i) => ({
      rows,
      next:
        i < groups.length - 1 ? { created_at: rows.at(-1)!.created_at, id: rows.at(-1)!.id } : null,
    })),
    pageParams: groups.map((_, i) => (i === 0 ? null : { created_at: 'x', id: 'y' })),
  };
}

/** What Realtime sends for a row: every column, including the owner and search_text. */
function payload(message: Message, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { form: _form, delivery: _delivery, arrivedLive: _live, ...columns } = message;
  return {
    ...columns,
    user_id: '00000000-0000-4000-8000-000000000001',
    search_text:
      `${message.name ?? ''} ${message.email ?? ''} ${message.message ?? ''}`.toLowerCase(),
    ...extra,
  };
}

const insert = (message: Message): RowChange => ({
  table: 'entries',
  eventType: 'INSERT',
  new: payload(message),
  old: {},
});
const update = (message: Message): RowChange => ({
  table: 'entries',
  eventType: 'UPDATE',
  new: payload(message),
  old: { id: message.id },
});
const remove = (id: string): RowChange => ({
  table: 'entries',
  eventType: 'DELETE',
  new: {},
  old: { id },
});

const ids = (data: MessagePages | undefined) => listRows(data).map((row) => row.id);

describe('mergeEntryChange: INSERT', () => {
  const older = makeMessage({ created_at: '2026-11-20T10:00:00+00:00' });
  const oldest = makeMessage({ created_at: '2026-11-19T10:00:00+00:00' });

  it('puts a new message first, with its form and delivery', () => {
    const fresh = makeMessage({
      created_at: '2026-11-21T10:00:00+00:00',
      delivery: {
        status: 'pending',
        attempts: 0,
        last_error: null,
        next_attempt_at: 'T',
        sent_at: null,
      },
    });
    const { data, stale } = mergeEntryChange(pages([older], [oldest]), insert(fresh), INBOX, {
      ...fresh,
      arrivedLive: true,
    });
    expect(stale).toBe(false);
    expect(ids(data)).toEqual([fresh.id, older.id, oldest.id]);
    expect(data!.pages[0].rows[0]).toMatchObject({ form: { name: 'Contact' }, arrivedLive: true });
    expect(data!.pages[0].rows[0].delivery?.status).toBe('pending');
    // The row keeps only the inbox's columns.
    expect(data!.pages[0].rows[0]).not.toHaveProperty('search_text');
    // Pages keep their cursors.
    expect(data!.pages[0].next).toEqual({ created_at: older.created_at, id: older.id });
  });

  it('leaves a list whose view, form or search excludes the message untouched', () => {
    const list = pages([older]);
    const spam = makeMessage({ is_spam: true, created_at: '2026-11-21T10:00:00+00:00' });
    expect(mergeEntryChange(list, insert(spam), INBOX, spam).data).toBe(list);
    const beta = makeMessage({ form_id: FORM_BETA.id, created_at: '2026-11-21T10:00:00+00:00' });
    expect(
      mergeEntryChange(list, insert(beta), { ...INBOX, formId: FORM_CONTACT.id }, beta).data,
    ).toBe(list);
    const other = makeMessage({
      message: 'Invoice attached',
      created_at: '2026-11-21T10:00:00+00:00',
    });
    expect(mergeEntryChange(list, insert(other), { ...INBOX, q: 'quote' }, other).data).toBe(list);
  });

  it('adds a message to a search it matches, judged by the payload', () => {
    const list = pages([older]);
    const match = makeMessage({ message: 'Need a QUOTE', created_at: '2026-11-21T10:00:00+00:00' });
    expect(
      ids(mergeEntryChange(list, insert(match), { ...INBOX, q: 'quote' }, match).data),
    ).toEqual([match.id, older.id]);
  });

  it('adds a spam message to the spam view', () => {
    const spam = makeMessage({ is_spam: true, created_at: '2026-11-21T10:00:00+00:00' });
    expect(ids(mergeEntryChange(pages([]), insert(spam), SPAM, spam).data)).toEqual([spam.id]);
  });

  it('does not duplicate a message the list already has', () => {
    const list = pages([older]);
    expect(ids(mergeEntryChange(list, insert(older), INBOX, older).data)).toEqual([older.id]);
  });

  it('leaves nothing-yet-cached as it is', () => {
    expect(mergeEntryChange(undefined, insert(older), INBOX, older).data).toBeUndefined();
  });
});

describe('mergeEntryChange: UPDATE', () => {
  it('updates flags in place and keeps the embeds', () => {
    const row = makeMessage({
      delivery: {
        status: 'sent',
        attempts: 1,
        last_error: null,
        next_attempt_at: 'T',
        sent_at: 'S',
      },
    });
    const other = makeMessage({ created_at: '2026-11-19T00:00:00+00:00' });
    const list = pages([row], [other]);
    const { data } = mergeEntryChange(
      list,
      update({ ...row, read_at: '2026-11-22T00:00:00Z' }),
      INBOX,
    );
    expect(data!.pages[0].rows[0]).toMatchObject({
      read_at: '2026-11-22T00:00:00Z',
      form: { name: 'Contact' },
      delivery: { status: 'sent' },
    });
    expect(data!.pages[1]).toBe(list.pages[1]);
  });

  it('keeps a searched message when the payload leaves out its unchanged message', () => {
    const row = makeMessage({ name: 'Ada', message: 'Need a quote' });
    const search = { ...INBOX, q: 'quote' };
    const {
      search_text: _text,
      message: _message,
      ...partial
    } = payload({
      ...row,
      read_at: '2026-11-22T00:00:00Z',
    });
    const change: RowChange = {
      table: 'entries',
      eventType: 'UPDATE',
      new: partial,
      old: { id: row.id },
    };
    const { data } = mergeEntryChange(pages([row]), change, search);
    expect(data!.pages[0].rows[0]).toMatchObject({
      message: 'Need a quote',
      read_at: '2026-11-22T00:00:00Z',
    });
  });

  it('drops a message marked as spam from the inbox', () => {
    const row = makeMessage();
    const { data, stale } = mergeEntryChange(
      pages([row]),
      update({ ...row, is_spam: true }),
      INBOX,
    );
    expect(ids(data)).toEqual([]);
    expect(stale).toBe(false);
  });

  it('asks for a refetch when a message it never loaded now belongs (restored from spam)', () => {
    const row = makeMessage();
    const list = pages([makeMessage()]);
    const outcome = mergeEntryChange(list, update(row), INBOX);
    expect(outcome).toEqual({ data: list, stale: true });
  });

  it('waits for "Load more" when such a message is older than the loaded pages', () => {
    const loaded = makeMessage({ created_at: '2026-11-20T00:00:00+00:00' });
    const more = makeMessage({ created_at: '2026-11-19T00:00:00+00:00' });
    const list = pages([loaded], [more]);
    list.pages[1] = { ...list.pages[1], next: { created_at: more.created_at, id: more.id } };
    const old = makeMessage({ created_at: '2026-01-01T00:00:00+00:00' });
    expect(mergeEntryChange(list, update(old), INBOX)).toEqual({ data: list, stale: false });
    const recent = makeMessage({ created_at: '2026-11-19T12:00:00+00:00' });
    expect(mergeEntryChange(list, update(recent), INBOX).stale).toBe(true);
  });

  it('ignores an update that concerns neither the list nor its rows', () => {
    const list = pages([makeMessage()]);
    const spam = makeMessage({ is_spam: true });
    expect(mergeEntryChange(list, update(spam), INBOX)).toEqual({ data: list, stale: false });
  });
});

describe('mergeEntryChange: DELETE', () => {
  it('removes the message from whichever page holds it, by id alone', () => {
    const a = makeMessage();
    const b = makeMessage({ created_at: '2026-11-19T00:00:00+00:00' });
    const list = pages([a], [b]);
    const { data } = mergeEntryChange(list, remove(b.id), INBOX);
    expect(ids(data)).toEqual([a.id]);
    expect(data!.pages[0]).toBe(list.pages[0]);
    expect(data!.pages[1].next).toBeNull();
  });

  it('leaves the list as it is when it lacks the message', () => {
    const list = pages([makeMessage()]);
    expect(mergeEntryChange(list, remove(makeMessage().id), SPAM).data).toBe(list);
  });
});

describe('mergeEntryDetail', () => {
  const row = makeMessage();

  it('merges an update and turns a delete into null', () => {
    expect(mergeEntryDetail(row, update({ ...row, is_spam: true }))).toMatchObject({
      is_spam: true,
      form: { name: 'Contact' },
    });
    expect(mergeEntryDetail(row, remove(row.id))).toBeNull();
  });

  it('ignores changes of other messages', () => {
    expect(mergeEntryDetail(row, remove(makeMessage().id))).toBe(row);
    expect(mergeEntryDetail(undefined, remove(row.id))).toBeUndefined();
  });
});

describe('withPatches', () => {
  it('replaces the deliveries of named rows only', () => {
    const a = makeMessage();
    const b = makeMessage();
    const list = pages([a, b]);
    const sent = {
      status: 'sent' as const,
      attempts: 1,
      last_error: null,
      next_attempt_at: 'T',
      sent_at: 'S',
    };
    const data = withPatches(list, deliveryPatches(new Map([[a.id, sent]])));
    expect(data!.pages[0].rows[0].delivery).toEqual(sent);
    expect(data!.pages[0].rows[1]).toBe(b);
    expect(withPatches(list, new Map())).toBe(list);
  });
});

describe('shareRows', () => {
  it('keeps every unchanged message the same object when one arrives at the top', () => {
    const [a, b, c] = [makeMessage(), makeMessage(), makeMessage()];
    const before = pages([a, b], [c]);
    // As a refetch answers: equal rows, but new objects.
    const fresh = makeMessage();
    const after = pages([fresh, { ...a }, { ...b }], [{ ...c }]);
    const shared = shareRows(before, after) as MessagePages;
    expect(listRows(shared)).toEqual([fresh, a, b, c]);
    expect(shared.pages[0].rows[1]).toBe(a);
    expect(shared.pages[0].rows[2]).toBe(b);
    expect(shared.pages[1]).toBe(before.pages[1]);
  });

  it('gives a changed message a new object and keeps equal data as it was', () => {
    const [a, b] = [makeMessage(), makeMessage()];
    const before = pages([a, b]);
    const read = { ...b, read_at: '2026-11-22T00:00:00Z' };
    const shared = shareRows(before, pages([{ ...a }, read])) as MessagePages;
    expect(shared.pages[0].rows[0]).toBe(a);
    expect(shared.pages[0].rows[1]).toEqual(read);
    expect(shareRows(before, pages([{ ...a }, { ...b }]))).toBe(before);
  });
});
