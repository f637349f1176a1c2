import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { RowChange } from '../../lib/merge-change';
import { getMessagesById } from './api/get-messages-by-id';
import { messagesKeys } from './api/query-keys';
import { applyMessagesChange, messagesLiveBindings } from './live-bindings';
import { listRows, type MessagePages } from './merge-messages';
import { FORM_BETA, FORM_CONTACT, makeMessage } from './testing/fixtures';
import type { Message, MessageFilter } from './types';

vi.mock('./api/get-messages-by-id', () => ({ getMessagesById: vi.fn() }));
const fetchById = vi.mocked(getMessagesById);
const found = (...messages: Message[]) => new Map(messages.map((message) => [message.id, message]));

const INBOX: MessageFilter = { formId: null, view: 'inbox', q: '' };
const CONTACT: MessageFilter = { formId: FORM_CONTACT.id, view: 'inbox', q: '' };
const BETA: MessageFilter = { formId: FORM_BETA.id, view: 'inbox', q: '' };
const SPAM: MessageFilter = { formId: null, view: 'spam', q: '' };

function cached(client: QueryClient, filter: MessageFilter, rows: Message[]) {
  client.setQueryData<MessagePages>(messagesKeys.list(filter), {
    pages: [{ rows, next: null }],
    pageParams: [null],
  });
}
const idsIn = (client: QueryClient, filter: MessageFilter) =>
  listRows(client.getQueryData<MessagePages>(messagesKeys.list(filter))).map((row) => row.id);

function payload(message: Message): Record<string, unknown> {
  const { form: _f, delivery: _d, arrivedLive: _l, ...columns } = message;
  return { ...columns, user_id: 'owner', search_text: 'x' };
}

let client: QueryClient;
const existing = makeMessage({ created_at: '2026-11-20T00:00:00+00:00' });

beforeEach(() => {
  client = new QueryClient();
  fetchById.mockReset();
  cached(client, INBOX, [existing]);
  cached(client, CONTACT, [existing]);
  cached(client, BETA, []);
  cached(client, SPAM, []);
});

describe('messagesLiveBindings', () => {
  it('binds the entries table and refetches every inbox query after a reconnect', () => {
    expect(messagesLiveBindings.map((binding) => binding.table)).toEqual(['entries']);
    expect(messagesLiveBindings[0].queryKey).toEqual(messagesKeys.all);
  });
});

describe('applyMessagesChange', () => {
  it('reads an inserted message by id and adds it, flagged new, to the lists it belongs in', async () => {
    const fresh = makeMessage({
      created_at: '2026-11-21T00:00:00+00:00',
      form: { name: 'Contact' },
    });
    fetchById.mockResolvedValue(found(fresh));
    const change: RowChange = {
      table: 'entries',
      eventType: 'INSERT',
      new: payload(fresh),
      old: {},
    };
    await applyMessagesChange(client, change);

    expect(fetchById).toHaveBeenCalledWith([fresh.id]);
    expect(idsIn(client, INBOX)).toEqual([fresh.id, existing.id]);
    expect(idsIn(client, CONTACT)).toEqual([fresh.id, existing.id]);
    expect(idsIn(client, BETA)).toEqual([]);
    expect(idsIn(client, SPAM)).toEqual([]);
    const row = client.getQueryData<MessagePages>(messagesKeys.list(INBOX))!.pages[0].rows[0];
    expect(row).toMatchObject({ arrivedLive: true, form: { name: 'Contact' } });
  });

  it('reads a burst of inserted messages in one request', async () => {
    const first = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    const second = makeMessage({ created_at: '2026-11-22T00:00:00+00:00' });
    fetchById.mockResolvedValue(found(first, second));
    await Promise.all(
      [first, second].map((message) =>
        applyMessagesChange(client, {
          table: 'entries',
          eventType: 'INSERT',
          new: payload(message),
          old: {},
        }),
      ),
    );
    expect(fetchById).toHaveBeenCalledTimes(1);
    expect(fetchById).toHaveBeenCalledWith([first.id, second.id]);
    expect(idsIn(client, INBOX)).toEqual([second.id, first.id, existing.id]);
  });

  it('falls back to the payload when the message cannot be read', async () => {
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    fetchById.mockRejectedValue(new Error('offline'));
    await applyMessagesChange(client, {
      table: 'entries',
      eventType: 'INSERT',
      new: payload(fresh),
      old: {},
    });
    expect(idsIn(client, INBOX)).toEqual([fresh.id, existing.id]);
  });

  it('skips a message that is gone by the time it is read', async () => {
    const fresh = makeMessage({ created_at: '2026-11-21T00:00:00+00:00' });
    fetchById.mockResolvedValue(found());
    await applyMessagesChange(client, {
      table: 'entries',
      eventType: 'INSERT',
      new: payload(fresh),
      old: {},
    });
    expect(idsIn(client, INBOX)).toEqual([existing.id]);
  });

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
    const row = client.getQueryData<MessagePages>(messagesKeys.list(INBOX))!.pages[0].rows[0];
    expect(row.read_at).toBe('2026-11-22T00:00:00Z');
    expect(fetchById).not.toHaveBeenCalled();
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
});
