// Test data for the form settings: a form as the database returns it (the generated forms row), and
// the tables and function the settings sections read and write, in the tests' database.
import type { Tables } from '../../../lib/database';
import { pgError, supabaseDb } from '../../../components/testing/supabase-server';

export { makeForm } from '../../../components/testing/rows';

export const SETTINGS_FORM_ID = '00000000-0000-4000-9000-00000000bbbb';

/** A stored message, as far as the retention count reads it. */
export interface EntryRow {
  form_id: string;
  created_at: string;
}

type SettingsRow = Record<string, unknown>;

/**
 * The autoresponder and retention tables and the messages they count, as the database keeps them:
 * one row per form (upserts on form_id), a save stamps updated_at.
 */
export function seedSettings(
  initial: {
    form_autoresponders?: SettingsRow[];
    form_retention?: SettingsRow[];
    entries?: EntryRow[];
  } = {},
) {
  let clock = 0;
  const stamped = (row: SettingsRow) => {
    clock += 1;
    return { ...row, updated_at: new Date(Date.UTC(2026, 10, 24, 12, clock)).toISOString() };
  };
  for (const table of ['form_autoresponders', 'form_retention'])
    supabaseDb.define(table, {
      insert: stamped,
      update: (before, values) => stamped({ ...before, ...values }),
    });
  supabaseDb.define('entries', {});
  supabaseDb.seed(initial);
}

/** `set_form_captcha()` over these forms: like the database, an empty secret keeps the stored one only for the same provider. */
export function seedCaptcha(forms: Tables<'forms'>[]) {
  supabaseDb.seed({ forms });
  supabaseDb.rpc('set_form_captcha', (args) => {
    const form = supabaseDb.rows('forms').find((f) => f.id === args.p_form_id);
    const provider = (args.p_provider ?? null) as Tables<'forms'>['captcha_provider'];
    if (!form) throw pgError('PT404', 'This form no longer exists.');
    if (provider && !args.p_secret && form.captcha_provider !== provider)
      throw pgError('22023', 'Enter the secret key.');
    const captcha = {
      captcha_provider: provider,
      captcha_site_key: provider ? String(args.p_site_key ?? '') : null,
    };
    Object.assign(form, captcha);
    return captcha;
  });
}
