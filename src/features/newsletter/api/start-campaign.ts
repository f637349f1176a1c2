// Sends a draft now (its recipients fixed: the list's confirmed subscribers at this moment) or
// schedules it for a later time (campaign_start). Refused with 55000 when it is no longer a draft
// or scheduled, and 22023 when its subject or body is empty. A campaign sent now is kicked off at
// once (send-campaign-now.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign, StartAnswer } from '../newsletter-types';
import { patchCampaign, refetchCampaign } from '../newsletter-cache';
import { sendCampaignNow } from './send-campaign-now';

interface StartInput {
  campaignId: string;
  /** ISO timestamp to schedule for; null: now. */
  at: string | null;
}

async function startCampaign({ campaignId, at }: StartInput): Promise<StartAnswer> {
  const { data, error } = await supabase.rpc(
    'campaign_start',
    at ? { p_campaign_id: campaignId, p_at: at } : { p_campaign_id: campaignId },
  );
  if (error) throw error;
  return data as unknown as StartAnswer;
}

export function useStartCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startCampaign,
    onSuccess: (answer, { campaignId }) => {
      // Sent now rather than at the next scheduled run; a scheduled one waits for its time.
      if (answer.status === 'sending') void sendCampaignNow();
      const merge = (row: Campaign): Campaign =>
        answer.status === 'sending'
          ? {
              ...row,
              status: 'sending',
              recipients: answer.recipients,
              scheduled_at: null,
              started_at: new Date().toISOString(),
            }
          : { ...row, status: 'scheduled', scheduled_at: answer.scheduled_at };
      patchCampaign(client, campaignId, merge);
    },
    onSettled: (_data, _error, { campaignId }) => refetchCampaign(client, campaignId),
  });
}
