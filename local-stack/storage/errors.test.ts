import { describe, expect, it } from 'vitest';
import { errors, toStorageError } from './errors.ts';

describe("Storage's error answers", () => {
  it('answers HTTP 400 for every error but a 500, the real status in statusCode', () => {
    expect(errors.noSuchKey()).toMatchObject({ httpStatus: 400, statusCode: '404' });
    expect(errors.entityTooLarge()).toMatchObject({ httpStatus: 400, statusCode: '413' });
    expect(errors.internal()).toMatchObject({ httpStatus: 500, statusCode: '500' });
    expect(errors.notServed('X')).toMatchObject({ httpStatus: 501, statusCode: '501' });
  });

  it('maps Postgres errors as Storage does', () => {
    const rls = toStorageError({
      code: '42501',
      message: 'new row violates row-level security policy for table "objects"',
    });
    expect(rls).toMatchObject({
      code: 'AccessDenied',
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect(toStorageError({ code: '23505', message: 'duplicate key' })).toMatchObject({
      code: 'KeyAlreadyExists',
      statusCode: '409',
    });
    expect(toStorageError(new Error('boom'))).toMatchObject({ statusCode: '500' });
  });
});
