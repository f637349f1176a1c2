// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { API_KEYS } from '../_shared/limits.ts';
import { hashKey } from './bearer.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { handleRequest, routeOf, type FormsApiDeps } from './handler.ts';
import type { ApiEntry, AuthResult, KeyScope, ListEntriesInput } from './model.ts';

const FN = 'https://project.test/functions/v1/forms-api';
const FORM = '11111111-2222-4333-8444-555555555555';
const ENTRY = '99999999-8888-4777-8666-555555555555';
const key = (c: string) => `${API_KEYS.prefix}${c.repeat(64)}`;
const READ = key('a');
const WRITE = key('b');

const entry = (n: number): ApiEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  form_id: FORM,
  name: `Visitor ${n}`,
  email: null,
  message: 'Hello',
  data: {},
  is_spam: false,
  read_at: null,
  created_at: `2026-11-24T09:00:0${n}.123456+00:00`,
});

async function fakeDeps(overrides: Partial<FormsApiDeps> = {}) {
  const keys = new Map<string, KeyScope>([
    [await hashKey(READ), 'read_only'],
    [await hashKey(WRITE), 'read_write'],
  ]);
  const deps: FormsApiDeps = {
    authenticate: vi.fn(async (hash: string): Promise<AuthResult> => {
      const scope = keys.get(hash);
      if (!scope) return { status: 'unauthorized' };
      return { status: 'ok', identity: { keyId: 'k', userId: 'owner', scope, keyHash: hash } };
    }),
    listForms: vi.fn(async () => []),
    listEntries: vi.fn(async () => ({ status: 'ok' as const, entries: [entry(1), entry(2)] })),
    deleteEntry: vi.fn(async () => 'deleted' as const),
    log: vi.fn(),
    ...overrides,
  };
  return deps;
}

const send = (deps: FormsApiDeps, path: string, init: RequestInit & { key?: string } = {}) =>
  handleRequest(
    new Request(`${FN}${path}`, {
      ...init,
      headers: init.key ? { authorization: `Bearer ${init.key}` } : init.headers,
    }),
    deps,
  );

describe('routeOf', () => {
  it('reads the three routes after the function name, with or without a trailing slash', () => {
    expect(routeOf('/forms-api/forms')).toEqual({ kind: 'forms' });
    expect(routeOf('/functions/v1/forms-api/forms/')).toEqual({ kind: 'forms' });
    expect(routeOf(`/forms-api/forms/${FORM}/entries`)).toEqual({ kind: 'entries', formId: FORM });
    expect(routeOf(`/forms-api/forms/${FORM}/entries/${ENTRY}`)).toEqual({
      kind: 'entry',
      formId: FORM,
      entryId: ENTRY,
    });
  });

  it.each([
    '/forms-api',
    '/forms-api/keys',
    `/forms-api/forms/${FORM}`,
    `/forms-api/forms/${FORM}/entries/${ENTRY}/x`,
    '/forms/x',
  ])('serves nothing at %s', (path) => expect(routeOf(path)).toBeNull());
});

describe('handleRequest', () => {
  it('answers a CORS preflight without a key', async () => {
    const deps = await fakeDeps();
    const res = await send(deps, '/forms', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(deps.authenticate).not.toHaveBeenCalled();
  });

  it('refuses unknown routes and wrong methods in the forms endpoint error shape', async () => {
    const deps = await fakeDeps();
    const missing = await send(deps, '/nothing', { key: READ });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      ok: false,
      code: 'not_found',
      error: expect.any(String),
      fields: {},
    });
    const wrong = await send(deps, '/forms', { method: 'POST', key: READ });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('gives a missing, malformed, unknown and revoked key one and the same 401', async () => {
    const deps = await fakeDeps();
    const answers = await Promise.all(
      [undefined, 'not-a-key', key('c')].map(async (k) => {
        const res = await send(deps, '/forms', { key: k });
        return {
          status: res.status,
          auth: res.headers.get('www-authenticate'),
          body: await res.text(),
        };
      }),
    );
    expect(answers[0]!.status).toBe(401);
    expect(answers[0]!.auth).toBe('Bearer realm="tinyback"');
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // Only the well-formed key reached the store.
    expect(deps.authenticate).toHaveBeenCalledTimes(1);
    expect(deps.listForms).not.toHaveBeenCalled();
  });

  it('refuses a key whose stored hash differs from the one sent', async () => {
    const deps = await fakeDeps({
      authenticate: async () => ({
        status: 'ok',
        identity: { keyId: 'k', userId: 'owner', scope: 'read_write', keyHash: 'f'.repeat(64) },
      }),
    });
    expect((await send(deps, '/forms', { key: READ })).status).toBe(401);
    expect(deps.listForms).not.toHaveBeenCalled();
  });

  it('says when to try again once a key is over its limit', async () => {
    const deps = await fakeDeps({
      authenticate: async () => ({ status: 'rate_limited', retryAfter: 17 }),
    });
    const res = await send(deps, '/forms', { key: READ });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('17');
    expect((await res.json()).code).toBe('rate_limited');
  });

  it("lists the key owner's forms", async () => {
    const forms = [
      {
        id: FORM,
        name: 'Contact',
        target_email: 'a@b.test',
        allowed_origin: 'https://x.test',
        created_at: 'now',
      },
    ];
    const deps = await fakeDeps({ listForms: vi.fn(async () => forms) });
    const res = await send(deps, '/forms', { key: READ });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ ok: true, forms });
    expect(deps.listForms).toHaveBeenCalledWith('owner');
  });

  it('asks for one row more than the page and turns it into has_more and a cursor', async () => {
    const deps = await fakeDeps({
      listEntries: vi.fn(async () => ({
        status: 'ok' as const,
        entries: [entry(1), entry(2), entry(3)],
      })),
    });
    const res = await send(deps, `/forms/${FORM.toUpperCase()}/entries?limit=2&since=2026-11-01`, {
      key: READ,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.entries.map((e: ApiEntry) => e.name)).toEqual(['Visitor 1', 'Visitor 2']);
    expect(body.has_more).toBe(true);
    expect(decodeCursor(body.next_cursor)).toEqual({
      createdAt: entry(2).created_at,
      id: entry(2).id,
    });
    expect(deps.listEntries).toHaveBeenCalledWith({
      userId: 'owner',
      formId: FORM,
      since: '2026-11-01T00:00:00.000Z',
      after: null,
      limit: 2,
    });
  });

  it('gives the cursor back when no newer entry exists yet', async () => {
    const deps = await fakeDeps({
      listEntries: async () => ({ status: 'ok' as const, entries: [] }),
    });
    const cursor = encodeCursor({ createdAt: entry(2).created_at, id: entry(2).id });
    const body = await (
      await send(deps, `/forms/${FORM}/entries?cursor=${cursor}`, { key: READ })
    ).json();
    expect(body).toEqual({ ok: true, entries: [], next_cursor: cursor, has_more: false });
  });

  it('names bad query parameters', async () => {
    const deps = await fakeDeps();
    const res = await send(deps, `/forms/${FORM}/entries?limit=none`, { key: READ });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_query',
      fields: { limit: expect.any(String) },
    });
    expect(deps.listEntries).not.toHaveBeenCalled();
  });

  it('answers 400, not a 503 to retry, to dates Postgres cannot hold', async () => {
    // As the database does: no year 0, and an error (a 503 from the handler) for such a date.
    const listEntries = vi.fn(async (input: ListEntriesInput) => {
      const dates = [input.since, input.after?.createdAt].filter((d): d is string => d !== null);
      if (dates.some((d) => /^(0000|\+?0?10000)-/.test(d)))
        throw new Error('date/time field value out of range');
      return { status: 'ok' as const, entries: [] };
    });
    const deps = await fakeDeps({ listEntries });
    const cursor = btoa(`v1|0000-01-01T00:00:00+00:00|${ENTRY}`).replace(/=+$/, '');
    for (const [query, field] of [
      ['since=0000-01-01', 'since'],
      ['since=10000-01-01', 'since'],
      ['since=9999-12-31T23:00:00-05:00', 'since'],
      [`cursor=${cursor}`, 'cursor'],
    ]) {
      const res = await send(deps, `/forms/${FORM}/entries?${query}`, { key: READ });
      expect(res.status, query).toBe(400);
      expect(res.headers.get('retry-after')).toBeNull();
      expect(await res.json()).toEqual({
        ok: false,
        code: 'invalid_query',
        error: 'Some query parameters are not valid.',
        fields: { [field]: expect.any(String) },
      });
    }
    expect(listEntries).not.toHaveBeenCalled();
    expect(deps.log).not.toHaveBeenCalled();
  });

  it('answers 404 for a form that is not the owner’s, or not a form id at all', async () => {
    const deps = await fakeDeps({
      listEntries: async () => ({ status: 'form_not_found' as const }),
    });
    expect((await send(deps, `/forms/${FORM}/entries`, { key: READ })).status).toBe(404);
    const res = await send(deps, '/forms/not-a-uuid/entries', { key: READ });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('form_not_found');
  });

  it('lets only a read-write key delete an entry', async () => {
    const deps = await fakeDeps();
    const path = `/forms/${FORM}/entries/${ENTRY}`;
    const refused = await send(deps, path, { method: 'DELETE', key: READ });
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('insufficient_scope');
    expect(deps.deleteEntry).not.toHaveBeenCalled();

    const done = await send(deps, path, { method: 'DELETE', key: WRITE });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ ok: true, id: ENTRY });
    expect(deps.deleteEntry).toHaveBeenCalledWith('owner', FORM, ENTRY);
  });

  it('answers 404 when the entry to delete is not there', async () => {
    const deps = await fakeDeps({ deleteEntry: async () => 'entry_not_found' as const });
    const res = await send(deps, `/forms/${FORM}/entries/${ENTRY}`, {
      method: 'DELETE',
      key: WRITE,
    });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('entry_not_found');
  });

  it('answers 503 with Retry-After when storage fails, and logs why', async () => {
    const deps = await fakeDeps({ listForms: async () => Promise.reject(new Error('db down')) });
    const res = await send(deps, '/forms', { key: READ });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(deps.log).toHaveBeenCalledWith(expect.stringContaining('db down'));
  });
});
