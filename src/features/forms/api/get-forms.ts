// Reads the signed-in owner's forms, newest first.
import { useQuery } from '@tanstack/react-query';
import { formsListKey } from '../../../config/query-keys';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';

/** What the embed code needs of a form's file uploads (the uploads feature edits them). */
type FormFileInput = Pick<Tables<'form_uploads'>, 'enabled' | 'kinds' | 'max_files'>;

/**
 * A form as the dashboard reads it. `target_verified`: notifications may go to target_email (the
 * owner's confirmed account e-mail, or confirmed through the mailed link), kept by the database.
 * `form_uploads`: its file uploads, for the embed code (null, or absent in a row Realtime
 * reported: off).
 */
export type Form = Tables<'forms'> & { form_uploads?: FormFileInput | null };

export const FORM_COLUMNS =
  'id, user_id, name, target_email, allowed_origin, notify_email, redirect_url, target_verified, captcha_provider, captcha_site_key, created_at, updated_at, form_uploads(enabled, kinds, max_files)';

export const formsKeys = {
  all: ['forms'] as const,
  list: formsListKey,
  counts: () => ['forms', 'counts'] as const,
};

async function getForms(): Promise<Form[]> {
  const { data, error } = await supabase
    .from('forms')
    .select(FORM_COLUMNS)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (error) throw error;
  return data ?? [];
}

export function useForms() {
  return useQuery({ queryKey: formsKeys.list(), queryFn: getForms });
}
