// Sign-up confirmation through @supabase/supabase-js, as GoTrue runs it with this project's
// settings (`[auth.email] enable_confirmations = true`): the new user waits unconfirmed, without a
// session, for the sign-up confirmation mail; its link (GET /verify) or code (POST /verify)
// confirms the address and signs in; password sign-in is refused until then; signing up again
// re-sends the link (or, for a confirmed address, answers a made-up user and sends nothing); and
// POST /resend sends it again. Beside it, an Auth service with confirmations off shows the
// auto-confirmed sign-up, and that `npm run verify`'s sign-up check fails there.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt, jwtVerify } from 'jose';
import pg from 'pg';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '../../local-stack/auth/index.ts';
import { makeSettings } from '../../local-stack/config.ts';
import { confirmationMailFor, followLink } from '../support/confirmation.ts';
import { isTo, listMail } from '../support/mail.ts';
import { checkSignUpNeedsConfirmation, SignUpConfirmationError } from '../support/sign-up-check.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const PASSWORD = 'correct-horse-1';
/** config.toml's site_url: where links go when no allowed redirect_to is given. */
const APP_URL = 'http://127.0.0.1:5173';
/** config.toml's max_frequency between two confirmation mails to one address. */
const MAX_FREQUENCY_MS = 1000;

let counter = 0;
const uniqueEmail = (tag: string) =>
  `confirm-${tag}-${Date.now().toString(36)}-${counter++}@example.com`;

function client(apiUrl = stack.apiUrl): SupabaseClient {
  return createClient(apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; supabase-js builds its realtime client eagerly.
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}

const admin = () =>
  createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });

const sha224 = (text: string) => createHash('sha224').update(text).digest('hex');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ids of the mails the catcher holds for `email` so far (to wait for the next one). */
async function mailIds(email: string): Promise<Set<string>> {
  return new Set((await listMail(stack.mailWebUrl)).filter((m) => isTo(m, email)).map((m) => m.id));
}

/** A user confirmed by the service role (an account that exists before the test signs up). */
async function confirmedAccount(tag: string) {
  const email = uniqueEmail(tag);
  const { data, error } = await admin().auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  expect(error).toBeNull();
  return { email, id: data.user!.id };
}

let db: pg.Pool;
beforeAll(() => {
  db = new pg.Pool({ connectionString: stack.dbUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
});

const isVerifiedTarget = async (userId: string, email: string) =>
  (
    await db.query<{ verified: boolean }>('select public.is_target_verified($1, $2) as verified', [
      userId,
      email,
    ])
  ).rows[0].verified;

describe('signing up with confirmations on', () => {
  it('creates the user unconfirmed and answers it without a session; the mailed token is stored hashed', async () => {
    const supabase = client();
    const email = uniqueEmail('SignUp').replace('confirm-', 'Confirm-');
    const address = email.toLowerCase();
    const redirectTo = `${APP_URL}/dashboard`;
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'Ada Lovelace' }, emailRedirectTo: redirectTo },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect((await supabase.auth.getSession()).data.session).toBeNull();
    const user = data.user!;
    expect(user.email).toBe(address);
    expect(user.email_confirmed_at).toBeUndefined();
    expect(user.confirmed_at).toBeUndefined();
    expect(user.confirmation_sent_at).toBeTruthy();
    expect(user.user_metadata).toMatchObject({
      name: 'Ada Lovelace',
      email: address,
      email_verified: false,
    });
    expect(user.identities).toHaveLength(1);
    expect(user.identities![0]).toMatchObject({
      provider: 'email',
      user_id: user.id,
      identity_data: { email: address, email_verified: false },
    });

    const { mail, link, code } = await confirmationMailFor(stack.mailWebUrl, address);
    expect(mail.subject).toBe('Confirm your signup to tinyback');
    expect(mail.html).toContain('Confirm my e-mail address');
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.apiUrl}/auth/v1/verify`);
    expect(url.searchParams.get('type')).toBe('signup');
    expect(url.searchParams.get('redirect_to')).toBe(redirectTo);
    // GoTrue keeps the token as sha224 of e-mail + code, in the user row and auth.one_time_tokens.
    const stored = await db.query(
      'select email_confirmed_at, confirmation_token, confirmation_sent_at from auth.users where id = $1',
      [user.id],
    );
    expect(stored.rows[0]).toMatchObject({
      email_confirmed_at: null,
      confirmation_token: sha224(address + code),
    });
    expect(stored.rows[0].confirmation_sent_at).toBeInstanceOf(Date);
    expect(url.searchParams.get('token')).toBe(sha224(address + code));
    const tokens = await db.query(
      'select token_type, token_hash, relates_to from auth.one_time_tokens where user_id = $1',
      [user.id],
    );
    expect(tokens.rows).toEqual([
      { token_type: 'confirmation_token', token_hash: sha224(address + code), relates_to: address },
    ]);
    // Signing up alone does not make the address a verified target.
    expect(await isVerifiedTarget(user.id, address)).toBe(false);
  });

  it('refuses a password sign-in until the address is confirmed: 400 email_not_confirmed', async () => {
    const email = uniqueEmail('unconfirmed');
    expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const { data, error } = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('email_not_confirmed');
    expect(error?.message).toBe('Email not confirmed');
    expect(data.session).toBeNull();
    // A wrong password is still just wrong: the state of the address is not told.
    const wrong = await client().auth.signInWithPassword({ email, password: 'wrong-password' });
    expect(wrong.error?.code).toBe('invalid_credentials');
  });

  it('the link confirms the address and signs in: a 303 to redirect_to with the session in the fragment', async () => {
    const email = uniqueEmail('link');
    const redirectTo = `${APP_URL}/dashboard`;
    const signedUp = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'Grace' }, emailRedirectTo: redirectTo },
    });
    const userId = signedUp.data.user!.id;
    const { link } = await confirmationMailFor(stack.mailWebUrl, email);

    const { location, fragment } = await followLink(link);
    expect(location.href).toBe(redirectTo);
    expect([...fragment.keys()]).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'token_type',
      'type',
    ]);
    expect(fragment.get('type')).toBe('signup');
    const { payload } = await jwtVerify(
      fragment.get('access_token')!,
      new TextEncoder().encode(stack.jwtSecret),
    );
    expect(payload).toMatchObject({
      iss: `${stack.apiUrl}/auth/v1`,
      sub: userId,
      aud: 'authenticated',
      email,
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      user_metadata: { name: 'Grace', email_verified: true },
    });
    expect(payload.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);

    const browser = client();
    const set = await browser.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    const { data } = await browser.auth.getUser();
    expect(data.user?.id).toBe(userId);
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.confirmed_at).toBeTruthy();
    expect(data.user?.user_metadata.email_verified).toBe(true);
    expect(data.user?.identities?.[0].identity_data?.email_verified).toBe(true);
    expect(await isVerifiedTarget(userId, email)).toBe(true);

    // Now the password signs in, and the link is spent.
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
    const again = await followLink(link);
    expect(again.location.href).toBe(redirectTo);
    expect(again.fragment.get('error')).toBe('access_denied');
    expect(again.fragment.get('error_code')).toBe('otp_expired');
    expect(again.fragment.get('error_description')).toBe('Email link is invalid or has expired');
    const left = await db.query('select 1 from auth.one_time_tokens where user_id = $1', [userId]);
    expect(left.rows).toEqual([]);
  });

  it('verifyOtp confirms with the mailed code (types email and signup) or the link’s token hash', async () => {
    const byCode = uniqueEmail('code');
    const byCodeSignup = uniqueEmail('code-signup');
    const byHash = uniqueEmail('hash');
    for (const email of [byCode, byCodeSignup, byHash]) {
      expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    }

    const { code } = await confirmationMailFor(stack.mailWebUrl, byCode);
    const wrong = await client().auth.verifyOtp({
      email: byCode,
      token: code === '000000' ? '111111' : '000000',
      type: 'email',
    });
    expect(wrong.error?.status).toBe(403);
    expect(wrong.error?.code).toBe('otp_expired');
    const right = await client().auth.verifyOtp({ email: byCode, token: code, type: 'email' });
    expect(right.error).toBeNull();
    expect(right.data.user?.email).toBe(byCode);
    expect(right.data.user?.email_confirmed_at).toBeTruthy();
    expect(decodeJwt(right.data.session!.access_token).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);

    const signupCode = (await confirmationMailFor(stack.mailWebUrl, byCodeSignup)).code;
    const viaSignup = await client().auth.verifyOtp({
      email: byCodeSignup,
      token: signupCode,
      type: 'signup',
    });
    expect(viaSignup.error).toBeNull();
    expect(viaSignup.data.session).not.toBeNull();

    const { link } = await confirmationMailFor(stack.mailWebUrl, byHash);
    const tokenHash = new URL(link).searchParams.get('token')!;
    const viaHash = await client().auth.verifyOtp({ token_hash: tokenHash, type: 'signup' });
    expect(viaHash.error).toBeNull();
    expect(viaHash.data.user?.email).toBe(byHash);
    const spent = await client().auth.verifyOtp({ token_hash: tokenHash, type: 'signup' });
    expect(spent.error?.code).toBe('otp_expired');
  });

  it('sends the link back to the site URL when redirect_to is not an allowed address', async () => {
    const email = uniqueEmail('redirect');
    await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: 'https://attacker.example/collect' },
    });
    const { link } = await confirmationMailFor(stack.mailWebUrl, email);
    expect(new URL(link).searchParams.get('redirect_to')).toBe(APP_URL);
  });

  it('a second sign-up of an unconfirmed address sends a new link and leaves the account as it was', async () => {
    const email = uniqueEmail('twice');
    const first = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'First' } },
    });
    const firstMail = await confirmationMailFor(stack.mailWebUrl, email);
    const seen = await mailIds(email);
    await pause(MAX_FREQUENCY_MS + 100);

    // Whoever signs up again may not own the address: no new password, no new metadata.
    const second = await client().auth.signUp({
      email,
      password: 'another-password-1',
      options: { data: { name: 'Second' } },
    });
    expect(second.error).toBeNull();
    expect(second.data.session).toBeNull();
    expect(second.data.user?.id).toBe(first.data.user!.id);
    expect(second.data.user?.identities).toHaveLength(1);
    const secondMail = await confirmationMailFor(stack.mailWebUrl, email, { since: seen });
    expect(secondMail.code === firstMail.code && secondMail.link === firstMail.link).toBe(false);

    // The new link replaced the old one.
    expect((await followLink(firstMail.link)).fragment.get('error_code')).toBe('otp_expired');
    expect((await followLink(secondMail.link)).fragment.get('type')).toBe('signup');
    const signIn = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.user_metadata.name).toBe('First');
    const other = await client().auth.signInWithPassword({
      email,
      password: 'another-password-1',
    });
    expect(other.error?.code).toBe('invalid_credentials');
  });

  it('answers 429 within max_frequency of the last confirmation mail to the address', async () => {
    const email = uniqueEmail('frequency');
    expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const again = await client().auth.signUp({ email, password: PASSWORD });
    expect(again.error?.status).toBe(429);
    expect(again.error?.code).toBe('over_email_send_rate_limit');
    expect(again.error?.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds?\.$/,
    );
    const resent = await client().auth.resend({ type: 'signup', email });
    expect(resent.error?.code).toBe('over_email_send_rate_limit');
  });

  it('a second sign-up of a confirmed address answers 200 with a made-up user and sends nothing', async () => {
    const { email, id } = await confirmedAccount('taken');
    const before = await mailIds(email);
    const { data, error } = await client().auth.signUp({
      email: email.toUpperCase(),
      password: 'other-password-2',
      options: { data: { plan: 'free' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const user = data.user!;
    expect(user.id).not.toBe(id);
    expect(user.email).toBe(email);
    expect(user.identities).toEqual([]);
    expect(user.email_confirmed_at).toBeUndefined();
    expect(user.confirmation_sent_at).toBeTruthy();
    expect(user.user_metadata).toEqual({ plan: 'free' });
    expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    await pause(500);
    expect(await mailIds(email)).toEqual(before);
    // The account is untouched: its own password still signs in, the new one does not.
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
    const other = await client().auth.signInWithPassword({ email, password: 'other-password-2' });
    expect(other.error?.code).toBe('invalid_credentials');
  });
});

describe('resending the confirmation (POST /resend)', () => {
  it('mails a new link to an unconfirmed address, leading to the redirect asked for', async () => {
    const email = uniqueEmail('resend');
    expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const firstMail = await confirmationMailFor(stack.mailWebUrl, email);
    const seen = await mailIds(email);
    await pause(MAX_FREQUENCY_MS + 100);

    const redirectTo = `${APP_URL}/dashboard`;
    const { data, error } = await client().auth.resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: redirectTo },
    });
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const resent = await confirmationMailFor(stack.mailWebUrl, email, { since: seen });
    expect(resent.mail.subject).toBe('Confirm your signup to tinyback');
    expect(new URL(resent.link).searchParams.get('redirect_to')).toBe(redirectTo);

    const old = await client().auth.verifyOtp({ email, token: firstMail.code, type: 'email' });
    if (firstMail.code !== resent.code) expect(old.error?.code).toBe('otp_expired');
    const followed = await followLink(resent.link);
    expect(followed.location.href).toBe(redirectTo);
    expect(followed.fragment.get('access_token')).toBeTruthy();
  });

  it('answers alike, and sends nothing, for an unknown or an already confirmed address', async () => {
    const unknown = uniqueEmail('resend-nobody');
    const { email: confirmed } = await confirmedAccount('resend-confirmed');
    const before = await mailIds(confirmed);
    for (const email of [unknown, confirmed]) {
      const { data, error } = await client().auth.resend({ type: 'signup', email });
      expect(error).toBeNull();
      expect(data).toEqual({ user: null, session: null });
    }
    await pause(500);
    expect(await mailIds(unknown)).toEqual(new Set());
    expect(await mailIds(confirmed)).toEqual(before);
  });

  it('refuses the other types GoTrue resends, saying the local stack does not serve them', async () => {
    const { error } = await client().auth.resend({
      type: 'email_change',
      email: uniqueEmail('resend-change'),
    });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('not_implemented');
    expect(error?.message).toBe(
      'Resending "email_change" (POST /auth/v1/resend) is not supported by the local stack (see local-stack/README.md)',
    );
  });
});

describe('what the local stack does not serve', () => {
  it('refuses a PKCE sign-up confirmation (flowType pkce) instead of mailing a link it cannot finish', async () => {
    const pkce = createClient(stack.apiUrl, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, flowType: 'pkce' },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    const email = uniqueEmail('pkce');
    const signedUp = await pkce.auth.signUp({ email, password: PASSWORD });
    expect(signedUp.error?.status).toBe(400);
    expect(signedUp.error?.code).toBe('not_implemented');
    expect(signedUp.error?.message).toBe(
      'A PKCE sign-up confirmation (code_challenge on POST /auth/v1/signup) is not supported by the local stack (see local-stack/README.md)',
    );
    const resent = await pkce.auth.resend({ type: 'signup', email });
    expect(resent.error?.code).toBe('not_implemented');
    await pause(300);
    expect(await mailIds(email)).toEqual(new Set());
  });
});

describe('with confirmations off (enable_confirmations = false)', () => {
  // The Supabase CLI's default, on an Auth service beside the test stack's database and mail.
  let server: http.Server;
  let pool: pg.Pool;
  let dataDir: string;
  let apiUrl: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-auth-autoconfirm-'));
    pool = new pg.Pool({ connectionString: stack.dbUrl, max: 4 });
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    apiUrl = `http://127.0.0.1:${port}`;
    const settings = makeSettings({ ports: { ...stack.ports, api: port }, dataDir });
    settings.project.auth.enableConfirmations = false;
    const service = createAuthService({ settings, pool, log: () => undefined });
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', apiUrl);
      void service.handle(req, res, url.pathname.replace(/^\/auth\/v1/, '') || '/', url);
    });
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await pool?.end();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('signs up with auto-confirmation, returning a session with GoTrue claims', async () => {
    const supabase = client(apiUrl);
    const email = uniqueEmail('SignUp').replace('confirm-', 'Auto-');
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'Ada Lovelace' } },
    });
    expect(error).toBeNull();
    const { user, session } = data;
    expect(user?.email).toBe(email.toLowerCase());
    expect(user?.user_metadata).toMatchObject({
      name: 'Ada Lovelace',
      email: email.toLowerCase(),
      email_verified: true,
    });
    expect(user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(user?.aud).toBe('authenticated');
    expect(user?.role).toBe('authenticated');
    expect(user?.email_confirmed_at).toBeTruthy();
    expect(user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: user?.id });
    expect(session?.token_type).toBe('bearer');
    expect(session?.expires_in).toBe(3600);
    expect(session?.refresh_token).toMatch(/^[A-Za-z0-9]{12}$/);

    const { payload, protectedHeader } = await jwtVerify(
      session!.access_token,
      new TextEncoder().encode(stack.jwtSecret),
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({
      sub: user?.id,
      aud: 'authenticated',
      email: email.toLowerCase(),
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Ada Lovelace' },
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(typeof payload.session_id).toBe('string');
    expect(payload.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    // No confirmation mail: there is nothing to confirm.
    await pause(300);
    expect(await mailIds(email)).toEqual(new Set());
  });

  it('user_already_exists (422) for a second sign-up, whatever the case', async () => {
    const email = uniqueEmail('dup');
    expect((await client(apiUrl).auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const { data, error } = await client(apiUrl).auth.signUp({
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(error?.code).toBe('user_already_exists');
    expect(error?.status).toBe(422);
    expect(error?.message).toBe('User already registered');
    expect(data.session).toBeNull();
  });

  it('GET /settings reports mailer_autoconfirm: true', async () => {
    const res = await fetch(`${apiUrl}/auth/v1/settings`);
    expect(await res.json()).toMatchObject({ mailer_autoconfirm: true });
  });

  it("fails `npm run verify`'s sign-up check, saying to turn e-mail confirmations on", async () => {
    const check = checkSignUpNeedsConfirmation({
      apiUrl,
      anonKey: stack.anonKey,
      dbUrl: stack.dbUrl,
    });
    await expect(check).rejects.toBeInstanceOf(SignUpConfirmationError);
    await expect(check).rejects.toThrow(
      /got a session at once.*make it a verified target.*`\[auth\.email\] enable_confirmations = true`.*GOTRUE_MAILER_AUTOCONFIRM=false/,
    );
  });

  it('the same check passes against the test stack (config.toml: confirmations on)', async () => {
    expect((await checkSignUpNeedsConfirmation(stack)).outcome).toBe('unconfirmed');
  });
});
