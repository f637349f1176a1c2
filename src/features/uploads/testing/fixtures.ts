// Test data for the uploads feature: a form's upload settings as the database keeps them (one row
// per form, upserted on form_id), stored files, and Storage's signing of them in the tests' API.
import { http, HttpResponse } from 'msw';
import { env } from '../../../config/env';
import { FILES_FORM_ID, OWNER_ID } from '../../../components/testing/rows';
import { server, supabaseDb } from '../../../components/testing/supabase-server';

export { makeFile } from '../../../components/testing/rows';

export const UPLOADS_FORM_ID = FILES_FORM_ID;

/** The form_uploads table: a save fills the owner from the form, as the database's trigger does. */
export function seedUploadSettings(rows: Record<string, unknown>[] = []) {
  supabaseDb.define('form_uploads', {
    insert: (row) => ({ user_id: OWNER_ID, ...row }),
    update: (before, values) => ({ ...before, ...values, user_id: before.user_id }),
  });
  supabaseDb.seed({ form_uploads: rows });
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
