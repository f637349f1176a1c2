// The local Auth stand-in's abuse limits, as GoTrue applies them: per-IP token buckets from
// config.toml's [auth.rate_limit] (429 over_request_rate_limit), [auth.email] max_frequency per
// address (429 over_email_send_rate_limit), brute force of a recovery code throttled, /recover
// answering alike for known and unknown addresses — and the e-mail change flow GoTrue runs with
// double_confirm_changes on, with confirmations on (this project's settings) and off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '../../local-stack/auth/index.ts';
import { loadProjectConfig, makeSettings, type ProjectConfig } from '../../local-stack/config.ts';
import { isTo, listMail, readableText, waitForMail } from '../support/mail.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const PASSWORD = 'correct-horse-1';

let counter = 0;
const uniqueEmail = (tag: string) =>
  `limits-${tag}-${Date.now().toString(36)}-${counter++}@example.com`;

/**
 * Rate limits count per client address. Each test speaks from an address of its own on the
 * loopback network (127.x.y.z), so it neither spends nor sees the budget of any other test.
 */
function freshAddress(): string {
  const n = 1 + Math.floor(Math.random() * 250);
  return `127.${n}.${1 + Math.floor(Math.random() * 250)}.${2 + (counter++ % 250)}`;
}

/** A fetch for supabase-js that connects from `localAddress`. */
function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: init?.method ?? 'GET',
          headers: Object.fromEntries(headers.entries()),
          localAddress,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              if (typeof v === 'string') out.set(k, v);
            const status = res.statusCode ?? 500;
            const hasBody = status !== 204 && status !== 304;
            resolve(new Response(hasBody ? Buffer.concat(chunks) : null, { status, headers: out }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

function client(options: { apiUrl?: string; from?: string } = {}): SupabaseClient {
  return createClient(options.apiUrl ?? stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
    ...(options.from ? { global: { fetch: fetchFrom(options.from) } } : {}),
  });
}

const admin = () =>
  createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });

/** A confirmed user (made by the service role), signed in on `apiUrl`'s Auth. */
async function confirmedUser(tag: string, apiUrl = stack.apiUrl) {
  const email = uniqueEmail(tag);
  const created = await admin().auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  const supabase = client({ apiUrl });
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, email, user: data.user! };
}

/**
 * An Auth service on the test stack's database and mail catcher, built from supabase/config.toml
 * (unchanged, unlike the test stack's raised budgets) with `configure` applied to its settings.
 */
function authService(configure: (auth: ProjectConfig['auth']) => void = () => undefined) {
  let server: http.Server;
  let pool: pg.Pool;
  let dataDir: string;
  const service = { apiUrl: '' };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-auth-limits-'));
    pool = new pg.Pool({ connectionString: stack.dbUrl, max: 4 });
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    service.apiUrl = `http://127.0.0.1:${port}`;
    const settings = makeSettings({ ports: { ...stack.ports, api: port }, dataDir });
    expect(settings.project.auth.rateLimit).toEqual(loadProjectConfig().auth.rateLimit);
    configure(settings.project.auth);
    const auth = createAuthService({ settings, pool, log: () => undefined });
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', service.apiUrl);
      void auth.handle(req, res, url.pathname.replace(/^\/auth\/v1/, '') || '/', url);
    });
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await pool?.end();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  return service;
}

async function recoveryCode(email: string) {
  const mail = await waitForMail(
    stack.mailWebUrl,
    (m) => isTo(m, email) && /reset/i.test(m.subject),
  );
  return /code: (\d{6})/.exec(readableText(mail))![1];
}

describe('/recover', () => {
  it('answers a second request within max_frequency with 429, for known and unknown addresses alike', async () => {
    const { email: known } = await confirmedUser('frequency');
    const unknown = uniqueEmail('frequency-nobody');
    const from = client({ from: freshAddress() });
    for (const email of [known, unknown]) {
      const both = await Promise.all([
        from.auth.resetPasswordForEmail(email),
        from.auth.resetPasswordForEmail(email),
      ]);
      const outcomes = both.map((r) => (r.error ? `${r.error.status} ${r.error.code}` : 'ok'));
      expect(outcomes.sort()).toEqual(['429 over_email_send_rate_limit', 'ok']);
      const refused = both.find((r) => r.error)!.error!;
      expect(refused.message).toMatch(
        /^For security purposes, you can only request this after \d+ seconds?\.$/,
      );
    }
  });
});

describe('with config.toml [auth.rate_limit] as `npm start` reads it', () => {
  // The test stack raises the sign-up, sign-in and verification budgets for its many users (see
  // tests/setup/stack.ts); this service is built from supabase/config.toml unchanged.
  const service = authService();

  it('token_verifications = 30: guessing a recovery code gets 429 after 30 wrong codes, and the right one is refused too', async () => {
    const { email } = await confirmedUser('brute');
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const code = await recoveryCode(email);

    const attacker = client({ apiUrl: service.apiUrl, from: freshAddress() });
    const outcomes: string[] = [];
    for (let guess = 0; outcomes.length < 40; guess++) {
      const token = String(guess).padStart(6, '0');
      if (token === code) continue;
      const { error } = await attacker.auth.verifyOtp({ email, token, type: 'recovery' });
      outcomes.push(`${error?.status} ${error?.code}`);
    }
    // GoTrue's bucket holds 30 (token_verifications per 5 minutes, bursts of 30).
    expect(outcomes.slice(0, 30)).toEqual(Array(30).fill('403 otp_expired'));
    expect(outcomes.slice(30)).toEqual(Array(10).fill('429 over_request_rate_limit'));

    const right = await attacker.auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(right.error?.status).toBe(429);
    expect(right.error?.code).toBe('over_request_rate_limit');
    expect(right.error?.message).toBe('Request rate limit reached');
    expect(right.data.session).toBeNull();

    // Another address is not throttled, and the code has survived the attack.
    const owner = await client({ apiUrl: service.apiUrl, from: freshAddress() }).auth.verifyOtp({
      email,
      token: code,
      type: 'recovery',
    });
    expect(owner.error).toBeNull();
    expect(owner.data.session).not.toBeNull();
  });

  it('sign_in_sign_ups = 30: the 31st sign-up from one address is refused with 429', async () => {
    const from = client({ apiUrl: service.apiUrl, from: freshAddress() });
    const outcomes: string[] = [];
    for (let i = 0; i < 32; i++) {
      // A too-short password: GoTrue spends the budget before validating, and no user is made.
      const { error } = await from.auth.signUp({ email: uniqueEmail('signup'), password: 'x' });
      outcomes.push(`${error?.status} ${error?.code}`);
    }
    expect(outcomes.slice(0, 30)).toEqual(Array(30).fill('422 weak_password'));
    expect(outcomes.slice(30)).toEqual(Array(2).fill('429 over_request_rate_limit'));
    // Another address still may.
    const { error } = await client({ apiUrl: service.apiUrl, from: freshAddress() }).auth.signUp({
      email: uniqueEmail('signup'),
      password: 'x',
    });
    expect(error?.code).toBe('weak_password');
  });

  it('token_refresh = 150 (bursts of 30): password sign-ins are throttled per address', async () => {
    const from = client({ apiUrl: service.apiUrl, from: freshAddress() });
    const outcomes: string[] = [];
    for (let i = 0; i < 31; i++) {
      const { error } = await from.auth.signInWithPassword({
        email: uniqueEmail('nobody'),
        password: 'wrong-password',
      });
      outcomes.push(`${error?.status} ${error?.code}`);
    }
    expect(outcomes.slice(0, 30)).toEqual(Array(30).fill('400 invalid_credentials'));
    expect(outcomes[30]).toBe('429 over_request_rate_limit');
  });

  it('sign_in_sign_ups is shared by /resend: the 31st from one address is refused with 429', async () => {
    const from = client({ apiUrl: service.apiUrl, from: freshAddress() });
    const outcomes: string[] = [];
    for (let i = 0; i < 31; i++) {
      const { error } = await from.auth.resend({ type: 'signup', email: uniqueEmail('resend') });
      outcomes.push(error ? `${error.status} ${error.code}` : 'ok');
    }
    expect(outcomes.slice(0, 30)).toEqual(Array(30).fill('ok'));
    expect(outcomes[30]).toBe('429 over_request_rate_limit');
  });
});

describe('changing the e-mail address (double_confirm_changes = true) with confirmations off', () => {
  // GoTrue asks for one link only while it auto-confirms: a service built with
  // enable_confirmations = false, beside the test stack's database and mail catcher.
  const service = authService((auth) => {
    auth.enableConfirmations = false;
  });
  const signedIn = (tag: string) => confirmedUser(tag, service.apiUrl);

  it('keeps the address until a link is followed, mailing both addresses; the link applies it', async () => {
    const { supabase, email, user } = await signedIn('change');
    const next = uniqueEmail('changed');
    const { data, error } = await supabase.auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(next);
    expect(data.user?.email_change_sent_at).toBeTruthy();

    // GoTrue's secure change mails the current address and the new one.
    const toNew = await waitForMail(stack.mailWebUrl, (m) => isTo(m, next));
    const toOld = await waitForMail(
      stack.mailWebUrl,
      (m) => isTo(m, email) && /new e-mail address/i.test(m.subject),
    );
    expect(toNew.subject).toBe('Confirm the new e-mail address of your tinyback account');
    expect(toOld.subject).toBe('Confirm the new e-mail address of your tinyback account');
    const link = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(readableText(toNew))![1];
    expect(new URL(link).searchParams.get('type')).toBe('email_change');

    // Nothing changes before the link is followed.
    const before = await supabase.auth.getUser();
    expect(before.data.user?.email).toBe(email);

    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const fragment = new URLSearchParams(new URL(followed.headers.get('location')!).hash.slice(1));
    expect(fragment.get('type')).toBe('email_change');
    expect(fragment.get('access_token')).toBeTruthy();

    const after = await client({ apiUrl: service.apiUrl }).auth.signInWithPassword({
      email: next,
      password: PASSWORD,
    });
    expect(after.error).toBeNull();
    expect(after.data.user?.id).toBe(user.id);
    expect(after.data.user?.email).toBe(next);
    expect(after.data.user?.new_email).toBeUndefined();
    const old = await client({ apiUrl: service.apiUrl }).auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(old.error?.code).toBe('invalid_credentials');
    // The other link is spent with the change.
    const otherLink = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(readableText(toOld))![1];
    const again = await fetch(otherLink, { redirect: 'manual' });
    expect(new URL(again.headers.get('location')!).hash).toContain('error_code=otp_expired');
  });

  it('verifyOtp with the code sent to the new address applies the change', async () => {
    const { supabase, email, user } = await signedIn('change-otp');
    const next = uniqueEmail('changed-otp');
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
    const mail = await waitForMail(stack.mailWebUrl, (m) => isTo(m, next));
    const code = /code: (\d{6})/.exec(readableText(mail))![1];
    const { data, error } = await client({ apiUrl: service.apiUrl }).auth.verifyOtp({
      email: next,
      token: code,
      type: 'email_change',
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(data.user?.email).toBe(next);
    expect(email).not.toBe(next);
  });

  it('refuses an address another account holds (422 email_exists) and sends nothing', async () => {
    const { supabase } = await signedIn('change-taken');
    const { email: taken } = await confirmedUser('taken');
    const mailsBefore = (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, taken)).length;
    const { error } = await supabase.auth.updateUser({ email: taken });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('email_exists');
    expect((await listMail(stack.mailWebUrl)).filter((m) => isTo(m, taken)).length).toBe(
      mailsBefore,
    );
  });
});

describe('changing the e-mail address (double_confirm_changes = true) with confirmations on', () => {
  // This project's settings (config.toml), as the test stack runs them.
  it('needs the links sent to both addresses; the first answers "Confirmation link accepted…"', async () => {
    const { supabase, email } = await confirmedUser('confirm-both');

    const next = uniqueEmail('confirm-both-new');
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
    const linkIn = async (to: string) => {
      const mail = await waitForMail(
        stack.mailWebUrl,
        (m) => isTo(m, to) && /new e-mail address/i.test(m.subject),
      );
      return /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(readableText(mail))![1];
    };
    const first = await fetch(await linkIn(next), { redirect: 'manual' });
    const firstFragment = new URLSearchParams(
      new URL(first.headers.get('location')!).hash.slice(1),
    );
    expect(firstFragment.get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    expect((await supabase.auth.getUser()).data.user?.email).toBe(email);

    const second = await fetch(await linkIn(email), { redirect: 'manual' });
    const secondFragment = new URLSearchParams(
      new URL(second.headers.get('location')!).hash.slice(1),
    );
    expect(secondFragment.get('type')).toBe('email_change');
    expect((await supabase.auth.getUser()).data.user?.email).toBe(next);
  });
});
