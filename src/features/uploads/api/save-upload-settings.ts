// Saves a form's upload settings: one row per form, upserted on form_id (the owner comes from the
// form, filled in by the database's trigger; the update may not name it). The database holds the
// values to the deployment's ceilings as well.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { FILE_KINDS, UPLOAD_LIMITS, type FileKind } from '../../../config/uploads';
import { supabase } from '../../../lib/supabase';
import { UPLOAD_SETTINGS_COLUMNS, type UploadSettings } from './get-upload-settings';
import { formsListKey } from '../../../config/query-keys';
import { uploadsKeys } from './query-keys';

const bytes = (max: number) => yup.number().integer().min(1).max(max).required();

const saveUploadSettingsSchema = yup.object({
  formId: yup.string().uuid().required(),
  enabled: yup.boolean().required(),
  kinds: yup
    .array(yup.mixed<FileKind>().oneOf(FILE_KINDS).required())
    .max(FILE_KINDS.length)
    .required(),
  max_file_bytes: bytes(UPLOAD_LIMITS.maxFileBytes),
  max_total_bytes: bytes(UPLOAD_LIMITS.maxTotalBytes),
  max_files: bytes(UPLOAD_LIMITS.maxFiles),
});
type SaveUploadSettingsInput = yup.InferType<typeof saveUploadSettingsSchema>;

async function saveUploadSettings(input: SaveUploadSettingsInput): Promise<UploadSettings> {
  const { formId, ...settings } = saveUploadSettingsSchema.validateSync(input, {
    stripUnknown: true,
  });
  const { data, error } = await supabase
    .from('form_uploads')
    .upsert({ form_id: formId, ...settings }, { onConflict: 'form_id' })
    .select(UPLOAD_SETTINGS_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useSaveUploadSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveUploadSettings,
    onSuccess: (saved, input) => {
      client.setQueryData(uploadsKeys.settings(input.formId), saved);
      // The forms list carries what the embed code needs of these settings (its file input).
      void client.invalidateQueries({ queryKey: formsListKey() });
    },
  });
}
