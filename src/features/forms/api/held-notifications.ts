// Messages a form received while its target address waited for confirmation: stored, not
// e-mailed, their notifications kept by the endpoint. Once the address is confirmed the owner may
// send them (RPC `send_held_notifications`: to the confirmed target only, within the account's
// notification caps, each once); the forms function is then asked to send at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { formsKeys } from './get-forms';
import { sendMailNow } from './send-mail-now';

const heldKey = () => [...formsKeys.all, 'held'] as const;

/** Form id → messages whose notification waits for the owner. */
type HeldCounts = Record<string, number>;

async function getHeldCounts(): Promise<HeldCounts> {
  const { data, error } = await supabase.rpc('held_notification_counts');
  if (error) throw error;
  const counts: HeldCounts = {};
  for (const row of (data ?? []) as { form_id: string; held: number }[])
    counts[row.form_id] = Number(row.held);
  return counts;
}

/** Read only while some form could have any: a form with a confirmed target. */
export function useHeldCounts(enabled: boolean) {
  return useQuery({ queryKey: heldKey(), queryFn: getHeldCounts, enabled });
}

export type SendHeldOutcome =
  /** Queued for the confirmed address; `remaining` wait for room under the caps. */
  | { status: 'queued'; queued: number; remaining: number; email: string }
  /** The caps leave no room now; nothing was queued. */
  | { status: 'limited'; remaining: number }
  | { status: 'none' | 'unverified' | 'off' | 'not_found' };

const sendHeldSchema = yup.object({ formId: yup.string().uuid().required() });

export function toSendHeldOutcome(data: unknown): SendHeldOutcome {
  const row = data as Record<string, unknown> | null;
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  switch (row?.status) {
    case 'queued':
      if (typeof row.email !== 'string') break;
      return {
        status: 'queued',
        queued: count(row.queued),
        remaining: count(row.remaining),
        email: row.email,
      };
    case 'limited':
      return { status: 'limited', remaining: count(row.remaining) };
    case 'none':
    case 'unverified':
    case 'off':
    case 'not_found':
      return { status: row.status };
  }
  throw new Error('Unexpected answer to sending the messages received meanwhile.');
}

async function sendHeldNotifications(input: { formId: string }): Promise<SendHeldOutcome> {
  const { formId } = sendHeldSchema.validateSync(input);
  const { data, error } = await supabase.rpc('send_held_notifications', { p_form_id: formId });
  if (error) throw error;
  const outcome = toSendHeldOutcome(data);
  if (outcome.status === 'queued' && outcome.queued > 0) await sendMailNow();
  return outcome;
}

export function useSendHeldNotifications() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendHeldNotifications,
    onSettled: () => client.invalidateQueries({ queryKey: heldKey() }),
  });
}
