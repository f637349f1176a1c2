// A short-lived signed address of an image file, for its thumbnail in the message drawer. Storage
// signs only the owner's own objects (its RLS reads the first folder of the key); the address
// works for 60 s, long enough for the <img> to load it, and is asked for again after that.
import { useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import { SUBMISSION_FILES_BUCKET } from '../../../config/uploads';
import { supabase } from '../../../lib/supabase';
import { uploadsKeys } from './query-keys';

/** How long a signed address works, in seconds. */
export const SIGNED_URL_SECONDS = 60;

const objectKeySchema = yup.string().trim().min(1).max(1024).required();

async function getThumbnailUrl(objectKey: string): Promise<string> {
  const key = objectKeySchema.validateSync(objectKey);
  const { data, error } = await supabase.storage
    .from(SUBMISSION_FILES_BUCKET)
    .createSignedUrl(key, SIGNED_URL_SECONDS);
  if (error) throw error;
  return data.signedUrl;
}

export function useThumbnailUrl(objectKey: string, enabled: boolean) {
  return useQuery({
    queryKey: uploadsKeys.thumbnail(objectKey),
    queryFn: () => getThumbnailUrl(objectKey),
    enabled,
    // Shown within the minute it works; a later render asks for a fresh one.
    staleTime: (SIGNED_URL_SECONDS - 10) * 1000,
    gcTime: SIGNED_URL_SECONDS * 1000,
    refetchOnWindowFocus: false,
    retry: 1,
  });
}
