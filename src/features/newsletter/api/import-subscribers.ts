// Adds one chunk of a file's rows to a list as confirmed subscribers under the owner's consent
// statement (import_list_subscribers, at most 10 000 rows a call). The answer counts what was
// added and names the duplicates and invalid rows by their place in this chunk.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { ImportAnswer } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

export const IMPORT_CHUNK_SIZE = 10_000;

interface ImportInput {
  listId: string;
  rows: { email: string; name: string }[];
  consentStatement: string;
  /** The file's last chunk: the list is read again after it (or after a failure), not after each. */
  last: boolean;
}

async function importSubscribers({
  listId,
  rows,
  consentStatement,
}: ImportInput): Promise<ImportAnswer> {
  const { data, error } = await supabase.rpc('import_list_subscribers', {
    p_list_id: listId,
    p_rows: rows.map(({ email, name }) => (name ? { email, name } : { email })),
    p_consent_statement: consentStatement.trim(),
  });
  if (error) throw error;
  return data as unknown as ImportAnswer;
}

export function useImportSubscribers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importSubscribers,
    onSettled: (_data, error, { listId, last }) =>
      (last || error) &&
      Promise.all([
        client.invalidateQueries({ queryKey: newsletterKeys.subscribers(listId) }),
        client.invalidateQueries({ queryKey: newsletterKeys.confirmedCount(listId) }),
      ]),
  });
}
