// Asks the forms function (`POST /forms/_campaigns`) to send the campaign messages that are due
// now — a campaign just started or resumed — instead of at its next scheduled run (up to a minute
// later). The route takes no argument and does only what that run would do.
import { supabase } from '../../../lib/supabase';

/** Best effort: when it fails, the scheduled run sends the same messages a little later. */
export async function sendCampaignNow(): Promise<void> {
  try {
    await supabase.functions.invoke('forms/_campaigns', { body: {} });
  } catch {
    // Left to the scheduled run.
  }
}
