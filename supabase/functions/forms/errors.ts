// The endpoint's refusals: one status, machine code and human sentence per kind of failure.
import { LIMITS } from '../_shared/limits.ts';

export type ErrorCode =
  | 'invalid_body'
  | 'origin_not_allowed'
  | 'form_not_found'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'file_uploads_unsupported'
  | 'file_too_large'
  | 'files_too_large'
  | 'too_many_files'
  | 'file_type_not_allowed'
  | 'storage_full'
  | 'invalid_fields'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'unauthorized'
  | 'captcha_required'
  | 'captcha_failed'
  | 'captcha_misconfigured'
  | 'captcha_unavailable'
  | 'storage_failed';

export interface EndpointError {
  status: number;
  code: ErrorCode;
  /** One human sentence, safe to show to the person who submitted the form. */
  error: string;
  /** Per-field problems (422 only): field name → sentence. */
  fields?: Record<string, string>;
  /** Seconds the client should wait before trying again (429 and 503). */
  retryAfter?: number;
  /** The limit a file refusal broke: bytes, or a number of files. */
  limit?: number;
}

/** Bytes as the refusals say them: "5 MB", "2.5 MB", "900 KB" (1 MB = 1 048 576 bytes). */
function megabytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

const fail = (
  status: number,
  code: ErrorCode,
  error: string,
  extra: Pick<EndpointError, 'fields' | 'retryAfter' | 'limit'> = {},
): EndpointError => ({ status, code, error, ...extra });

export const ERRORS = {
  methodNotAllowed: () =>
    fail(405, 'method_not_allowed', 'This endpoint only accepts POST requests.'),
  formNotFound: () => fail(404, 'form_not_found', 'This form does not exist.'),
  notFound: () => fail(404, 'not_found', 'Nothing is served at this address.'),
  originNotAllowed: () =>
    fail(403, 'origin_not_allowed', 'This form does not accept submissions from this website.'),
  unsupportedType: () =>
    fail(
      415,
      'unsupported_media_type',
      'Send the form as application/x-www-form-urlencoded, multipart/form-data or application/json.',
    ),
  fileUpload: () =>
    fail(415, 'file_uploads_unsupported', 'File uploads are not supported; remove the file field.'),
  // A form with uploads on: each names the field and the limit broken; nothing was stored.
  fileTooLarge: (field: string, limit: number) =>
    fail(413, 'file_too_large', `Each file may be at most ${megabytes(limit)}.`, {
      fields: { [field]: `This file is larger than ${megabytes(limit)}.` },
      limit,
    }),
  filesTooLarge: (field: string, limit: number) =>
    fail(413, 'files_too_large', `The files together may be at most ${megabytes(limit)}.`, {
      fields: { [field]: `The files together are larger than ${megabytes(limit)}.` },
      limit,
    }),
  tooManyFiles: (field: string, limit: number) =>
    fail(422, 'too_many_files', `At most ${limit} ${limit === 1 ? 'file' : 'files'} may be sent.`, {
      fields: { [field]: `More than ${limit} ${limit === 1 ? 'file' : 'files'} were attached.` },
      limit,
    }),
  fileTypeNotAllowed: (field: string) =>
    fail(415, 'file_type_not_allowed', 'This form does not accept files of this type.', {
      fields: { [field]: 'This type of file is not accepted here.' },
    }),
  // The owner's storage is full: the visitor cannot help it; nothing was stored.
  storageFull: () =>
    fail(
      413,
      'storage_full',
      "This form's file storage is full, so your message and its files were not stored. Please contact the site owner another way.",
    ),
  // A post naming a direct upload's entry: one this form never handed out (or whose post is not
  // pending any more), or a file announced for it that never reached Storage.
  uploadsEntryUnknown: () =>
    fail(
      400,
      'invalid_body',
      'The uploaded files this post names are not known to this form; upload them again.',
    ),
  fileMissing: (field: string, name: string) =>
    fail(400, 'invalid_body', `The file "${name}" was announced but not uploaded; send it again.`, {
      fields: { [field]: 'This file was not uploaded.' },
    }),
  tooLarge: (detail: string) => fail(413, 'payload_too_large', detail),
  bodyTooLarge: () =>
    fail(413, 'payload_too_large', `The body is larger than ${LIMITS.maxBodyBytes} bytes.`),
  invalidBody: (detail: string) => fail(400, 'invalid_body', detail),
  invalidFields: (fields: Record<string, string>) =>
    fail(422, 'invalid_fields', 'Some fields are not valid.', { fields }),
  emptySubmission: () => fail(422, 'invalid_fields', 'The submission is empty.', { fields: {} }),
  rateLimited: (retryAfter: number) =>
    fail(429, 'rate_limited', 'Too many submissions from your network; please try again later.', {
      retryAfter,
    }),
  // The form's owner has used every submission their plan allows this month (a visitor cannot do
  // anything about it; Retry-After says when the count starts again). Nothing was stored.
  quotaExceeded: (retryAfter: number) =>
    fail(
      429,
      'quota_exceeded',
      "This form has received all the messages its owner's plan allows this month, so yours was not stored. Please contact the site owner another way, or try again next month.",
      { retryAfter },
    ),
  unauthorized: () => fail(401, 'unauthorized', 'A service-role bearer token is required.'),
  captchaRequired: () =>
    fail(400, 'captcha_required', 'Please complete the CAPTCHA, then send the form again.'),
  captchaFailed: () =>
    fail(
      403,
      'captcha_failed',
      'The CAPTCHA could not be verified (it may have expired); please complete it again and resend.',
    ),
  // The owner's keys, not the visitor: retrying does not help until the owner fixes them.
  captchaMisconfigured: () =>
    fail(
      500,
      'captcha_misconfigured',
      "This form's CAPTCHA is not set up correctly; the site owner needs to check its keys.",
    ),
  captchaUnavailable: () =>
    fail(
      503,
      'captcha_unavailable',
      'The CAPTCHA could not be checked right now; please try again in a moment.',
      { retryAfter: 5 },
    ),
  storageFailed: () =>
    fail(
      503,
      'storage_failed',
      'The submission could not be saved; please try again in a moment.',
      {
        retryAfter: 5,
      },
    ),
} as const;
