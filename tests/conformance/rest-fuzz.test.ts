// Fuzzes /rest/v1 through the gateway with real Postgres behind it: random `select`, filter,
// logic-tree and `order` strings (tests/support/rest-query-fuzz.ts) sent as anon, as reads and as
// writes that roll back. None answers a 5xx, none reaches Postgres as broken SQL (a syntax error
// would mean request text became part of the statement), no row of pg_roles, auth.users or an
// RLS-hidden table ever comes back, and nothing changes. `FUZZ_RUNS` (÷ 20) sets the request count.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryArb, type FuzzSchema } from '../support/rest-query-fuzz.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const RUNS = process.env.FUZZ_RUNS ? Math.ceil(Number(process.env.FUZZ_RUNS) / 20) : 150;

const CANARY_EMAIL = `rest-fuzz-canary-${randomUUID()}@example.test`;
const CANARY_SECRET = `rest-fuzz-secret-${randomUUID()}`;
/** Text that may only come back if a request read what anon must never read. */
const FORBIDDEN = [
  CANARY_EMAIL,
  CANARY_SECRET,
  'pg_read_all_data',
  'pg_signal_backend',
  'supabase_auth_admin',
];
/** Errors that mean the statement was not the one the planner meant to write. */
const BROKEN_SQL = new Set(['42601', '42P18', '08P01', '0A000']);

const FIXTURES = `
  drop table if exists public.rest_fuzz_tags, public.rest_fuzz_items, public.rest_fuzz_parents,
    public.rest_fuzz_secret cascade;
  create table public.rest_fuzz_parents (id int primary key, name text not null);
  create table public.rest_fuzz_items (
    id int primary key,
    title text not null,
    qty int,
    meta jsonb,
    parent_id int references public.rest_fuzz_parents (id)
  );
  create table public.rest_fuzz_tags (
    id int primary key,
    item_id int references public.rest_fuzz_items (id),
    label text
  );
  insert into public.rest_fuzz_parents values (1, 'one'), (2, 'two');
  insert into public.rest_fuzz_items values
    (1, 'apple', 3, '{"a": {"b": 1}, "k": [1, 2]}', 1), (2, 'banana', null, null, 2);
  insert into public.rest_fuzz_tags values (1, 1, 'red'), (2, 1, 'round');
  grant select, insert, update, delete
    on public.rest_fuzz_parents, public.rest_fuzz_items, public.rest_fuzz_tags to anon;
  create table public.rest_fuzz_secret (id int primary key, secret text);
  insert into public.rest_fuzz_secret values (1, '${CANARY_SECRET}');
  alter table public.rest_fuzz_secret enable row level security;
  grant select on public.rest_fuzz_secret to anon;
  notify pgrst, 'reload schema';
`;

const schema: FuzzSchema = {
  columns: ['id', 'title', 'qty', 'meta', 'parent_id', 'name', 'label', 'secret', 'nope'],
  embeddable: ['rest_fuzz_parents', 'rest_fuzz_tags'],
  relations: ['rest_fuzz_parents', 'rest_fuzz_tags', 'rest_fuzz_items', 'rest_fuzz_secret', 'nope'],
};

let db: pg.Pool;
let userId: string;

/** Everything a request could have changed, to compare before and after the run. */
async function fingerprint() {
  const { rows } = await db.query(`
    select (select json_agg(t order by id) from public.rest_fuzz_items t) as items,
           (select json_agg(t order by id) from public.rest_fuzz_parents t) as parents,
           (select json_agg(t order by id) from public.rest_fuzz_tags t) as tags,
           (select count(*) from pg_roles) as roles,
           (select count(*) from auth.users) as users,
           (select count(*) from pg_class where relnamespace = 'public'::regnamespace) as relations`);
  return rows[0];
}

beforeAll(async () => {
  db = new pg.Pool({ connectionString: stack.dbUrl, max: 2 });
  await db.query(FIXTURES);
  userId = randomUUID();
  await db.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
    [userId, CANARY_EMAIL],
  );
});

afterAll(async () => {
  await db.query(
    `drop table if exists public.rest_fuzz_tags, public.rest_fuzz_items, public.rest_fuzz_parents,
       public.rest_fuzz_secret cascade;
     notify pgrst, 'reload schema';`,
  );
  await db.query('delete from auth.users where id = $1', [userId]);
  await db.end();
});

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';

function send(method: Method, table: string, pairs: [string, string][]) {
  const headers: Record<string, string> = {
    apikey: stack.anonKey,
    'content-type': 'application/json',
    // Writes run, answer, and are rolled back (supabase-js `.rollback()`).
    prefer: 'tx=rollback, return=representation, count=exact',
  };
  let body: string | undefined;
  if (method === 'POST') {
    headers.prefer += ', resolution=merge-duplicates';
    body = JSON.stringify([{ id: 100, title: 'fuzz' }]);
  } else if (method === 'PATCH') body = JSON.stringify({ title: 'fuzzed' });
  return fetch(`${stack.apiUrl}/rest/v1/${table}?${new URLSearchParams(pairs)}`, {
    method,
    headers,
    body,
  });
}

describe('/rest/v1 under random queries, as anon', () => {
  it(
    'never answers 5xx, never runs broken SQL, never returns what anon must not read',
    async () => {
      const before = await fingerprint();
      const method = fc.constantFrom<Method>(
        'GET',
        'GET',
        'GET',
        'HEAD',
        'POST',
        'PATCH',
        'DELETE',
      );
      const table = fc.constantFrom('rest_fuzz_items', 'rest_fuzz_items', 'rest_fuzz_secret');
      await fc.assert(
        fc.asyncProperty(method, table, queryArb(schema), async (m, t, pairs) => {
          const res = await send(m, t, pairs);
          const text = await res.text();
          const context = `${m} /${t}?${new URLSearchParams(pairs)} → ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, context).toBeLessThan(500);
          for (const forbidden of FORBIDDEN) expect(text, context).not.toContain(forbidden);
          if (res.status >= 400 && text) {
            const error = JSON.parse(text) as { code?: string };
            expect(BROKEN_SQL.has(error.code ?? ''), context).toBe(false);
          }
        }),
        { numRuns: RUNS },
      );
      expect(await fingerprint()).toEqual(before);
    },
    Math.max(30_000, RUNS * 200),
  );
});
