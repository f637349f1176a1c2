// Runs the hostile corpus against the live endpoint: every request gets a clear 4xx, nothing is
// stored, and the function still serves an honest post afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { superuserPool } from '../support/db.ts';
import { hostileCorpus } from './hostile-corpus.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  seedForm,
  storedFor,
  totalEntries,
  type SeededForm,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const corpus = hostileCorpus(ORIGIN);
let pool: pg.Pool;
let form: SeededForm;
let entriesBefore: number;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  await resetRateLimits(pool);
  form = await seedForm(pool);
  entriesBefore = await totalEntries(pool);
});
afterAll(async () => {
  await pool.end();
});

describe('hostile request corpus', () => {
  it('has at least 100 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
  });

  it.each(corpus.map((c) => [c.name, c] as const))('%s → refused', async (_name, c) => {
    const id = c.id ?? form.formId;
    const headers = { ...c.headers };
    if (headers.authorization === 'Bearer ANON') headers.authorization = `Bearer ${stack.anonKey}`;
    const res = await rawRequest(functionUrl(stack.apiUrl, id), {
      method: c.method,
      headers,
      body: c.body,
      chunked: c.chunked,
    });
    if (c.status === null) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status).toBe(c.status);
    }
    // A clear answer: JSON with a machine code for JSON clients (HEAD has no body by definition).
    if (c.status !== null && c.method !== 'HEAD' && c.headers.accept === 'application/json') {
      expect(JSON.parse(res.body)).toMatchObject({
        ok: false,
        code: expect.any(String),
        error: expect.any(String),
      });
    }
    expect(res.headers['content-type'] ?? '').not.toContain('html');
  });

  it('stored nothing, and the function still accepts an honest post', async () => {
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
    expect(await totalEntries(pool)).toBe(entriesBefore);
    const res = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: {
        origin: ORIGIN,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'name=Still&message=serving',
    });
    expect(res.status).toBe(200);
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 1, deliveries: 1 });
  });
});
