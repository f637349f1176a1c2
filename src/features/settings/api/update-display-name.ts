// Change the signed-in user's display name (user metadata `name`). The auth listener receives
// USER_UPDATED with the new user, so the header and sidebar follow at once; a database trigger
// copies the name into the profile.
import * as yup from 'yup';
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { DISPLAY_NAME_MAX_LENGTH } from '../../../config/site';

export const displayNameSchema = yup.object({
  name: yup
    .string()
    .trim()
    .required('Enter a display name.')
    .max(DISPLAY_NAME_MAX_LENGTH, `Use at most ${DISPLAY_NAME_MAX_LENGTH} characters.`),
});

type DisplayNameInput = yup.InferType<typeof displayNameSchema>;

/** Resolves with the saved (trimmed) name; rejects with a validation or server error. */
async function updateDisplayName(input: DisplayNameInput): Promise<string> {
  // The server stores the metadata as sent, so the name is validated and trimmed here.
  const { name } = await displayNameSchema.validate(input);
  const { error } = await supabase.auth.updateUser({ data: { name } });
  if (error) throw error;
  return name;
}

export function useUpdateDisplayName() {
  return useMutation({ mutationFn: updateDisplayName });
}
