// Asks the forms function (`POST /forms/_webhook`) to send a webhook delivery the owner just
// queued ("Send test event", "Send again") instead of at its next scheduled run, a minute at most.
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';

const sendWebhookNowSchema = yup.string().uuid().required();

/**
 * Asks the forms function to send a delivery the owner just queued, instead of at its next
 * scheduled run (at most a minute later). Best effort: when it fails, that run sends it anyway.
 */
export async function sendNow(deliveryId: string): Promise<void> {
  const id = sendWebhookNowSchema.validateSync(deliveryId);
  try {
    await supabase.functions.invoke('forms/_webhook', { body: { id } });
  } catch {
    // Left to the scheduled run.
  }
}
