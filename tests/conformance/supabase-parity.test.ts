// The local stack answers as PostgREST and GoTrue do where it serves a feature, and with one
// documented error where it does not (local-stack/README.md): writes that match nothing, unnamed
// RPC parameters, upsert statuses, counts of scalar functions, repeated and filter-only embeds,
// CSV, relationships by column, constraint and self-reference, overloads, the `config.toml`
// settings it reads, and the Auth features it refuses. Fixture tables are created here.
import { readFileSync } from 'node:fs';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/db.ts';
import { signUp } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();

function client(key: string): SupabaseClient {
  return createClient(stack.apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; supabase-js builds its realtime client eagerly.
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}

/** A raw request through the gateway with the service role's key. */
function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${stack.apiUrl}${path}`, {
    ...init,
    headers: {
      apikey: stack.serviceRoleKey,
      Authorization: `Bearer ${stack.serviceRoleKey}`,
      ...init.headers,
    },
  });
}

let db: pg.Pool;
let service: SupabaseClient;

const FIXTURES = `
  drop table if exists public.parity_items, public.parity_parents, public.parity_nodes cascade;
  create table public.parity_parents (id integer primary key, name text not null);
  create table public.parity_items (
    id integer primary key,
    parent_id integer references public.parity_parents (id),
    title text,
    meta jsonb
  );
  create table public.parity_nodes (
    id integer primary key,
    parent_id integer references public.parity_nodes (id),
    name text
  );
  grant select, insert, update, delete on public.parity_parents, public.parity_items,
    public.parity_nodes to anon, authenticated, service_role;
  insert into public.parity_parents values (1, 'one'), (2, 'two');
  insert into public.parity_items values
    (1, 1, 'hello world', '{"a": 1, "b": [1, 2]}'), (2, 1, 'x,y', null), (3, 2, 'q"uote', '"s"');
  insert into public.parity_nodes values (1, null, 'root'), (2, 1, 'child'), (3, 1, 'other child');

  create or replace function public.parity_echo_json(json) returns json
    language sql immutable as 'select $1';
  create or replace function public.parity_echo_text(text) returns text
    language sql immutable as 'select $1';
  create or replace function public.parity_one() returns integer
    language sql immutable as 'select 42';
  create or replace function public.parity_pick() returns integer
    language sql immutable as 'select 0';
  create or replace function public.parity_pick(n integer default 1) returns integer
    language sql immutable as 'select n';
  create or replace function public.parity_kids(public.parity_parents)
    returns setof public.parity_items language sql stable
    as 'select * from public.parity_items where parent_id = $1.id';
  create or replace function public.parity_parents_list() returns setof public.parity_parents
    language sql stable as 'select * from public.parity_parents order by id';
  do $grant$
  declare f regprocedure;
  begin
    for f in select p.oid::regprocedure from pg_proc p
             where p.pronamespace = 'public'::regnamespace and p.proname like 'parity\\_%'
    loop
      execute format('grant execute on function %s to service_role', f);
    end loop;
  end
  $grant$;
  notify pgrst, 'reload schema';
`;

const CLEANUP = `
  drop table if exists public.parity_items, public.parity_parents, public.parity_nodes cascade;
  drop function if exists public.parity_echo_json(json), public.parity_echo_text(text),
    public.parity_one(), public.parity_pick(), public.parity_pick(integer),
    public.parity_parents_list();
  alter role authenticator reset pgrst.db_aggregates_enabled;
  notify pgrst, 'reload schema';
`;

beforeAll(async () => {
  db = new pg.Pool({ connectionString: stack.dbUrl, max: 2 });
  await db.query(FIXTURES);
  service = client(stack.serviceRoleKey);
});

afterAll(async () => {
  await db?.query(CLEANUP);
  await db?.end();
});

describe('writes', () => {
  it('answers 204 to a PATCH or DELETE that matches no row (1)', async () => {
    const update = await service.from('parity_items').update({ title: 'z' }).eq('id', -1);
    expect(update.error).toBeNull();
    expect(update.status).toBe(204);
    const remove = await service.from('parity_items').delete().eq('id', -1);
    expect(remove.error).toBeNull();
    expect(remove.status).toBe(204);
  });

  it('answers 200 to an upsert that only updates, 201 when it inserts (3)', async () => {
    const updated = await service.from('parity_parents').upsert({ id: 1, name: 'one' });
    expect(updated.error).toBeNull();
    expect(updated.status).toBe(200);
    const inserted = await service
      .from('parity_parents')
      .upsert([
        { id: 1, name: 'one' },
        { id: 3, name: 'three' },
      ])
      .select();
    expect(inserted.error).toBeNull();
    expect(inserted.status).toBe(201);
    expect(inserted.data).toHaveLength(2);
    await db.query('delete from public.parity_parents where id = 3');
  });
});

describe('rpc', () => {
  it('passes the body as sent to a single unnamed parameter (2)', async () => {
    const json = await service.rpc('parity_echo_json', { '': { a: 1 } });
    expect(json.error).toBeNull();
    expect(json.data).toEqual({ '': { a: 1 } });
    const text = await service.rpc('parity_echo_text', { '': 'hi' });
    expect(text.error).toBeNull();
    expect(text.data).toBe('{"":"hi"}');
  });

  it('counts a function returning one value as one row (4)', async () => {
    const { data, count, error } = await service.rpc('parity_one', {}, { count: 'exact' });
    expect(error).toBeNull();
    expect(data).toBe(42);
    expect(count).toBe(1);
  });

  it('refuses overloads that match alike with PGRST203, never 42725 (12)', async () => {
    const { error, status } = await service.rpc('parity_pick');
    expect(status).toBe(300);
    expect(error?.code).toBe('PGRST203');
  });
});

describe('reads', () => {
  it('refuses the same embed twice under one name with 42712 (5)', async () => {
    const { error, status } = await service
      .from('parity_items')
      .select('id, parity_parents(name), parity_parents(id)');
    expect(status).toBe(400);
    expect(error?.code).toBe('42712');
    expect(error?.message).toBe(
      'table name "parity_items_parity_parents_1" specified more than once',
    );
  });

  it('leaves an embed without columns out of the rows; it only filters (6)', async () => {
    const all = await service
      .from('parity_items')
      .select('id, parity_parents()')
      .eq('parity_parents.name', 'one')
      .order('id');
    expect(all.error).toBeNull();
    expect(all.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const inner = await service
      .from('parity_items')
      .select('id, parity_parents!inner()')
      .eq('parity_parents.name', 'one')
      .order('id');
    expect(inner.data).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("prints CSV in Postgres' text form, quoted as CSV requires (7)", async () => {
    const { data, error } = await service.from('parity_items').select('*').order('id').csv();
    expect(error).toBeNull();
    expect(data).toBe(
      [
        'id,parent_id,title,meta',
        '1,1,"hello world","{""a"": 1, ""b"": [1, 2]}"',
        '2,1,"x,y",',
        '3,2,"q""uote","""s"""',
      ].join('\n'),
    );
    const none = await service.from('parity_items').select('*').eq('id', -1).csv();
    expect(none.data).toBe('\n');
  });
});

describe('relationships (12)', () => {
  it('embeds through a foreign key named by its column or its constraint', async () => {
    const byColumn = await service.from('parity_items').select('id, parent_id(name)').eq('id', 1);
    expect(byColumn.error).toBeNull();
    expect(byColumn.data).toEqual([{ id: 1, parent_id: { name: 'one' } }]);
    const byConstraint = await service
      .from('parity_items')
      .select('id, parity_items_parent_id_fkey(name)')
      .eq('id', 3);
    expect(byConstraint.data).toEqual([{ id: 3, parity_items_parent_id_fkey: { name: 'two' } }]);
  });

  it('embeds the children of a self-referencing key by the table, the parent by the column', async () => {
    const children = await service
      .from('parity_nodes')
      .select('name, parity_nodes(name)')
      .eq('id', 1);
    expect(children.error).toBeNull();
    expect(children.data).toEqual([
      { name: 'root', parity_nodes: [{ name: 'child' }, { name: 'other child' }] },
    ]);
    const parent = await service.from('parity_nodes').select('name, parent_id(name)').eq('id', 2);
    expect(parent.data).toEqual([{ name: 'child', parent_id: { name: 'root' } }]);
  });

  it('refuses computed relationships and embeds on function rows with PGRST200, saying so', async () => {
    const computed = await service.from('parity_parents').select('id, parity_kids(id)');
    expect(computed.status).toBe(400);
    expect(computed.error?.code).toBe('PGRST200');
    expect(computed.error?.details).toMatch(/computed relationship .*local stack/);
    const onRpc = await service.rpc('parity_parents_list').select('id, parity_items(id)');
    expect(onRpc.status).toBe(400);
    expect(onRpc.error?.code).toBe('PGRST200');
    expect(onRpc.error?.details).toMatch(/rows of a function .*not supported by the local stack/);
  });
});

describe('auth', () => {
  it('refuses a phone number on PUT /user instead of dropping it (8)', async () => {
    const user = await signUp('parity phone');
    const { error } = await user.client.auth.updateUser({ phone: '+15555550100' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('not_implemented');
  });

  it("keeps an admin-created user's metadata as given; refuses a negative page (9)", async () => {
    const admin = client(stack.serviceRoleKey).auth.admin;
    const email = uniqueEmail('parity-admin');
    const { data, error } = await admin.createUser({
      email,
      password: 'correct-horse-9',
      email_confirm: true,
      user_metadata: { name: 'Admin Made' },
    });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toEqual({ name: 'Admin Made' });
    expect(data.user?.identities?.[0].identity_data).toEqual({
      sub: data.user?.id,
      email,
      email_verified: false,
      phone_verified: false,
    });
    const page = await admin.listUsers({ page: -1 });
    expect(page.error?.status).toBe(400);
    expect(page.error?.code).toBe('validation_failed');
  });

  it('answers passkeys and phone verifications with 400 not_implemented (11)', async () => {
    const passkeys = await api('/auth/v1/passkeys/authentication/options', { method: 'POST' });
    expect(passkeys.status).toBe(400);
    expect(await passkeys.json()).toMatchObject({ code: 'not_implemented' });
    for (const type of ['sms', 'phone_change'] as const) {
      const { error } = await client(stack.anonKey).auth.verifyOtp({
        phone: '+15555550100',
        token: '123456',
        type,
      });
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('not_implemented');
    }
  });
});

describe('config.toml and the database configuration (10)', () => {
  it('names the schemas of [api] schemas, and refuses the listed one it does not serve', async () => {
    const other = await api('/rest/v1/parity_items', { headers: { 'Accept-Profile': 'storage' } });
    expect(other.status).toBe(406);
    expect(await other.json()).toMatchObject({
      code: 'PGRST106',
      hint: 'Only the following schemas are exposed: public, graphql_public',
    });
    const graphql = await api('/rest/v1/parity_items', {
      headers: { 'Accept-Profile': 'graphql_public' },
    });
    expect(graphql.status).toBe(406);
    expect((await graphql.json()).hint).toMatch(/graphql_public is listed .* but not served/);
  });

  it('answers anonymous sign-ins as GoTrue does with enable_anonymous_sign_ins = false', async () => {
    const { error } = await client(stack.anonKey).auth.signInAnonymously();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('anonymous_provider_disabled');
  });

  it('publishes an empty JWKS: tokens are HS256 (no signing_keys_path)', async () => {
    const res = await api('/auth/v1/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ keys: [] });
  });

  it('refuses every REST request while an in-database pgrst.* setting is set', async () => {
    const read = () => service.from('parity_parents').select('id').limit(1);
    await db.query(`alter role authenticator set pgrst.db_aggregates_enabled = 'true'`);
    await db.query(`notify pgrst, 'reload config'`);
    await expect.poll(async () => (await read()).error?.code, { timeout: 10_000 }).toBe('PGRST127');
    const refused = await read();
    expect(refused.status).toBe(500);
    expect(refused.error?.details).toContain('pgrst.db_aggregates_enabled = true');
    await db.query(`alter role authenticator reset pgrst.db_aggregates_enabled`);
    await db.query(`notify pgrst, 'reload config'`);
    await expect.poll(async () => (await read()).error, { timeout: 10_000 }).toBeNull();
  });
});

describe('README (13)', () => {
  it('says where the stack is stricter than `supabase start` and than hosted Supabase', () => {
    const readme = readFileSync('local-stack/README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Stricter or looser than Supabase'));
    // The CLI's gateway checks no key and its Auth limits no address: both are hosted Supabase's.
    expect(section).toMatch(/\| API keys at the gateway \| key-auth[^\n]*\| no key-auth/);
    expect(section).toMatch(/\| Auth's per-IP limits[^\n]*\| none per IP/);
  });
});
