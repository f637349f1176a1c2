// Rows as the database returns them (the generated types), for the features' test data: a form
// belongs to the forms feature and is edited by the form settings, and a message's stored file is
// read by the inbox and shown by the uploads feature, so each row is made here once.
import type { EntryFile } from '../../config/uploads';
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

/** The form and message the stored files of the test data belong to. */
export const FILES_FORM_ID = '00000000-0000-4000-9000-00000000dddd';
const FILES_ENTRY_ID = '00000000-0000-4000-a000-00000000eeee';

let fileSequence = 0;

/** A stored file (a PNG image unless told), under its owner, form and entry as Storage keeps it. */
export function makeFile(overrides: Partial<EntryFile> = {}): EntryFile {
  fileSequence += 1;
  const name = overrides.name ?? `photo-${fileSequence}.png`;
  return {
    id: `00000000-0000-4000-b000-${String(fileSequence).padStart(12, '0')}`,
    position: fileSequence,
    name,
    kind: 'image',
    mime_type: 'image/png',
    size: 204_800,
    object_key: `${OWNER_ID}/${FILES_FORM_ID}/${FILES_ENTRY_ID}/${fileSequence}-${name}`,
    ...overrides,
  };
}
