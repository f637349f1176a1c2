// The read API through the real parts: keys created by two real users through Auth and the
// create_api_key() RPC, the `forms-api` function on real Deno behind the gateway, Postgres with
// the real migrations. Read-only keys list forms and page through entries and cannot delete;
// read-write keys delete their owner's entries only; revoked, unknown and malformed keys get one
// and the same 401; another owner's key never sees these forms; each key is rate-limited, and an
// account as a whole too (more keys are no more requests); revoked keys are purged by the sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { API_KEYS } from '../../supabase/functions/_shared/limits.ts';
import { superuserPool } from '../support/db.ts';
import {
  createForm,
  serviceClient,
  serviceInsertEntry,
  signUp,
  type TestUser,
} from '../support/supabase-users.ts';
import { freshMinute, rawRequest } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const apiUrl = (path: string) => `${stack.apiUrl}/functions/v1/forms-api${path}`;

let pool: pg.Pool;
let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
/** Accounts of their own for the rate-limit tests, so their minutes are theirs alone. */
const limitedUsers: TestUser[] = [];
let aliceForm: string;
let aliceBigForm: string;
let bobForm: string;
/** Alice's entries in aliceForm, in the API's order (created_at, then id). */
let aliceEntries: { id: string; created_at: string }[];
const keys = { aliceRead: '', aliceWrite: '', bobWrite: '', revoked: '' };

async function createKey(user: TestUser, name: string, scope: 'read_only' | 'read_write') {
  const { data, error } = await user.client.rpc('create_api_key', {
    p_name: name,
    p_scope: scope,
  });
  if (error) throw error;
  return data as { id: string; key: string; prefix: string };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function get(path: string, key: string, method = 'GET'): Promise<Answer> {
  const res = await fetch(apiUrl(path), { method, headers: { authorization: `Bearer ${key}` } });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    headers: res.headers,
  };
}

const entryIds = (answer: Answer) => (answer.body.entries as { id: string }[]).map((e) => e.id);

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  service = serviceClient();
  [alice, bob] = await Promise.all([signUp('Alice Api'), signUp('Bob Api')]);
  [aliceForm, aliceBigForm, bobForm] = await Promise.all([
    createForm(alice.client, 'Contact'),
    createForm(alice.client, 'Busy'),
    createForm(bob.client, 'Bob form'),
  ]);
  // Seven entries a second apart, two of them sharing a timestamp (the id breaks the tie).
  const base = Date.parse('2026-11-20T10:00:00Z');
  const times = [0, 1, 2, 3, 3, 4, 5].map((s) => new Date(base + s * 1000).toISOString());
  const inserted = [];
  for (const [i, created_at] of times.entries())
    inserted.push(
      await serviceInsertEntry<{ id: string; created_at: string }>(service, aliceForm, {
        name: `Visitor ${i}`,
        created_at,
      }),
    );
  aliceEntries = inserted.sort((a, b) =>
    a.created_at === b.created_at ? a.id.localeCompare(b.id) : a.created_at < b.created_at ? -1 : 1,
  );
  await pool.query(
    `insert into public.entries (form_id, name) select $1, 'Bulk ' || g from generate_series(1, $2) g`,
    [aliceBigForm, API_KEYS.maxPageSize + 5],
  );
  await serviceInsertEntry(service, bobForm, { name: 'Bob visitor' });

  const [aliceRead, aliceWrite, bobWrite, revoked] = await Promise.all([
    createKey(alice, 'CRM', 'read_only'),
    createKey(alice, 'Cleanup job', 'read_write'),
    createKey(bob, 'Bob job', 'read_write'),
    createKey(alice, 'Old laptop', 'read_only'),
  ]);
  Object.assign(keys, {
    aliceRead: aliceRead.key,
    aliceWrite: aliceWrite.key,
    bobWrite: bobWrite.key,
    revoked: revoked.key,
  });
  const { data: revokedNow, error } = await alice.client.rpc('revoke_api_key', {
    p_id: revoked.id,
  });
  expect(error).toBeNull();
  expect(revokedNow).toBe(true);
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(apiUrl('/forms'), { method: 'OPTIONS' });
  expect(res.status, res.body).toBe(204);
}, 120_000);

afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id, ...limitedUsers.map((u) => u.id)].filter(Boolean),
  ]);
  await pool?.end();
});

describe('a read-only key', () => {
  it("lists its owner's forms, and no one else's", async () => {
    const answer = await get('/forms', keys.aliceRead);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const forms = answer.body.forms as { id: string; name: string }[];
    expect(forms.map((f) => f.id).sort()).toEqual([aliceForm, aliceBigForm].sort());
    expect(forms.find((f) => f.id === aliceForm)?.name).toBe('Contact');
  });

  it('pages through every entry once, in order, with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const answer = await get(`/forms/${aliceForm}/entries${query}`, keys.aliceRead);
      expect(answer.status).toBe(200);
      seen.push(...entryIds(answer));
      pages++;
      cursor = answer.body.next_cursor as string;
      if (!answer.body.has_more) break;
      expect(pages).toBeLessThan(5);
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(aliceEntries.map((e) => e.id));

    // The last cursor is kept for later: only what arrived since comes back.
    const later = await serviceInsertEntry<{ id: string }>(service, aliceForm, {
      name: 'Later',
      created_at: '2026-11-20T11:00:00Z',
    });
    const next = await get(`/forms/${aliceForm}/entries?cursor=${cursor}`, keys.aliceRead);
    expect(entryIds(next)).toEqual([later.id]);
    const none = await get(
      `/forms/${aliceForm}/entries?cursor=${String(next.body.next_cursor)}`,
      keys.aliceRead,
    );
    expect(none.body).toMatchObject({
      entries: [],
      has_more: false,
      next_cursor: next.body.next_cursor,
    });
    await pool.query('delete from public.entries where id = $1', [later.id]);
  });

  it('starts at `since`, and caps `limit` at the largest page', async () => {
    const since = await get(
      `/forms/${aliceForm}/entries?since=2026-11-20T10:00:03Z`,
      keys.aliceRead,
    );
    expect(entryIds(since)).toEqual(aliceEntries.slice(3).map((e) => e.id));
    const shared = (since.body.entries as { name: string; email: string; data: unknown }[])[0];
    expect(shared).toMatchObject({ email: 'visitor@example.test', data: {} });

    const capped = await get(`/forms/${aliceBigForm}/entries?limit=100000`, keys.aliceRead);
    expect(capped.status).toBe(200);
    expect(entryIds(capped)).toHaveLength(API_KEYS.maxPageSize);
    expect(capped.body.has_more).toBe(true);

    const bad = await get(`/forms/${aliceForm}/entries?limit=0&since=tomorrow`, keys.aliceRead);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ok: false,
      code: 'invalid_query',
      fields: { limit: expect.any(String), since: expect.any(String) },
    });
  });

  it('answers 400, not a 503 to retry, to `since` and cursors Postgres cannot hold', async () => {
    const id = aliceEntries[0]!.id;
    const cursor = (createdAt: string) =>
      Buffer.from(`v1|${createdAt}|${id}`).toString('base64url');
    for (const [query, field] of [
      ['since=0000-01-01', 'since'],
      ['since=10000-01-01', 'since'],
      ['since=9999-12-31T23:00:00-05:00', 'since'],
      [`cursor=${cursor('0000-01-01T00:00:00+00:00')}`, 'cursor'],
      [`cursor=${cursor('2026-02-31T10:00:00+00:00')}`, 'cursor'],
    ]) {
      const answer = await get(`/forms/${aliceForm}/entries?${query}`, keys.aliceRead);
      expect(answer.status, `${query}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.headers.get('retry-after')).toBeNull();
      expect(answer.body).toEqual({
        ok: false,
        code: 'invalid_query',
        error: expect.any(String),
        fields: { [field]: expect.any(String) },
      });
    }
    // The first moment of year 1 is served (nothing that old: every entry).
    const oldest = await get(`/forms/${aliceForm}/entries?since=0001-01-01`, keys.aliceRead);
    expect(oldest.status).toBe(200);
    expect(entryIds(oldest)).toEqual(aliceEntries.map((e) => e.id));
  });

  it('cannot delete an entry', async () => {
    const target = aliceEntries[0]!.id;
    const answer = await get(`/forms/${aliceForm}/entries/${target}`, keys.aliceRead, 'DELETE');
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ ok: false, code: 'insufficient_scope' });
    const { rowCount } = await pool.query('select 1 from public.entries where id = $1', [target]);
    expect(rowCount).toBe(1);
  });

  it('shows its owner when it was last used, and never its hash', async () => {
    const { data, error } = await alice.client
      .from('api_keys')
      .select('name, scope, prefix, last_used_at, revoked_at')
      .eq('name', 'CRM')
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ scope: 'read_only', prefix: keys.aliceRead.slice(0, 12) });
    expect(data!.last_used_at).not.toBeNull();
    const hash = await alice.client.from('api_keys').select('key_hash');
    expect(hash.error?.code).toBe('42501');
  });
});

describe('a read-write key', () => {
  it("deletes its owner's entry, once", async () => {
    const target = await serviceInsertEntry<{ id: string }>(service, aliceForm, {
      name: 'Delete me',
    });
    const path = `/forms/${aliceForm}/entries/${target.id}`;
    const answer = await get(path, keys.aliceWrite, 'DELETE');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, id: target.id });
    const { rowCount } = await pool.query('select 1 from public.entries where id = $1', [
      target.id,
    ]);
    expect(rowCount).toBe(0);
    const again = await get(path, keys.aliceWrite, 'DELETE');
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('entry_not_found');
  });
});

describe("another owner's key", () => {
  it('never sees these forms nor their entries, and cannot delete them', async () => {
    const forms = await get('/forms', keys.bobWrite);
    expect((forms.body.forms as { id: string }[]).map((f) => f.id)).toEqual([bobForm]);

    const entries = await get(`/forms/${aliceForm}/entries`, keys.bobWrite);
    expect(entries.status).toBe(404);
    expect(entries.body).toEqual({
      ok: false,
      code: 'form_not_found',
      error: 'This form does not exist.',
      fields: {},
    });
    // The same answer as for a form that exists nowhere.
    const nowhere = await get(`/forms/${crypto.randomUUID()}/entries`, keys.bobWrite);
    expect(nowhere).toMatchObject({ status: 404, body: entries.body });

    const target = aliceEntries[1]!.id;
    const removal = await get(`/forms/${aliceForm}/entries/${target}`, keys.bobWrite, 'DELETE');
    expect(removal.status).toBe(404);
    const { rowCount } = await pool.query('select 1 from public.entries where id = $1', [target]);
    expect(rowCount).toBe(1);
    // Nor can an owner reach another owner's entry through her own form's path.
    const bobEntry = await pool.query<{ id: string }>(
      'select id from public.entries where form_id = $1',
      [bobForm],
    );
    const crossed = await get(
      `/forms/${aliceForm}/entries/${bobEntry.rows[0]!.id}`,
      keys.aliceWrite,
      'DELETE',
    );
    expect(crossed.status).toBe(404);
  });
});

describe('refused keys', () => {
  const unauthorized = async (headers: Record<string, string>) => {
    const res = await rawRequest(apiUrl('/forms'), { method: 'GET', headers });
    return { status: res.status, body: res.body, auth: res.headers['www-authenticate'] };
  };

  it('answer a revoked key exactly as an unknown one: 401', async () => {
    const revoked = await unauthorized({ authorization: `Bearer ${keys.revoked}` });
    expect(revoked.status).toBe(401);
    expect(JSON.parse(revoked.body)).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(revoked.auth).toBe('Bearer realm="tinyback"');
    const unknown = await unauthorized({
      authorization: `Bearer ${API_KEYS.prefix}${'0'.repeat(64)}`,
    });
    expect(unknown).toEqual(revoked);
  });

  it('refuse missing, malformed and oversized headers with the same clean 401', async () => {
    const reference = await unauthorized({ authorization: `Bearer ${keys.revoked}` });
    for (const authorization of [
      undefined,
      'Bearer',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${keys.aliceRead.toUpperCase()}`,
      `Bearer ${keys.aliceRead} ${keys.aliceRead}`,
      `Bearer ${keys.aliceRead}${'a'.repeat(8 * 1024)}`,
      `Bearer ${'x'.repeat(8 * 1024)}`,
    ]) {
      const answer = await unauthorized(authorization === undefined ? {} : { authorization });
      expect(answer, String(authorization).slice(0, 40)).toEqual(reference);
    }
  });
});

describe('the per-key rate limit', () => {
  it('answers 429 with Retry-After once a key is over its minute, other keys unaffected', async () => {
    // Spend the key's minute in the database rather than with 60 requests. Should the minute turn
    // between the update and the request, the count starts again: spend the new one too.
    let limited: Answer | undefined;
    for (let attempt = 0; attempt < 2 && limited?.status !== 429; attempt++) {
      await pool.query(
        `update public.api_keys set rate_window_start = date_trunc('minute', now()),
                rate_window_hits = $2
          where key_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [keys.bobWrite, API_KEYS.requestsPerMinute],
      );
      limited = await get('/forms', keys.bobWrite);
    }
    if (!limited) throw new Error('no request was made');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await get('/forms', keys.aliceRead)).status).toBe(200);
  });
});

describe('the per-account rate limit', () => {
  /** Requests with each of `keys` in turn until one is refused; how many passed, per key. */
  async function spend(keys: string[], most: number) {
    const passed = keys.map(() => 0);
    for (let i = 0; passed.reduce((a, b) => a + b) < most; i++) {
      const answer = await get('/forms', keys[i % keys.length]!);
      if (answer.status !== 200) return { passed, refused: answer };
      passed[i % keys.length]!++;
    }
    return { passed, refused: undefined };
  }

  it(`lets ${API_KEYS.requestsPerMinutePerAccount} requests a minute through per account however many keys it has; one key alone still gets ${API_KEYS.requestsPerMinute}`, async () => {
    // Three keys' own limits together are more than the account's.
    expect(3 * API_KEYS.requestsPerMinute).toBeGreaterThan(API_KEYS.requestsPerMinutePerAccount);
    const [many, one] = await Promise.all([signUp('Carol Api'), signUp('Dave Api')]);
    limitedUsers.push(many!, one!);
    const manyKeys = await Promise.all(
      [1, 2, 3].map((i) => createKey(many!, `Worker ${i}`, 'read_only')),
    );
    const oneKey = await createKey(one!, 'Only key', 'read_only');
    // Both bursts in one counting minute.
    await freshMinute(pool);

    const alone = await spend([oneKey.key], 3 * API_KEYS.requestsPerMinute);
    expect(alone.passed).toEqual([API_KEYS.requestsPerMinute]);
    expect(alone.refused?.status).toBe(429);

    const together = await spend(
      manyKeys.map((k) => k.key),
      3 * API_KEYS.requestsPerMinute,
    );
    expect(together.passed.reduce((a, b) => a + b)).toBe(API_KEYS.requestsPerMinutePerAccount);
    // No key reached its own limit: the account's stopped them.
    expect(Math.max(...together.passed)).toBeLessThan(API_KEYS.requestsPerMinute);
    expect(together.refused?.status).toBe(429);
    expect(together.refused?.body).toMatchObject({ ok: false, code: 'rate_limited' });
    expect(Number(together.refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another account is not held back by it.
    expect((await get('/forms', keys.aliceRead)).status).toBe(200);
  }, 90_000);
});

describe('revoked keys', () => {
  const sweep = () =>
    rawRequest(`${stack.apiUrl}/rest/v1/rpc/sweep_retention`, {
      headers: {
        authorization: `Bearer ${stack.serviceRoleKey}`,
        apikey: stack.serviceRoleKey,
        'content-type': 'application/json',
      },
      body: '{}',
    });

  it(`are deleted by the sweep once revoked more than ${API_KEYS.revokedKeptDays} days ago, and kept until then`, async () => {
    const [long, lately, active] = await Promise.all([
      createKey(alice, 'Retired long ago', 'read_only'),
      createKey(alice, 'Retired lately', 'read_only'),
      createKey(alice, 'Old but active', 'read_only'),
    ]);
    for (const key of [long, lately]) {
      const { data } = await alice.client.rpc('revoke_api_key', { p_id: key.id });
      expect(data).toBe(true);
    }
    await pool.query(
      `update public.api_keys
          set revoked_at = now() - make_interval(days => $2) - interval '1 hour'
        where id = $1`,
      [long.id, API_KEYS.revokedKeptDays],
    );
    await pool.query(
      `update public.api_keys
          set revoked_at = now() - make_interval(days => $2) + interval '1 hour'
        where id = $1`,
      [lately.id, API_KEYS.revokedKeptDays],
    );
    // Age alone is no reason: an active key made long ago stays.
    await pool.query(
      `update public.api_keys set created_at = now() - make_interval(days => $2) where id = $1`,
      [active.id, 2 * API_KEYS.revokedKeptDays],
    );

    const res = await sweep();
    expect(res.status, res.body).toBe(200);
    const { rows } = await pool.query<{ id: string }>(
      'select id from public.api_keys where id = any($1)',
      [[long.id, lately.id, active.id]],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([lately.id, active.id].sort());
    const { data: listed } = await alice.client
      .from('api_keys')
      .select('id')
      .in('id', [long.id, lately.id]);
    expect(listed).toEqual([{ id: lately.id }]);
  });
});
