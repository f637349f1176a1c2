// Pauses, resumes, cancels or unschedules a campaign (campaign_control); refused with 55000 when
// its status does not allow it (it finished or moved on meanwhile). A resumed campaign is kicked
// off at once (send-campaign-now.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign, CampaignAction, CampaignStatus } from '../newsletter-types';
import { patchCampaign, refetchCampaign } from '../newsletter-cache';
import { sendCampaignNow } from './send-campaign-now';

interface ControlInput {
  campaignId: string;
  action: CampaignAction;
}

async function controlCampaign({ campaignId, action }: ControlInput): Promise<CampaignStatus> {
  const { data, error } = await supabase.rpc('campaign_control', {
    p_campaign_id: campaignId,
    p_action: action,
  });
  if (error) throw error;
  return (data as unknown as { status: CampaignStatus }).status;
}

export function useControlCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: controlCampaign,
    onSuccess: (status, { campaignId }) => {
      // A resumed campaign goes on now rather than at the next scheduled run.
      if (status === 'sending') void sendCampaignNow();
      const merge = (row: Campaign): Campaign => ({
        ...row,
        status,
        scheduled_at: null,
        finished_at: status === 'cancelled' ? new Date().toISOString() : row.finished_at,
      });
      patchCampaign(client, campaignId, merge);
    },
    onSettled: (_data, _error, { campaignId }) => refetchCampaign(client, campaignId),
  });
}
