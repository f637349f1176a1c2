// CAPTCHA through the real parts. The endpoints: the forms function and a list's signup form
// (the newsletter function, real Deno) on a stack of its own whose CAPTCHA_VERIFY_URL_OVERRIDE points at a verification server this file starts on
// 127.0.0.1 (never a provider on the internet); nothing is stored unless the provider said yes.
// The secret: set by the owner through set_form_captcha() with supabase-js, never readable back by
// the owner's client nor anyone else's (the shared test stack).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { createAuthUser } from '../support/db.ts';
import { localOnly, remote } from '../support/target.ts';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import {
  freshMinute,
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  seedForm,
  storedFor,
  urlencoded,
  type SeededForm,
} from './support.ts';

const SECRET = 'test-secret-0x4AAA';
const GOOD = 'good-token';
/** A token the stand-in answers with 503, as a provider having an outage. */
const OUTAGE = 'outage-token';
/** A good token, solved on another site than the form's (the provider's `hostname` says so). */
const ELSEWHERE = 'elsewhere-token';

interface Check {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}
let checks: Check[] = [];
let verifier: http.Server;
let stack: RunningStack;
let dataDir: string;

beforeAll(async () => {
  if (remote) return;
  // The provider's siteverify: success only for GOOD under SECRET.
  verifier = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const check = {
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
      };
      checks.push(check);
      if (check.response === OUTAGE) return void res.writeHead(503).end('unavailable');
      const ok =
        check.secret === SECRET && (check.response === GOOD || check.response === ELSEWHERE);
      // Providers name the host the challenge was solved on.
      const hostname = check.response === ELSEWHERE ? 'evil.example' : new URL(ORIGIN).hostname;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? { success: true, hostname }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
  const verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;

  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-captcha-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    ports: { api, db, mailWeb, smtp },
    seed: false,
    functionEnv: { CAPTCHA_VERIFY_URL_OVERRIDE: verifyUrl },
    log: (service, message) => {
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  verifier?.closeAllConnections();
  await new Promise((r) => (verifier ? verifier.close(r) : r(undefined)));
});

describe('the endpoint with CAPTCHA on', () => {
  let form: SeededForm;

  beforeAll(async () => {
    if (remote) return;
    form = await seedForm(stack.pool, 'Captcha');
    await setCaptcha(form.formId, 'turnstile');
  });
  beforeEach(async (ctx) => {
    localOnly(ctx, 'its verification server stands in for the provider through a function setting');
    checks = [];
    await resetRateLimits(stack.pool);
  });

  async function setCaptcha(formId: string, provider: string | null): Promise<void> {
    await stack.pool.query(
      `update public.forms set captcha_provider = $2, captcha_site_key = case when $2::text is null then null else '1x00000000000000000000AA' end where id = $1`,
      [formId, provider],
    );
    if (provider)
      await stack.pool.query(
        `insert into private.form_captcha_secrets (form_id, secret) values ($1, $2)
         on conflict (form_id) do update set secret = excluded.secret`,
        [formId, SECRET],
      );
  }

  /** A form of its own with Turnstile, for a test that counts what gets stored. */
  async function captchaForm(): Promise<SeededForm> {
    const own = await seedForm(stack.pool, 'Captcha');
    await setCaptcha(own.formId, 'turnstile');
    return own;
  }

  const post = (
    formId: string,
    fields: Record<string, string>,
    opts: { json?: boolean; headers?: Record<string, string>; localAddress?: string } = {},
  ) =>
    rawRequest(functionUrl(stack.settings.apiUrl, formId), {
      headers: {
        origin: ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
        ...(opts.json === false ? {} : { accept: 'application/json' }),
        ...opts.headers,
      },
      body: urlencoded({ name: 'Ada', email: 'ada@example.org', message: 'Hello', ...fields }),
      localAddress: opts.localAddress,
    });

  it('refuses a post without a token, in JSON and to a browser, stores nothing and asks no provider', async () => {
    const json = await post(form.formId, {});
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body)).toEqual({
      ok: false,
      code: 'captcha_required',
      error: 'Please complete the CAPTCHA, then send the form again.',
      fields: {},
    });
    const browser = await post(form.formId, { 'cf-turnstile-response': ' ' }, { json: false });
    expect(browser.status).toBe(400);
    expect(browser.body).toContain('Please complete the CAPTCHA');
    expect(checks).toEqual([]);
    expect(await storedFor(stack.pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
  });

  it('refuses a wrong token (and another provider’s field) and stores nothing', async () => {
    const wrong = await post(form.formId, { 'cf-turnstile-response': 'forged' });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.body)).toMatchObject({ ok: false, code: 'captcha_failed' });
    expect(checks.map((c) => c.response)).toEqual(['forged']);
    // hCaptcha's field on a Turnstile form is no token at all.
    const other = await post(form.formId, { 'h-captcha-response': GOOD });
    expect(JSON.parse(other.body)).toMatchObject({ code: 'captcha_required' });
    expect(await storedFor(stack.pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
  });

  it('answers a provider outage as retryable and stores nothing', async () => {
    const res = await post(form.formId, { 'cf-turnstile-response': OUTAGE });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'captcha_unavailable' });
    expect(await storedFor(stack.pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
  });

  it('accepts the right token, checked with the secret and the trusted client address', async () => {
    const res = await post(
      form.formId,
      { 'cf-turnstile-response': GOOD, topic: 'kept' },
      // The client's own X-Forwarded-For is not the address the provider is told.
      { headers: { 'x-forwarded-for': '6.6.6.6' }, localAddress: '127.0.0.7' },
    );
    expect(res.status, res.body).toBe(200);
    expect(checks).toEqual([{ secret: SECRET, response: GOOD, remoteip: '127.0.0.7' }]);
    const { rows } = await stack.pool.query<{ data: Record<string, unknown> }>(
      'select data from public.entries where form_id = $1',
      [form.formId],
    );
    // The token is never stored with the message.
    expect(rows).toEqual([{ data: { topic: 'kept' } }]);
  });

  it('counts the visitor’s allowance before asking the provider', async () => {
    const form = await captchaForm();
    // A client with wrong tokens spends its own allowance: the provider is asked at most as often
    // as the client may post, then the endpoint answers 429 without asking.
    const tries = LIMITS.ratePerMinute + 3;
    const statuses: number[] = [];
    await freshMinute(stack.pool);
    for (let i = 0; i < tries; i++)
      statuses.push(
        (
          await post(
            form.formId,
            { 'cf-turnstile-response': `forged-${i}` },
            { localAddress: '127.0.0.9' },
          )
        ).status,
      );
    expect(statuses).toEqual([
      ...Array<number>(LIMITS.ratePerMinute).fill(403),
      ...Array<number>(tries - LIMITS.ratePerMinute).fill(429),
    ]);
    expect(checks).toHaveLength(LIMITS.ratePerMinute);
    expect(await storedFor(stack.pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
  });

  it('refuses a token solved on another site than the form’s', async () => {
    const form = await captchaForm();
    const res = await post(form.formId, { 'cf-turnstile-response': ELSEWHERE });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'captcha_failed' });
    expect(await storedFor(stack.pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
  });

  it('answers a repeated post as the first without asking the provider about a spent token', async () => {
    const form = await captchaForm();
    const key = `retry-${Date.now()}`;
    const first = await post(
      form.formId,
      { 'cf-turnstile-response': GOOD },
      { headers: { 'idempotency-key': key } },
    );
    expect(first.status, first.body).toBe(200);
    const again = await post(
      form.formId,
      { 'cf-turnstile-response': GOOD },
      { headers: { 'idempotency-key': key } },
    );
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body)).toEqual(JSON.parse(first.body));
    expect(checks).toHaveLength(1);
    expect(await storedFor(stack.pool, form.formId)).toMatchObject({ entries: 1 });
  });

  it('applies CAPTCHA turned on at once, even to a form the function remembers', async () => {
    const later = await seedForm(stack.pool, 'Turned on later');
    expect((await post(later.formId, {})).status).toBe(200); // remembered without CAPTCHA
    await setCaptcha(later.formId, 'hcaptcha');
    const res = await post(later.formId, {});
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'captcha_required' });
    expect(await storedFor(stack.pool, later.formId)).toMatchObject({ entries: 1 });
    const passed = await post(later.formId, { 'h-captcha-response': GOOD });
    expect(passed.status, passed.body).toBe(200);
    expect(await storedFor(stack.pool, later.formId)).toMatchObject({ entries: 2 });
  });

  it('applies CAPTCHA turned off at once: the next post without a token is accepted', async () => {
    const form = await captchaForm();
    // Remembered by the function with CAPTCHA on.
    expect((await post(form.formId, { 'cf-turnstile-response': GOOD })).status).toBe(200);
    expect(JSON.parse((await post(form.formId, {})).body)).toMatchObject({
      code: 'captcha_required',
    });
    // Turned off as set_form_captcha() does it: provider and site key cleared, secret deleted.
    await setCaptcha(form.formId, null);
    await stack.pool.query('delete from private.form_captcha_secrets where form_id = $1', [
      form.formId,
    ]);
    const started = Date.now();
    const res = await post(form.formId, { message: 'right after' });
    expect(res.status, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    // A browser's plain post too, without the widget the page no longer has.
    const browser = await post(form.formId, {}, { json: false, headers: { accept: 'text/html' } });
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toMatch(/\/thanks$/);
    expect(await storedFor(stack.pool, form.formId)).toMatchObject({ entries: 3 });
  });

  it('applies a new provider at once: its token is checked, the old widget’s is no token', async () => {
    const form = await captchaForm();
    expect((await post(form.formId, { 'cf-turnstile-response': GOOD })).status).toBe(200);
    await setCaptcha(form.formId, 'hcaptcha');
    const res = await post(form.formId, { 'h-captcha-response': GOOD });
    expect(res.status, res.body).toBe(200);
    const old = await post(form.formId, { 'cf-turnstile-response': GOOD });
    expect(JSON.parse(old.body)).toMatchObject({ code: 'captcha_required' });
    expect(await storedFor(stack.pool, form.formId)).toMatchObject({ entries: 2 });
  });
});

describe('the CAPTCHA secret (supabase-js, row level security)', () => {
  let owner: TestUser;
  let other: TestUser;
  let formId: string;

  beforeAll(async () => {
    [owner, other] = await Promise.all([signUp('Captcha Owner'), signUp('Captcha Other')]);
    const { data, error } = await owner.client
      .from('forms')
      .insert({ name: 'Guarded', target_email: owner.email, allowed_origin: ORIGIN })
      .select('id')
      .single();
    if (error) throw error;
    formId = data.id as string;
  });
  afterAll(async () => {
    const admin = serviceClient().auth.admin;
    await Promise.all([owner, other].filter(Boolean).map((u) => admin.deleteUser(u.id)));
  });

  const set = (client: TestUser['client'], provider: string | null, secret = SECRET) =>
    client.rpc('set_form_captcha', {
      p_form_id: formId,
      p_provider: provider,
      p_site_key: provider ? '0x4AAAAAAAsitekey' : null,
      p_secret: secret,
    });
  // What the forms function reads (form_captcha_secret(), service role only).
  const storedSecret = async () =>
    (await serviceClient().rpc('form_captcha_secret', { p_form_id: formId })).data;

  it('is set by the owner, who reads back the public part only', async () => {
    const saved = await set(owner.client, 'turnstile');
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual({
      captcha_provider: 'turnstile',
      captcha_site_key: '0x4AAAAAAAsitekey',
    });
    const row = await owner.client.from('forms').select('*').eq('id', formId).single();
    expect(row.data).toMatchObject({ captcha_provider: 'turnstile' });
    expect(JSON.stringify(row.data)).not.toContain(SECRET);

    // The secrets are in the private schema, which the Data API does not serve; the function that
    // reads one is the service role's alone.
    const read = await owner.client.from('form_captcha_secrets').select('*');
    expect(read.data ?? []).toEqual([]);
    expect(read.error?.code).toBe('PGRST205');
    for (const client of [owner.client, newClient()]) {
      const secret = await client.rpc('form_captcha_secret', { p_form_id: formId });
      expect(secret.data).toBeNull();
      expect(secret.error?.code).toBe('42501');
    }
    expect(await storedSecret()).toBe(SECRET);
  });

  it('cannot be written around the function, nor read or changed by another user', async () => {
    const direct = await owner.client
      .from('form_captcha_secrets')
      .insert({ form_id: formId, secret: 'x' });
    expect(direct.error?.code).toBe('PGRST205');
    const column = await owner.client
      .from('forms')
      .update({ captcha_provider: null })
      .eq('id', formId);
    expect(column.error?.code).toBe('42501');

    expect((await other.client.from('form_captcha_secrets').select('*')).data ?? []).toEqual([]);
    const hijack = await set(other.client, 'hcaptcha', 'attacker-secret');
    expect(hijack.error?.message).toMatch(/no longer exists/);
    const anon = await set(newClient(), null);
    expect(anon.error).not.toBeNull();
    expect(await storedSecret()).toBe(SECRET);
  });

  it('keeps the secret when left empty, asks for one for a new provider, forgets it when off', async () => {
    expect((await set(owner.client, 'turnstile', '')).error).toBeNull();
    expect(await storedSecret()).toBe(SECRET);
    const switched = await set(owner.client, 'recaptcha', '');
    expect(switched.error?.message).toBe('Enter the secret key.');
    expect((await set(owner.client, null)).error).toBeNull();
    expect(await storedSecret()).toBeNull();
    const row = await owner.client.from('forms').select('captcha_provider, captcha_site_key');
    expect(row.data).toEqual([{ captcha_provider: null, captcha_site_key: null }]);
  });
});

describe('a list’s signup form with CAPTCHA on', () => {
  let listId: string;

  beforeAll(async () => {
    if (remote) return;
    const owner = await createAuthUser(stack.pool, 'List captcha');
    const { rows } = await stack.pool.query<{ id: string }>(
      `insert into public.newsletter_lists (user_id, name, allowed_origin, captcha_provider, captcha_site_key)
       values ($1, 'Guarded list', $2, 'turnstile', '1x00000000000000000000AA') returning id`,
      [owner.id, ORIGIN],
    );
    listId = rows[0]!.id;
    await stack.pool.query(
      'insert into private.list_captcha_secrets (list_id, secret) values ($1, $2)',
      [listId, SECRET],
    );
  });
  beforeEach((ctx) => {
    localOnly(ctx, 'its verification server stands in for the provider through a function setting');
    checks = [];
  });

  const signup = (email: string, token?: string) =>
    rawRequest(`${stack.settings.apiUrl}/functions/v1/newsletter/lists/${listId}`, {
      headers: {
        origin: ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: urlencoded({ email, ...(token ? { 'cf-turnstile-response': token } : {}) }),
    });
  const subscribers = async () =>
    (
      await stack.pool.query<{ email: string }>(
        'select email from public.list_subscribers where list_id = $1 order by email',
        [listId],
      )
    ).rows.map((r) => r.email);

  it('signs up only with a token the provider accepts, counting every try against the client', async () => {
    const missing = await signup('a@example.test');
    expect([missing.status, JSON.parse(missing.body).code]).toEqual([403, 'captcha']);
    // Solved on another site than the list's.
    expect((await signup('a@example.test', ELSEWHERE)).status).toBe(403);
    const outage = await signup('a@example.test', OUTAGE);
    expect([outage.status, outage.headers['retry-after']]).toEqual([503, '30']);
    expect(await subscribers()).toEqual([]);

    expect((await signup('b@example.test', GOOD)).status).toBe(202);
    expect(await subscribers()).toEqual(['b@example.test']);
    expect(checks.map((c) => [c.secret, c.response])).toEqual([
      [SECRET, ELSEWHERE],
      [SECRET, OUTAGE],
      [SECRET, GOOD],
    ]);

    // The allowance was spent by the failed tries too: the provider is not asked again.
    expect((await signup('c@example.test', GOOD)).status).toBe(202);
    const over = await signup('d@example.test', GOOD);
    expect(over.status).toBe(429);
    expect(checks).toHaveLength(4);
    expect(await subscribers()).toEqual(['b@example.test', 'c@example.test']);
  });
});
