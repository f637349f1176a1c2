// Asks the forms function (`POST /forms/_mail`) to compose and send the e-mail that is due now —
// a new target address's confirmation link, the messages an owner just released — instead of at
// its next scheduled run (up to a minute later). The route takes no argument and does only what
// that run would do.
import { supabase } from '../../../lib/supabase';

/** Best effort: when it fails, the scheduled run sends the same mail a little later. */
export async function sendMailNow(): Promise<void> {
  try {
    await supabase.functions.invoke('forms/_mail', { body: {} });
  } catch {
    // Left to the scheduled run.
  }
}
