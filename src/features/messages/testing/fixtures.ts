// Messages for the inbox's tests: distinct senders, forms, dates and delivery states.
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
    notification_skipped: null,
    ...overrides,
  };
}
