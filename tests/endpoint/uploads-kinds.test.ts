// The kinds of file, stated in three places that cannot import each other: the endpoint's
// (supabase/functions/forms/uploads/kinds.ts), the site's (src/config/uploads.ts, which lint keeps
// out of the functions' modules) and the database's checks and default. They must agree, or the
// site would offer a kind the endpoint or the database refuses.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_FILE_KINDS,
  FILE_KIND_LABELS,
  FILE_KINDS as SITE_KINDS,
} from '../../src/config/uploads.ts';
import { DEFAULT_KINDS, FILE_KINDS } from '../../supabase/functions/forms/uploads/kinds.ts';
import { superuserPool } from '../support/db.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(() => pool?.end());

describe('the kinds of file', () => {
  it('are the same, with the same labels, on the site and in the endpoint', () => {
    expect(SITE_KINDS).toEqual(Object.keys(FILE_KINDS));
    for (const kind of SITE_KINDS) expect(FILE_KIND_LABELS[kind]).toBe(FILE_KINDS[kind].label);
    expect([...DEFAULT_FILE_KINDS]).toEqual([...DEFAULT_KINDS]);
  });

  it("are the database's: its checks allow exactly them and its default is the same", async () => {
    const { rows } = await pool.query<{ name: string; def: string }>(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
        where conname in ('form_uploads_kinds', 'entry_files_kind')`,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const listed = [...row.def.matchAll(/'([a-z]+)'::text/g)].map((m) => m[1]);
      expect(listed, row.name).toEqual(SITE_KINDS);
    }
    const { rows: defaults } = await pool.query<{ def: string }>(
      `select column_default as def from information_schema.columns
        where table_schema = 'public' and table_name = 'form_uploads' and column_name = 'kinds'`,
    );
    expect(defaults[0]!.def).toBe(`'{${DEFAULT_KINDS.join(',')}}'::text[]`);
  });
});
