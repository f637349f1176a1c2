// Storage's error answers: the body `{statusCode, code, error, message}` with the real status as a
// string in `statusCode`, and HTTP 400 for every error but a 500 (storage/v1's error handler).
import type { ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';

export class StorageError extends Error {
  constructor(
    public statusCode: string,
    public code: string,
    public error: string,
    message: string,
  ) {
    super(message);
  }

  /**
   * The HTTP status Storage answers with: 500 stays 500, anything else is a 400. The local stack's
   * refusal of what it does not serve is a 501, as the gateway's for services it does not run.
   */
  get httpStatus(): number {
    return this.statusCode === '500' || this.statusCode === '501' ? Number(this.statusCode) : 400;
  }
}

export const errors = {
  noSuchBucket: () =>
    new StorageError('404', 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError('404', 'NoSuchKey', 'not_found', 'Object not found'),
  /** `KeyAlreadyExists` for an object, `ResourceAlreadyExists` for a bucket. */
  alreadyExists: (code: 'KeyAlreadyExists' | 'ResourceAlreadyExists') =>
    new StorageError('409', code, 'Duplicate', 'The resource already exists'),
  bucketNotEmpty: () =>
    new StorageError(
      '409',
      'ResourceNotEmpty',
      'Bucket not empty',
      'The bucket you tried to delete is not empty',
    ),
  accessDenied: (message: string) =>
    new StorageError('403', 'AccessDenied', 'Unauthorized', message),
  entityTooLarge: () =>
    new StorageError(
      '413',
      'EntityTooLarge',
      'Payload too large',
      'The object exceeded the maximum allowed size',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      '415',
      'InvalidMimeType',
      'invalid_mime_type',
      `mime type ${mimeType} is not supported`,
    ),
  invalidJwt: (message: string) => new StorageError('400', 'InvalidJWT', 'Invalid JWT', message),
  expiredToken: () =>
    new StorageError('400', 'ExpiredToken', 'Invalid JWT', 'The provided token has expired.'),
  invalidKey: (key: string) =>
    new StorageError('400', 'InvalidKey', 'Invalid Input', `Invalid key: ${key}`),
  invalidBucketName: (name: string) =>
    new StorageError('400', 'InvalidBucketName', 'Invalid Input', `Bucket name invalid: ${name}`),
  invalidRequest: (message: string) =>
    new StorageError('400', 'InvalidRequest', 'Invalid Input', message),
  notServed: (what: string) =>
    new StorageError(
      '501',
      'NotImplemented',
      'not_implemented',
      `${what} is not served by the local stack's Storage (see local-stack/README.md)`,
    ),
  internal: () => new StorageError('500', 'InternalError', 'Internal', 'Internal Server Error'),
};

/** Postgres errors as storage/v1 maps them (`src/storage/database/errors.ts`). */
export function toStorageError(err: unknown): StorageError {
  if (err instanceof StorageError) return err;
  const pgError = err as { code?: string; message?: string };
  if (pgError.code === '42501') {
    // Storage words every RLS refusal alike, without the table's name.
    const rls = pgError.message?.startsWith('new row violates row-level security policy');
    return errors.accessDenied(
      rls ? 'new row violates row-level security policy' : (pgError.message ?? 'Access denied'),
    );
  }
  if (pgError.code === '23505') return errors.alreadyExists('KeyAlreadyExists');
  if (pgError.code === '23503') return errors.noSuchBucket();
  return errors.internal();
}

export function sendStorageError(res: ServerResponse, error: StorageError) {
  sendJson(res, error.httpStatus, {
    statusCode: error.statusCode,
    code: error.code,
    error: error.error,
    message: error.message,
  });
}
