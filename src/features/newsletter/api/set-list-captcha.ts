// Turns a list's signup CAPTCHA on (a provider, its site key and secret key) or off
// (set_list_captcha). The secret is write-only: the database keeps it apart from the list and never
// hands it back; left empty, the one stored for the same provider stays. The cached lists take the
// public part at once and are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CaptchaProvider, Functions } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import type { NewsletterList } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

interface ListCaptchaInput {
  listId: string;
  /** null: off (the keys are forgotten). */
  provider: CaptchaProvider | null;
  siteKey: string;
  /** Empty: keep the stored secret. */
  secret: string;
}

type ListCaptcha = Functions<'set_list_captcha'>['Returns'];

async function setListCaptcha({
  listId,
  provider,
  siteKey,
  secret,
}: ListCaptchaInput): Promise<ListCaptcha> {
  const { data, error } = await supabase.rpc('set_list_captcha', {
    p_list_id: listId,
    p_provider: provider,
    p_site_key: provider ? siteKey.trim() : null,
    p_secret: provider && secret.trim() ? secret.trim() : null,
  });
  if (error) throw error;
  return data;
}

export function useSetListCaptcha() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setListCaptcha,
    onSuccess: (captcha, { listId }) => {
      client.setQueryData<NewsletterList[]>(newsletterKeys.lists(), (lists) =>
        lists?.map((list) => (list.id === listId ? { ...list, ...captcha } : list)),
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: newsletterKeys.lists() }),
  });
}
