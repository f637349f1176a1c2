// Rows as the database returns them (the generated types), for the features' test data: a form
// belongs to the forms feature and is edited by the form settings, so its row is made here once.
import type { Tables } from '../../lib/database';

/** The signed-in owner of the test data. */
export const OWNER_ID = '00000000-0000-4000-8000-000000000001';

let sequence = 0;

/** A form with unique id; created one minute after the previous one unless told. */
export function makeForm(overrides: Partial<Tables<'forms'>> = {}): Tables<'forms'> {
  sequence += 1;
  const created = new Date(Date.UTC(2026, 0, 1, 12, sequence)).toISOString();
  return {
    id: `00000000-0000-4000-9000-${String(sequence).padStart(12, '0')}`,
    user_id: OWNER_ID,
    name: `Form ${sequence}`,
    target_email: `inbox${sequence}@example.com`,
    allowed_origin: 'https://example.com',
    notify_email: true,
    redirect_url: null,
    target_verified: true,
    captcha_provider: null,
    captcha_site_key: null,
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}
