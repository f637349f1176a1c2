// A file's download: a signed address made at the click, working for 60 s, with `download` set
// so Storage answers it as an attachment under its stored name (never shown as a page of ours).
import { useMutation } from '@tanstack/react-query';
import * as yup from 'yup';
import { SUBMISSION_FILES_BUCKET } from '../../../config/uploads';
import { supabase } from '../../../lib/supabase';
import { SIGNED_URL_SECONDS } from './get-thumbnail-url';

const downloadSchema = yup.object({
  objectKey: yup.string().trim().min(1).max(1024).required(),
  name: yup.string().min(1).max(150).required(),
});
type DownloadInput = yup.InferType<typeof downloadSchema>;

async function createDownloadUrl(input: DownloadInput): Promise<string> {
  const { objectKey, name } = downloadSchema.validateSync(input);
  const { data, error } = await supabase.storage
    .from(SUBMISSION_FILES_BUCKET)
    .createSignedUrl(objectKey, SIGNED_URL_SECONDS, { download: name });
  if (error) throw error;
  return data.signedUrl;
}

export function useCreateDownloadUrl() {
  return useMutation({ mutationFn: createDownloadUrl });
}
