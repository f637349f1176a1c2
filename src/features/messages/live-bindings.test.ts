import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import {
  failRequests,
  holdRequests,
  pgError,
  supabaseDb,
} from '../../components/testing/supabase-server';
import { formsListKey } from '../../config/query-keys';
import type { RowChange } from '../../lib/merge-change';
import { messagesKeys } from './api/query-keys';
import { applyMessagesChange, messagesLiveBindings } from './live-bindings';
import { listRows, type MessagePages } from './merge-messages';
import { searchTextOf } from './message-query';
import { FORM_BETA, FORM_CONTACT, makeFile, makeMessage, seedInbox } from './testing/fixtures';
import type { Delivery, Message, MessageFilter } from './types';

const INBOX: MessageFilter = { formId: null, view: 'inbox', q: '', files: false };
const CONTACT: MessageFilter = { formId: FORM_CONTACT.id, view: 'inbox', q: '', files: false };
const BETA: MessageFilter = { formId: FORM_BETA.id, view: 'inbox', q: '', files: false };
const SPAM: MessageFilter = { formId: null, view: 'spam', q: '', files: false };
const SEARCH_GRACE: MessageFilter = { formId: null, view: 'inbox', q: 'grace', files: false };
const WITH_FILES: MessageFilter = { formId: null, view: 'inbox', q: '', files: true };

const SENT: Delivery = {
  status: 'sent',
  attempts: 1,
  last_error: null,
  next_attempt_at: '2026-11-21T00:00:00+00:00',
  sent_at: '2026-11-21T00:00:01+00:00',
};

function cached(client: QueryClient, filter: MessageFilter, rows: Message[]) {
  client.setQueryData<MessagePages>(messagesKeys.list(filter), {
    pages: [{ rows, next: null }],
    pageParams: [null],
  });
}
const rowsIn = (client: QueryClient, filter: MessageFilter) =>
  listRows(client.getQueryData<MessagePages>(messagesKeys.list(filter)));
const idsIn = (client: QueryClient, filter: MessageFilter) =>
  rowsIn(client, filter).map((row) => row.id);
const rowIn = (client: QueryClient, filter: MessageFilter, id: string) =>
  rowsIn(client, filter).find((row) => row.id === id);

/** The `entries` row as a Realtime INSERT carries it: every column, no embeds (nor files). */
function payload(message: Message): Record<string, unknown> {
  const { form: _f, delivery: _d, arrivedLive: _l, files: _files, ...columns } = message;
  return { ...columns, user_id: 'owner', search_text: searchTextOf(message) };
}
const inserted = (message: Message, row = payload(message)): RowChange => ({
  table: 'entries',
  eventType: 'INSERT',
  new: row,
  old: {},
});
const readsBack = () => supabaseDb.requested('GET', 'entries').length;

let client: QueryClient;
const existing = makeMessage({ created_at: '2026-11-20T00:00:00+00:00' });

beforeEach(() => {
  client = new QueryClient();
  cached(client, INBOX, [existing]);
  cached(client, CONTACT, [existing]);
  cached(client, BETA, []);
  cached(client, SPAM, []);
  client.setQueryData(formsListKey(), [
    { ...FORM_CONTACT, created_at: '2026-11-01T00:00:00+00:00' },
    { ...FORM_BETA, created_at: '2026-11-02T00:00:00+00:00' },
  ]);
});

// A read-back a test started is sent within its own test, not the next one's.
afterEach(() => new Promise((resolve) => setTimeout(resolve, 80)));

describe('messagesLiveBindings', () => {
  it('binds the entries table and refetches every inbox query after a reconnect', () => {
    expect(messagesLiveBindings.map((binding) => binding.table)).toEqual(['entries']);
    expect(messagesLiveBindings[0].queryKey).toEqual(messagesKeys.all);
  });
});

describe('applyMessagesChange: inserts', () => {
  it('shows an inserted message from its payload before any read-back answers', () => {
    holdRequests('get', 'entries');
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00', form: null });
    void applyMessagesChange(client, inserted(fresh));

    // Synchronously: no request has been answered (nor even sent) yet.
    expect(readsBack()).toBe(0);
    expect(idsIn(client, INBOX)).toEqual([fresh.id, existing.id]);
    expect(idsIn(client, CONTACT)).toEqual([fresh.id, existing.id]);
    expect(idsIn(client, BETA)).toEqual([]);
    expect(idsIn(client, SPAM)).toEqual([]);
    expect(rowIn(client, INBOX, fresh.id)).toMatchObject({
      arrivedLive: true,
      name: fresh.name,
      message: fresh.message,
      // The form's name from the cached forms list; the e-mail as the endpoint queued it.
      form: { name: FORM_CONTACT.name },
      delivery: { status: 'pending', attempts: 0, sent_at: null },
    });
  });

  it('matches each cached search and view on the payload', () => {
    holdRequests('get', 'entries');
    cached(client, SEARCH_GRACE, []);
    const grace = makeMessage({ name: 'Grace Hopper', created_at: '2026-11-21T00:00:00+00:00' });
    const spam = makeMessage({ is_spam: true, created_at: '2026-11-22T00:00:00+00:00' });
    void applyMessagesChange(client, inserted(grace));
    void applyMessagesChange(client, inserted(spam));
    expect(idsIn(client, SEARCH_GRACE)).toEqual([grace.id]);
    expect(idsIn(client, INBOX)).toEqual([grace.id, existing.id]);
    expect(idsIn(client, SPAM)).toEqual([spam.id]);
    expect(rowIn(client, SPAM, spam.id)?.delivery).toBeNull();
  });

  it('takes the form name from a cached message of the form when the forms list is not cached', () => {
    holdRequests('get', 'entries');
    client.removeQueries({ queryKey: formsListKey() });
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    void applyMessagesChange(client, inserted(fresh));
    expect(rowIn(client, INBOX, fresh.id)?.form).toEqual({ name: FORM_CONTACT.name });
  });

  it('fills in the delivery and a form it did not know from the read-back', async () => {
    client.removeQueries({ queryKey: formsListKey() });
    const fresh = makeMessage({
      form_id: FORM_BETA.id,
      form: { name: FORM_BETA.name },
      delivery: SENT,
      created_at: '2026-11-21T00:00:00+00:00',
    });
    seedInbox([existing, fresh]);
    const settled = applyMessagesChange(client, inserted(fresh));
    expect(rowIn(client, INBOX, fresh.id)?.form).toBeNull();

    await settled;
    expect(readsBack()).toBe(1);
    expect(rowIn(client, INBOX, fresh.id)).toMatchObject({
      arrivedLive: true,
      form: { name: FORM_BETA.name },
      delivery: SENT,
    });
    expect(rowIn(client, BETA, fresh.id)?.delivery).toEqual(SENT);
  });

  it('keeps what changed on the client meanwhile when the read-back arrives', async () => {
    const fresh = makeMessage({ delivery: SENT, created_at: '2026-11-21T00:00:00+00:00' });
    seedInbox([existing, fresh]);
    const settled = applyMessagesChange(client, inserted(fresh));
    // Opened (marked read) before the read-back answered.
    void applyMessagesChange(client, {
      table: 'entries',
      eventType: 'UPDATE',
      new: payload({ ...fresh, read_at: '2026-11-21T00:00:02+00:00' }),
      old: { id: fresh.id },
    });
    await settled;
    expect(rowIn(client, INBOX, fresh.id)).toMatchObject({
      read_at: '2026-11-21T00:00:02+00:00',
      delivery: SENT,
      arrivedLive: true,
    });
  });

  it('reads a burst of inserted messages back in one request', async () => {
    const first = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    const second = makeMessage({ created_at: '2026-11-22T00:00:00+00:00' });
    seedInbox([existing, first, second]);
    await Promise.all(
      [first, second].map((message) => applyMessagesChange(client, inserted(message))),
    );
    expect(readsBack()).toBe(1);
    expect(supabaseDb.requested('GET', 'entries')[0].url.searchParams.get('id')).toBe(
      `in.(${first.id},${second.id})`,
    );
    expect(idsIn(client, INBOX)).toEqual([second.id, first.id, existing.id]);
  });

  it('reads nothing back for spam whose form is known (spam keeps no files)', async () => {
    const spam = makeMessage({ is_spam: true, created_at: '2026-11-21T00:00:00+00:00' });
    await applyMessagesChange(client, inserted(spam));
    expect(readsBack()).toBe(0);
    expect(rowIn(client, SPAM, spam.id)).toMatchObject({
      form: { name: FORM_CONTACT.name },
      delivery: null,
      files: [],
    });
  });

  it('reads any other message back for its files, then adds it to the lists with files', async () => {
    cached(client, WITH_FILES, []);
    const skipped = makeMessage({
      notification_skipped: 'off',
      created_at: '2026-11-22T00:00:00+00:00',
    });
    const attached = makeMessage({
      created_at: '2026-11-23T00:00:00+00:00',
      files: [makeFile({ name: 'cv.pdf', kind: 'pdf', mime_type: 'application/pdf' })],
    });
    seedInbox([existing, skipped, attached]);
    const settled = [
      applyMessagesChange(client, inserted(skipped)),
      applyMessagesChange(client, inserted(attached)),
    ];
    // Before the read-back: no payload carries files, so neither is in the list with files.
    expect(idsIn(client, INBOX)).toEqual([attached.id, skipped.id, existing.id]);
    expect(idsIn(client, WITH_FILES)).toEqual([]);
    await Promise.all(settled);
    expect(readsBack()).toBe(1);
    expect(rowIn(client, INBOX, skipped.id)).toMatchObject({
      delivery: null,
      notification_skipped: 'off',
      files: [],
    });
    expect(rowIn(client, INBOX, attached.id)?.files.map((file) => file.name)).toEqual(['cv.pdf']);
    expect(idsIn(client, WITH_FILES)).toEqual([attached.id]);
    expect(rowIn(client, WITH_FILES, attached.id)).toMatchObject({ arrivedLive: true });
  });

  it('keeps the message as the payload told it when the read-back fails', async () => {
    failRequests('get', 'entries', pgError('PGRST000', 'offline'), 503);
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    await applyMessagesChange(client, inserted(fresh));
    expect(readsBack()).toBe(1);
    expect(idsIn(client, INBOX)).toEqual([fresh.id, existing.id]);
    expect(rowIn(client, INBOX, fresh.id)).toMatchObject({
      form: { name: FORM_CONTACT.name },
      delivery: { status: 'pending' },
    });
  });

  it('takes a message away again when the read-back does not find it', async () => {
    seedInbox([existing]);
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    const settled = applyMessagesChange(client, inserted(fresh));
    expect(idsIn(client, INBOX)).toEqual([fresh.id, existing.id]);
    await settled;
    expect(idsIn(client, INBOX)).toEqual([existing.id]);
  });

  it('reads a payload without a shown column back before showing it', async () => {
    const fresh = makeMessage({
      message: 'A long text',
      delivery: SENT,
      created_at: '2026-11-21T00:00:00+00:00',
    });
    seedInbox([existing, fresh]);
    const { message: _left, ...truncated } = payload(fresh);
    const settled = applyMessagesChange(client, inserted(fresh, truncated));
    expect(idsIn(client, INBOX)).toEqual([existing.id]);
    await settled;
    expect(rowIn(client, INBOX, fresh.id)).toMatchObject({
      message: 'A long text',
      delivery: SENT,
      arrivedLive: true,
    });
  });

  it('shows an incomplete payload as it is when it cannot be read back', async () => {
    failRequests('get', 'entries', pgError('PGRST000', 'offline'), 503);
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    const { message: _left, ...truncated } = payload(fresh);
    await applyMessagesChange(client, inserted(fresh, truncated));
    expect(idsIn(client, INBOX)).toEqual([fresh.id, existing.id]);
  });
});

describe('applyMessagesChange: updates and deletes', () => {
  it('merges an update into lists and the open message', async () => {
    client.setQueryData(messagesKeys.detail(existing.id), existing);
    await applyMessagesChange(client, {
      table: 'entries',
      eventType: 'UPDATE',
      new: payload({ ...existing, read_at: '2026-11-22T00:00:00Z' }),
      old: { id: existing.id },
    });
    expect(client.getQueryData<Message>(messagesKeys.detail(existing.id))?.read_at).toBe(
      '2026-11-22T00:00:00Z',
    );
    expect(rowIn(client, INBOX, existing.id)?.read_at).toBe('2026-11-22T00:00:00Z');
    expect(readsBack()).toBe(0);
  });

  it('removes a deleted message everywhere, from its id alone', async () => {
    client.setQueryData(messagesKeys.detail(existing.id), existing);
    await applyMessagesChange(client, {
      table: 'entries',
      eventType: 'DELETE',
      new: {},
      old: { id: existing.id },
    });
    expect(idsIn(client, INBOX)).toEqual([]);
    expect(idsIn(client, CONTACT)).toEqual([]);
    expect(client.getQueryData(messagesKeys.detail(existing.id))).toBeNull();
  });

  it('marks the unread count and the view counts stale', async () => {
    client.setQueryData(messagesKeys.unread(), 3);
    client.setQueryData(messagesKeys.counts(), []);
    await applyMessagesChange(client, {
      table: 'entries',
      eventType: 'DELETE',
      new: {},
      old: { id: existing.id },
    });
    expect(client.getQueryState(messagesKeys.unread())?.isInvalidated).toBe(true);
    expect(client.getQueryState(messagesKeys.counts())?.isInvalidated).toBe(true);
  });

  it('reads the counts on screen again once for a burst of changes', async () => {
    let reads = 0;
    const observer = new QueryObserver(client, {
      queryKey: messagesKeys.unread(),
      queryFn: () => ++reads,
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(reads).toBe(1));
    for (const message of [existing, makeMessage(), makeMessage()]) {
      void applyMessagesChange(client, {
        table: 'entries',
        eventType: 'DELETE',
        new: {},
        old: { id: message.id },
      });
    }
    expect(client.getQueryState(messagesKeys.unread())?.isInvalidated).toBe(true);
    await vi.waitFor(() => expect(reads).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reads).toBe(2);
    unsubscribe();
  });
});
