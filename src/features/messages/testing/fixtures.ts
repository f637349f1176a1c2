// Messages for the inbox's tests: distinct senders, forms, dates and delivery states, and the
// inbox's tables and count function in the tests' database (components/testing/supabase-server.ts).
import { supabaseDb, type Row } from '../../../components/testing/supabase-server';

export { makeFile } from '../../../components/testing/rows';
import { searchTextOf } from '../message-query';
import type { Message } from '../types';

export const FORM_CONTACT = { id: '11111111-1111-4111-8111-111111111111', name: 'Contact' };
export const FORM_BETA = { id: '22222222-2222-4222-8222-222222222222', name: 'Beta signup' };

let counter = 0;

/** A message with sensible defaults; ids count up, so each call gives a new one. */
export function makeMessage(overrides: Partial<Message> = {}): Message {
  counter += 1;
  const suffix = String(counter).padStart(12, '0');
  return {
    id: `aaaaaaaa-0000-4000-8000-${suffix}`,
    form_id: FORM_CONTACT.id,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    message: 'Hello there',
    data: {},
    field_order: null,
    is_spam: false,
    read_at: null,
    created_at: '2026-11-20T10:00:00+00:00',
    form: { name: FORM_CONTACT.name },
    delivery: null,
    files: [],
    notification_skipped: null,
    ...overrides,
  };
}

/**
 * Seeds `entries` with these messages (their form and delivery answered as the embeds), their
 * `email_deliveries`, an empty `form_retention` and `form_message_counts()` over the entries.
 */
export function seedInbox(messages: Message[]) {
  supabaseDb.define('entries', {
    // As the generated column: what the search matches.
    computed: { search_text: (row) => searchTextOf(row) },
    // As PostgREST may: the unique to-one delivery embed comes as an array.
    render: ({ arrivedLive: _live, delivery, ...row }) => ({
      ...row,
      delivery: delivery ? [delivery] : [],
    }),
  });
  supabaseDb.seed({
    entries: messages,
    email_deliveries: messages
      .filter((m) => m.delivery)
      .map((m) => ({ entry_id: m.id, ...m.delivery })),
    form_retention: [],
  });
  supabaseDb.rpc('form_message_counts', () => {
    const byForm = new Map<
      string,
      { form_id: string; total: number; unread: number; spam: number }
    >();
    for (const row of supabaseDb.rows('entries') as Row[]) {
      const formId = String(row.form_id);
      const entry = byForm.get(formId) ?? { form_id: formId, total: 0, unread: 0, spam: 0 };
      if (row.is_spam) entry.spam += 1;
      else {
        entry.total += 1;
        if (row.read_at === null) entry.unread += 1;
      }
      byForm.set(formId, entry);
    }
    return [...byForm.values()];
  });
}
