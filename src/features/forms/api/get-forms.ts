// Reads the signed-in owner's forms, newest first.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { CaptchaProvider } from '../captcha-texts';

export interface Form {
  id: string;
  user_id: string;
  name: string;
  target_email: string;
  allowed_origin: string;
  notify_email: boolean;
  redirect_url: string | null;
  /**
   * Whether notifications may go to target_email: it is the owner's confirmed account e-mail or
   * was confirmed through the mailed link. Kept by the database; the owner cannot write it.
   */
  target_verified: boolean;
  /** The form's CAPTCHA and its public site key (null: none); set through set_form_captcha(). */
  captcha_provider: CaptchaProvider | null;
  captcha_site_key: string | null;
  created_at: string;
  updated_at: string;
}

export const FORM_COLUMNS =
  'id, user_id, name, target_email, allowed_origin, notify_email, redirect_url, target_verified, captcha_provider, captcha_site_key, created_at, updated_at';

export const formsKeys = {
  all: ['forms'] as const,
  list: () => ['forms', 'list'] as const,
  counts: () => ['forms', 'counts'] as const,
};

export async function getForms(): Promise<Form[]> {
  const { data, error } = await supabase
    .from('forms')
    .select(FORM_COLUMNS)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (error) throw error;
  return (data ?? []) as Form[];
}

export function useForms() {
  return useQuery({ queryKey: formsKeys.list(), queryFn: getForms });
}
