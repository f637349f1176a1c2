// Sets a form's retention rule, or removes it ("keep until deleted"). The database bounds the
// number of days and applies the rule in its scheduled sweep.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { RETENTION_COLUMNS, retentionKeys, type RetentionRule } from './get-retention';

export const RETENTION_DAYS = { min: 1, max: 3650 } as const;
const RETENTION_CHOICES = ['keep', 'days', 'forward_only'] as const;
export type RetentionChoice = (typeof RETENTION_CHOICES)[number];

export const retentionSchema = yup.object({
  choice: yup.string().oneOf(RETENTION_CHOICES).required(),
  days: yup
    .number()
    .typeError('Enter a number of days.')
    .when('choice', {
      is: 'days',
      then: (s) =>
        s
          .required('Enter a number of days.')
          .integer('Enter whole days.')
          .min(RETENTION_DAYS.min, `At least ${RETENTION_DAYS.min} day.`)
          .max(RETENTION_DAYS.max, `At most ${RETENTION_DAYS.max} days (10 years).`),
      otherwise: (s) => s.notRequired(),
    }),
});

const saveRetentionSchema = retentionSchema.shape({
  formId: yup.string().uuid().required(),
});
type SaveRetentionInput = yup.InferType<typeof saveRetentionSchema>;

async function saveRetention(input: SaveRetentionInput): Promise<RetentionRule | null> {
  const { formId, choice, days } = saveRetentionSchema.validateSync(input, { stripUnknown: true });
  if (choice === 'keep') {
    const { error } = await supabase.from('form_retention').delete().eq('form_id', formId);
    if (error) throw error;
    return null;
  }
  const { data, error } = await supabase
    .from('form_retention')
    .upsert(
      { form_id: formId, mode: choice, days: choice === 'days' ? days : null },
      { onConflict: 'form_id' },
    )
    .select(RETENTION_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useSaveRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveRetention,
    onSuccess: (saved, input) => client.setQueryData(retentionKeys.detail(input.formId), saved),
    // The inbox's notice reads the rules under the same root key.
    onSettled: () => client.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}
