// Security regressions of the local REST stand-in: a hostile `select` cannot freeze the stack, a
// cast cannot carry SQL, a NUL byte in a name is PostgREST's 400, and the REST pool logs in as
// `authenticator` (no superuser rights, NOINHERIT), so SQL smuggled into a request could never
// become the superuser — while roles, their statement timeouts and service_role's RLS bypass
// still work as on Supabase. Fixture tables and functions are created here.
import { randomUUID } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const REST = `${stack.apiUrl}/rest/v1`;

const FIXTURES = `
  drop table if exists public.rest_security_items, public.rest_security_private cascade;
  create table public.rest_security_items (id int primary key, title text not null);
  insert into public.rest_security_items values (1, 'Apple'), (2, 'Banana');
  grant select on public.rest_security_items to anon, authenticated, service_role;

  -- RLS on and no policy: nobody but a BYPASSRLS role reads it.
  create table public.rest_security_private (id int primary key, secret text not null);
  insert into public.rest_security_private values (1, 'only-for-the-service-role');
  alter table public.rest_security_private enable row level security;
  grant select on public.rest_security_private to anon, authenticated, service_role;

  -- Who the request runs as: the role, the session, the login that opened the connection.
  create or replace function public.rest_security_whoami() returns json
  language sql as $$
    select json_build_object(
      'current_user', current_user,
      'session_user', session_user,
      'login', (select usename from pg_stat_activity where pid = pg_backend_pid()),
      'is_superuser', current_setting('is_superuser'),
      'statement_timeout', current_setting('statement_timeout'))
  $$;

  -- What smuggled SQL would try: become the superuser the connection logged in as.
  create or replace function public.rest_security_escalate() returns text
  language plpgsql as $$
  begin
    execute 'set local session authorization postgres';
    return current_setting('is_superuser');
  end
  $$;
  notify pgrst, 'reload schema';
`;

let db: pg.Pool;

beforeAll(async () => {
  db = new pg.Pool({ connectionString: stack.dbUrl, max: 2 });
  await db.query(FIXTURES);
});

afterAll(async () => {
  await db.query(
    `drop table if exists public.rest_security_items, public.rest_security_private cascade;
     drop function if exists public.rest_security_whoami(), public.rest_security_escalate();
     notify pgrst, 'reload schema';`,
  );
  await db.end();
});

async function mint(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

function client(key: string, token?: string) {
  return createClient(stack.apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
    global: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  });
}

/** A GET as anon through the gateway, with the query string written exactly as given. */
function get(pathAndQuery: string, init: RequestInit = {}) {
  return fetch(`${REST}${pathAndQuery}`, {
    ...init,
    headers: { apikey: stack.anonKey, ...(init.headers as Record<string, string>) },
  });
}

const POSTGREST_ERROR_KEYS = ['code', 'details', 'hint', 'message'];

describe('a select the old parser took seconds over', () => {
  it('answers `id` + 3 000 `+` + `"` with 400 at once, and other requests meanwhile', async () => {
    const payload = `/rest_security_items?select=id${'+'.repeat(3_000)}%22`;
    // Each of these blocked the shared event loop for ~7.5 s; together they would outlast the
    // deadline below many times over, and the plain read sent beside them would wait as long.
    const deadline = () => AbortSignal.timeout(10_000);
    const hostile = Array.from({ length: 5 }, () => get(payload, { signal: deadline() }));
    const plain = get('/rest_security_items?select=id&order=id', { signal: deadline() });
    for (const res of await Promise.all(hostile)) {
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(POSTGREST_ERROR_KEYS);
      expect(body.code).toBe('PGRST100');
    }
    const res = await plain;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 1 }, { id: 2 }]);
  });
});

describe('casts in select', () => {
  it('refuses the cast that read pg_roles as anon, and returns none of its rows', async () => {
    const select =
      'rolname,rolsuper::text from pg_roles as rest_security_items union all select title,"a\\"":title';
    const res = await get(`/rest_security_items?select=${encodeURIComponent(select)}`);
    const text = await res.text();
    // The cast is one quoted type name now, unknown to Postgres (as are the columns).
    expect(res.status).toBe(400);
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(POSTGREST_ERROR_KEYS);
    for (const role of ['pg_read_all_data', 'pg_signal_backend', 'authenticator', 'postgres"']) {
      expect(text).not.toContain(role);
    }
  });

  it.each([
    ['a quoted type', 'title::"text"'],
    ['a type with a length', 'title::varchar(3)'],
    ['a type followed by a parenthesis', 'title::text)'],
    ['a cast with a quote', `title::text'`],
  ])('refuses %s with PGRST100', async (_, select) => {
    const res = await get(`/rest_security_items?select=${encodeURIComponent(select)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'PGRST100' });
  });

  it('still casts to type names and SQL keywords, as PostgREST does', async () => {
    const { data, error } = await client(stack.anonKey)
      .from('rest_security_items')
      .select('id::text, n:id::bigint, initial:title::char, t:title::VARCHAR, d:id::decimal')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: '1', n: 1, initial: 'A', t: 'Apple', d: 1 },
      { id: '2', n: 2, initial: 'B', t: 'Banana', d: 2 },
    ]);
  });
});

describe('a NUL byte in a name', () => {
  it.each([
    ['a selected column', '/rest_security_items?select=id%00x'],
    ['an alias', '/rest_security_items?select=%22a%00%22:id'],
    ['a filtered column', '/rest_security_items?id%00=eq.1'],
    ['a column in or=', '/rest_security_items?or=(id%00.eq.1)'],
    ['an ordered column', '/rest_security_items?order=id%00'],
    ['a JSON key', '/rest_security_items?select=title->%22a%00%22'],
  ])('in %s is a 400 in PostgREST’s shape', async (_, target) => {
    const res = await get(target);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(POSTGREST_ERROR_KEYS);
    expect(body).toMatchObject({ code: 'PGRST100', details: 'a name must not contain a NUL byte' });
  });

  it('in the columns of an insert is a 400 too, and nothing is written', async () => {
    const res = await fetch(`${REST}/rest_security_items?columns=id,title%00`, {
      method: 'POST',
      headers: {
        apikey: stack.serviceRoleKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ id: 3, title: 'Cherry' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'PGRST100' });
    const { rows } = await db.query('select count(*)::int as n from public.rest_security_items');
    expect(rows[0].n).toBe(2);
  });
});

describe('the REST pool’s login', () => {
  it('is `authenticator`, not a superuser, whichever role the request has', async () => {
    const cases: [string, string | undefined, string, string][] = [
      ['anon', undefined, 'anon', '3s'],
      [
        'authenticated',
        await mint({ role: 'authenticated', sub: randomUUID() }),
        'authenticated',
        '8s',
      ],
      ['service_role', stack.serviceRoleKey, 'service_role', '0'],
    ];
    for (const [label, token, role, timeout] of cases) {
      const { data, error } = await client(stack.anonKey, token).rpc('rest_security_whoami');
      expect(error, label).toBeNull();
      expect(data, label).toEqual({
        current_user: role,
        session_user: 'authenticator',
        login: 'authenticator',
        is_superuser: 'off',
        // The role's own `statement_timeout` (Supabase's anon 3s, authenticated 8s) still applies.
        statement_timeout: timeout,
      });
    }
    const { rows } = await db.query<{ rolsuper: boolean; rolinherit: boolean }>(
      `select rolsuper, rolinherit from pg_roles where rolname = 'authenticator'`,
    );
    expect(rows).toEqual([{ rolsuper: false, rolinherit: false }]);
  });

  it('cannot become the superuser from inside a request', async () => {
    const asAnon = await client(stack.anonKey).rpc('rest_security_escalate');
    expect(asAnon.data).toBeNull();
    expect(asAnon.error).toMatchObject({ code: '42501' });
    expect(asAnon.status).toBe(401);
    const asService = await client(stack.serviceRoleKey).rpc('rest_security_escalate');
    expect(asService.data).toBeNull();
    expect(asService.error).toMatchObject({ code: '42501' });
    expect(asService.status).toBe(403);
  });

  it('still lets service_role bypass RLS, and only service_role', async () => {
    const anon = await client(stack.anonKey).from('rest_security_private').select('secret');
    expect(anon).toMatchObject({ error: null, data: [] });
    const service = await client(stack.serviceRoleKey)
      .from('rest_security_private')
      .select('secret');
    expect(service).toMatchObject({ error: null, data: [{ secret: 'only-for-the-service-role' }] });
  });

  it('refuses a token claiming a role not granted to `authenticator`', async () => {
    const token = await mint({ role: 'supabase_auth_admin' });
    const { data, error, status } = await client(stack.anonKey, token)
      .from('rest_security_items')
      .select('id');
    expect(data).toBeNull();
    expect(error).toMatchObject({ code: '42501' });
    expect(status).toBe(403);
  });
});
