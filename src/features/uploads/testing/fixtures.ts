// Test data for the uploads feature: a form's upload settings as the database keeps them (one row
// per form, upserted on form_id), stored files, and Storage's signing of them in the tests' API.
import { http, HttpResponse } from 'msw';
import type { EntryFile } from '../../../config/uploads';
import { env } from '../../../config/env';
import { OWNER_ID } from '../../../components/testing/rows';
import { server, supabaseDb } from '../../../components/testing/supabase-server';

export const UPLOADS_FORM_ID = '00000000-0000-4000-9000-00000000dddd';
export const UPLOADS_ENTRY_ID = '00000000-0000-4000-a000-00000000eeee';

/** The form_uploads table: a save fills the owner from the form, as the database's trigger does. */
export function seedUploadSettings(rows: Record<string, unknown>[] = []) {
  supabaseDb.define('form_uploads', {
    insert: (row) => ({ user_id: OWNER_ID, ...row }),
    update: (before, values) => ({ ...before, ...values, user_id: before.user_id }),
  });
  supabaseDb.seed({ form_uploads: rows });
}

let sequence = 0;

/** A stored file of the test entry; the first is a PNG image unless told. */
export function makeFile(overrides: Partial<EntryFile> = {}): EntryFile {
  sequence += 1;
  const name = overrides.name ?? `photo-${sequence}.png`;
  return {
    id: `00000000-0000-4000-b000-${String(sequence).padStart(12, '0')}`,
    position: sequence,
    name,
    kind: 'image',
    mime_type: 'image/png',
    size: 204_800,
    object_key: `${OWNER_ID}/${UPLOADS_FORM_ID}/${UPLOADS_ENTRY_ID}/${sequence}-${name}`,
    ...overrides,
  };
}

const STORAGE = `${env.supabaseUrl.replace(/\/$/, '')}/storage/v1`;

/** A signing request Storage received: the object's key and what was asked. */
export interface SignRequest {
  bucket: string;
  key: string;
  body: { expiresIn?: number };
}

/**
 * Storage's `POST /object/sign/<bucket>/<key>`: signs the keys in `known` (the owner's objects),
 * answers 400 "Object not found" for any other, as Storage does for what RLS hides.
 */
export function serveSigning(known: readonly string[]): SignRequest[] {
  const received: SignRequest[] = [];
  server.use(
    http.post(`${STORAGE}/object/sign/:bucket/*`, async ({ request, params }) => {
      const url = new URL(request.url);
      const bucket = String(params.bucket);
      const key = decodeURIComponent(url.pathname.split(`/object/sign/${bucket}/`)[1] ?? '');
      const body = (await request.json()) as SignRequest['body'];
      received.push({ bucket, key, body });
      if (!known.includes(key))
        return HttpResponse.json(
          { statusCode: '404', error: 'not_found', message: 'Object not found' },
          { status: 400 },
        );
      return HttpResponse.json({
        signedURL: `/object/sign/${bucket}/${encodeURI(key)}?token=signed-${received.length}`,
      });
    }),
  );
  return received;
}
