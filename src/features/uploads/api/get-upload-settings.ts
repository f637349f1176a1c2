// Reads the upload settings of one of the owner's forms (RLS: only their own); null when the form
// has none, which means uploads are off.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import type { Tables } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { uploadsKeys } from './query-keys';

export type UploadSettings = Pick<
  Tables<'form_uploads'>,
  'form_id' | 'enabled' | 'kinds' | 'max_file_bytes' | 'max_total_bytes' | 'max_files'
>;

export const UPLOAD_SETTINGS_COLUMNS =
  'form_id, enabled, kinds, max_file_bytes, max_total_bytes, max_files';

const getUploadSettingsSchema = yup.object({ formId: yup.string().uuid().required() });

async function getUploadSettings(input: { formId: string }): Promise<UploadSettings | null> {
  const { formId } = getUploadSettingsSchema.validateSync(input);
  const { data, error } = await supabase
    .from('form_uploads')
    .select(UPLOAD_SETTINGS_COLUMNS)
    .eq('form_id', formId)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export function useUploadSettings(formId: string) {
  return useQuery({
    queryKey: uploadsKeys.settings(formId),
    queryFn: () => getUploadSettings({ formId }),
  });
}
