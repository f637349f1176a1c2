// Custom fields through the real parts (HTTP, the forms function on Deno, Postgres): a post's
// fields besides name, e-mail and message are stored with the order they were sent in
// (entries.field_order; jsonb alone would reorder them), a repeated name as a list, and their
// values are in the inbox's search text, bounded; entries written without an order get one
// completed from their data.
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { superuserPool } from '../support/db.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  seedForm,
  urlencoded,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
const owners: string[] = [];

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [owners]);
  await pool?.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

interface StoredEntry {
  data: Record<string, unknown>;
  field_order: string[] | null;
  search_text: string;
}

async function post(formId: string, fields: [string, string][], json = false) {
  const res = await rawRequest(functionUrl(stack.apiUrl, formId), {
    headers: {
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'application/json',
    },
    body: json ? JSON.stringify(Object.fromEntries(fields)) : urlencoded(fields),
  });
  expect(res.status, res.body).toBe(200);
  const id = (JSON.parse(res.body) as { id: string }).id;
  const { rows } = await pool.query<StoredEntry>(
    'select data, field_order, search_text from public.entries where id = $1',
    [id],
  );
  return rows[0]!;
}

describe('custom fields', () => {
  it('keeps the order sent, a repeated field as a list, and makes the values searchable', async () => {
    const form = await seedForm(pool, 'Pizza order');
    owners.push(form.userId);
    const entry = await post(form.formId, [
      ['zeta_last_letter', 'Zebra crossing'],
      ['name', 'Ada'],
      ['company', 'Analytical Engines Ltd'],
      ['topping', 'Olives'],
      ['2', 'a numeric name'],
      ['message', 'Hello'],
      ['topping', 'Basil'],
      ['a', 'short key'],
    ]);
    // jsonb alone orders keys by length: a, 2, ..., never as sent.
    expect(Object.keys(entry.data)).not.toEqual([
      'zeta_last_letter',
      'company',
      'topping',
      '2',
      'a',
    ]);
    expect(entry.field_order).toEqual(['zeta_last_letter', 'company', 'topping', '2', 'a']);
    expect(entry.data).toEqual({
      zeta_last_letter: 'Zebra crossing',
      company: 'Analytical Engines Ltd',
      topping: ['Olives', 'Basil'],
      2: 'a numeric name',
      a: 'short key',
    });
    expect(entry.search_text).toContain('analytical engines ltd');
    expect(entry.search_text).toContain('basil');
    expect(entry.search_text).toContain('zebra crossing');
    expect(entry.search_text).toMatch(/^ada /);
  });

  it('keeps the order of a JSON body too', async () => {
    const form = await seedForm(pool, 'JSON order');
    owners.push(form.userId);
    const entry = await post(
      form.formId,
      [
        ['plan', 'Pro'],
        ['email', 'ada@example.com'],
        ['b', 'second'],
      ],
      true,
    );
    expect(entry.field_order).toEqual(['plan', 'b']);
  });

  it('bounds the values in the search text', async () => {
    const form = await seedForm(pool, 'Long fields');
    owners.push(form.userId);
    const long = 'x'.repeat(900);
    const fields: [string, string][] = [['message', 'Hi']];
    for (let i = 0; i < 12; i += 1) fields.push([`field${i}`, `${long}${i}`]);
    const entry = await post(form.formId, fields);
    // Each value cut at 500 characters, 4000 characters of values in all.
    expect(entry.search_text.length).toBeLessThanOrEqual(' hi'.length + 2 + 4000 + 2);
    expect(entry.search_text).not.toContain('x'.repeat(501));
  });

  it('completes the order of an entry written without one, and ignores names it lacks', async () => {
    const form = await seedForm(pool, 'Direct writes');
    owners.push(form.userId);
    const { rows } = await pool.query<StoredEntry>(
      `insert into public.entries (form_id, data, field_order)
       values ($1, '{"bb": "2", "a": "1", "ccc": ["x", "y"]}', '{ccc, nope, ccc}')
       returning data, field_order, search_text`,
      [form.formId],
    );
    expect(rows[0]!.field_order).toEqual(['ccc', 'a', 'bb']);
    expect(rows[0]!.search_text).toContain('x y');
    const plain = await pool.query<StoredEntry>(
      `insert into public.entries (form_id, message) values ($1, 'no fields')
       returning data, field_order, search_text`,
      [form.formId],
    );
    expect(plain.rows[0]!.field_order).toEqual([]);
  });
});
