// Saves a form's autoresponder (created on first save). The database checks the subject is one
// line, the lengths and the number of merge fields, and decides per message whether a reply may go
// out.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import {
  AUTORESPONSE_LIMITS,
  FROM_NAME_FORBIDDEN,
  FROM_NAME_MAX,
  MAX_MERGE_FIELDS,
  mergeFieldCount,
} from '../autoresponse-template';
import { AUTORESPONDER_COLUMNS, autoresponderKeys, type Autoresponder } from './get-autoresponder';

/** At most 10 merge fields, as the database's check (form_autoresponders_merge_fields) allows. */
const fewMergeFields = (where: 'subject' | 'reply') => ({
  name: 'merge-fields',
  message: ({ value }: { value?: unknown }) =>
    `Use at most ${MAX_MERGE_FIELDS} merge fields in the ${where}; it has ${mergeFieldCount(String(value ?? ''))}.`,
  test: (value: string | undefined) => mergeFieldCount(value ?? '') <= MAX_MERGE_FIELDS,
});

export const autoresponderSchema = yup.object({
  enabled: yup.boolean().required(),
  subject: yup
    .string()
    .trim()
    .required('Enter a subject.')
    .max(AUTORESPONSE_LIMITS.subject, `At most ${AUTORESPONSE_LIMITS.subject} characters.`)
    // eslint-disable-next-line no-control-regex
    .matches(/^[^\u0000-\u001f\u007f]*$/, 'The subject must be a single line.')
    .test(fewMergeFields('subject')),
  // Empty: the default, "<form name> via tinyback".
  fromName: yup
    .string()
    .trim()
    .max(FROM_NAME_MAX, `At most ${FROM_NAME_MAX} characters.`)
    .test(
      'from-name',
      'Use a name without @, angle brackets or control characters.',
      (value) => !FROM_NAME_FORBIDDEN.test(value ?? ''),
    )
    .default(''),
  body: yup
    .string()
    .max(AUTORESPONSE_LIMITS.body, `At most ${AUTORESPONSE_LIMITS.body} characters.`)
    .test(fewMergeFields('reply'))
    .when('enabled', {
      is: true,
      then: (s) => s.trim().required('Write the reply before switching it on.'),
      otherwise: (s) => s.default(''),
    }),
});

const saveAutoresponderSchema = autoresponderSchema.shape({
  formId: yup.string().uuid().required(),
});
type SaveAutoresponderInput = yup.InferType<typeof saveAutoresponderSchema>;

async function saveAutoresponder(input: SaveAutoresponderInput): Promise<Autoresponder> {
  const { formId, enabled, subject, body, fromName } = saveAutoresponderSchema.validateSync(input, {
    stripUnknown: true,
  });
  const { data, error } = await supabase
    .from('form_autoresponders')
    .upsert(
      { form_id: formId, enabled, subject, body: body ?? '', from_name: fromName || null },
      { onConflict: 'form_id' },
    )
    .select(AUTORESPONDER_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useSaveAutoresponder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveAutoresponder,
    onSuccess: (saved) => client.setQueryData(autoresponderKeys.detail(saved.form_id), saved),
    onSettled: (_data, _error, input) =>
      client.invalidateQueries({ queryKey: autoresponderKeys.detail(input.formId) }),
  });
}
