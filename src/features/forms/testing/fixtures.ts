// Test data for the forms feature: forms and message counts as the database returns them, and the
// forms table, its functions and the signed-in account in the tests' database
// (components/testing/supabase-server.ts).
import {
  clearStoredSession,
  storeSession,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import type { Form } from '../api/get-forms';
import type { FormCounts } from '../api/get-form-counts';

import { OWNER_ID } from '../../../components/testing/rows';

export { makeForm, OWNER_ID } from '../../../components/testing/rows';

export function makeCounts(formId: string, total = 0, unread = 0, spam = 0): FormCounts {
  return { form_id: formId, total, unread, spam };
}

/**
 * Seeds the forms, `form_message_counts()`, the target confirmation functions and the held
 * notifications, the signed-in account (when it has a confirmed address) and the forms function's
 * `_mail` route. A test changes what a function answers through the returned `answers`.
 */
export function seedForms(
  initial: {
    forms?: Form[];
    counts?: FormCounts[];
    held?: { form_id: string; held: number }[];
    accountEmail?: string | null;
    /** What `form_conversion()` answers per form (default: nothing tracked). */
    conversion?: Record<string, { views: number; submissions: number; conversion: number | null }>;
  } = {},
) {
  const accountEmail = initial.accountEmail ?? null;
  const answers = {
    /** What `resend_target_confirmation` answers (the database's JSON). */
    resend: { status: 'requested' } as Record<string, unknown>,
    /** What `confirm_target_email` answers. */
    confirm: {
      status: 'confirmed',
      email: 'sales@elsewhere.example',
      form: 'Sales leads',
    } as Record<string, unknown>,
    /** What `target_confirmation_details` answers. */
    details: {
      status: 'pending',
      email: 'sales@elsewhere.example',
      form: 'Sales leads',
    } as Record<string, unknown>,
    /** What `send_held_notifications` answers. */
    sendHeld: { status: 'queued', queued: 0, remaining: 0 } as Record<string, unknown>,
  };
  let held = [...(initial.held ?? [])];
  if (accountEmail)
    storeSession({ id: OWNER_ID, email: accountEmail, email_confirmed_at: '2026-01-01T00:00:00Z' });
  else clearStoredSession();
  const now = () => new Date().toISOString();
  supabaseDb.define('forms', {
    insert: (row) => ({
      user_id: OWNER_ID,
      notify_email: true,
      redirect_url: null,
      // As the database has it: only the account's own confirmed address needs no link.
      target_verified:
        accountEmail !== null &&
        String(row.target_email ?? '').toLowerCase() === accountEmail.toLowerCase(),
      captcha_provider: null,
      captcha_site_key: null,
      ...row,
      created_at: now(),
      updated_at: now(),
    }),
    update: (before, values) => ({ ...before, ...values, updated_at: now() }),
  });
  supabaseDb.seed({ forms: initial.forms ?? [] });
  const formOf = (id: unknown) => supabaseDb.rows('forms').find((f) => f.id === id);
  supabaseDb.rpc('form_message_counts', () => initial.counts ?? []);
  supabaseDb.rpc('form_conversion', (args) => [
    initial.conversion?.[String(args.p_form_id)] ?? { views: 0, submissions: 0, conversion: null },
  ]);
  supabaseDb.rpc('resend_target_confirmation', (args) => ({
    email: formOf(args.p_form_id)?.target_email,
    ...answers.resend,
  }));
  supabaseDb.rpc('confirm_target_email', () => ({ ...answers.confirm }));
  supabaseDb.rpc('target_confirmation_details', () => ({ ...answers.details }));
  supabaseDb.rpc('held_notification_counts', () => held);
  supabaseDb.rpc('send_held_notifications', (args) => {
    if (answers.sendHeld.status === 'queued')
      held = held.filter((h) => h.form_id !== args.p_form_id);
    return { email: formOf(args.p_form_id)?.target_email, ...answers.sendHeld };
  });
  supabaseDb.edgeFunction('forms', () => ({ ok: true }));
  return { answers };
}
