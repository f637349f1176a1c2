// PostgREST's SQLSTATE → HTTP status mapping and error shape.
import { describe, expect, it } from 'vitest';
import { RestError, statusForSqlState, toRestError } from './errors.ts';

describe('statusForSqlState', () => {
  it.each([
    ['23505', 'duplicate key', true, 409],
    ['23503', 'fk', true, 409],
    ['23502', 'null value', true, 400],
    ['23514', 'check', true, 400],
    ['22P02', 'invalid input', true, 400],
    ['P0001', 'raised', true, 400],
    ['42P01', 'relation does not exist', true, 404],
    ['42883', 'operator does not exist', true, 404],
    ['25006', 'read-only transaction', true, 405],
    ['42501', 'permission denied', true, 403],
    ['42501', 'permission denied', false, 401],
    ['22023', 'role "x" does not exist', true, 401],
    ['22023', 'invalid parameter', true, 400],
    ['21000', 'DELETE requires a WHERE clause', true, 400],
    ['21000', 'more than one row returned by a subquery', true, 500],
    ['42P17', 'infinite recursion', true, 500],
    ['08006', 'connection failure', true, 503],
    ['53300', 'too many connections', true, 503],
    ['57014', 'canceling statement due to statement timeout', true, 500],
    ['PT418', 'teapot', true, 418],
    ['28000', 'invalid authorization', true, 403],
    ['42703', 'column does not exist', true, 400],
  ])('%s (%s, authed %s) → %i', (code, message, authed, status) => {
    expect(statusForSqlState(code, message, authed)).toBe(status);
  });
});

describe('toRestError', () => {
  it('keeps all four keys of a database error and asks anon to authenticate', () => {
    const pgError = Object.assign(new Error('permission denied for table t'), { code: '42501' });
    const err = toRestError(pgError, false);
    expect(err.status).toBe(401);
    expect(err.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(err.body()).toEqual({
      code: '42501',
      message: 'permission denied for table t',
      details: null,
      hint: null,
    });
  });

  it('passes RestErrors through and turns other failures into 503 PGRST000', () => {
    const own = new RestError(406, 'PGRST116', 'x');
    expect(toRestError(own, true)).toBe(own);
    expect(toRestError(new TypeError('x is undefined'), true)).toMatchObject({
      status: 500,
      code: 'PGRSTX00',
    });
    const lost = toRestError(new Error('Connection terminated unexpectedly'), true);
    expect(lost.status).toBe(503);
    expect(lost.code).toBe('PGRST000');
  });
});
