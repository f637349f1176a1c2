// A form's page views and conversion over the last 30 days (RPC `form_conversion()`): the views of
// the pages its messages came from (the analytics tracker on the owner's site), those messages,
// and their share of the views as a percentage (null without views).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { formsKeys } from './get-forms';

export interface FormConversion {
  views: number;
  submissions: number;
  /** Submissions per 100 views; null without views. */
  conversion: number | null;
}

/** The period the card speaks of, in days. */
export const CONVERSION_DAYS = 30;

async function getFormConversion(formId: string): Promise<FormConversion | null> {
  const { data, error } = await supabase.rpc('form_conversion', {
    p_form_id: formId,
    p_days: CONVERSION_DAYS,
  });
  if (error) throw error;
  // The generated types miss that conversion may be null.
  const row = data?.[0] as
    { views: number; submissions: number; conversion: number | null } | undefined;
  return row
    ? {
        views: Number(row.views),
        submissions: Number(row.submissions),
        conversion: row.conversion === null ? null : Number(row.conversion),
      }
    : null;
}

export function useFormConversion(formId: string) {
  return useQuery({
    queryKey: [...formsKeys.all, 'conversion', formId],
    queryFn: () => getFormConversion(formId),
    // Page views change by the minute; a card need not follow them more closely.
    staleTime: 60_000,
  });
}
