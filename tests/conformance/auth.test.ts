// Conformance of the local Auth (GoTrue) stand-in, driven through @supabase/supabase-js as the app
// uses it: sign-up, sign-in, sessions, refresh rotation, user updates, sign-out scopes, password
// recovery through real SMTP into the mail catcher, the admin API, and GoTrue's error codes. The
// sign-up confirmation (config.toml's enable_confirmations) is in auth-confirmation.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuthClient, createClient, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt, SignJWT } from 'jose';
import pg from 'pg';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '../../local-stack/auth/index.ts';
import { makeSettings, type ProjectConfig } from '../../local-stack/config.ts';
import { confirmationMailFor } from '../support/confirmation.ts';
import { isTo, readableText, waitForMail, type CaughtMail } from '../support/mail.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const PASSWORD = 'correct-horse-1';
const APP_URL = 'http://127.0.0.1:5173';

let counter = 0;
/** A fresh address per test so tests never see each other's users. */
const uniqueEmail = (tag: string) =>
  `auth-${tag}-${Date.now().toString(36)}-${counter++}@example.com`;

function client(apiUrl = stack.apiUrl): SupabaseClient {
  return createClient(apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; supabase-js builds its realtime client eagerly.
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}

/**
 * A new user through the whole sign-up: `signUp` (no session while the e-mail is unconfirmed),
 * then the code from the confirmation mail, which confirms it and returns the session.
 */
async function signedUp(tag: string, data: Record<string, unknown> = {}) {
  const supabase = client();
  const email = uniqueEmail(tag);
  const { data: result, error } = await supabase.auth.signUp({
    email,
    password: PASSWORD,
    options: { data },
  });
  expect(error).toBeNull();
  expect(result.session).toBeNull();
  const { code } = await confirmationMailFor(stack.mailWebUrl, email);
  const confirmed = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
  expect(confirmed.error).toBeNull();
  expect(confirmed.data.session).not.toBeNull();
  return { supabase, email, session: confirmed.data.session!, user: confirmed.data.user! };
}

/** The recovery link and code from the mail the catcher received for `email`. */
async function recoveryMailFor(
  email: string,
): Promise<{ mail: CaughtMail; link: string; code: string }> {
  const mail = await waitForMail(
    stack.mailWebUrl,
    (m) => isTo(m, email) && /reset/i.test(m.subject),
    10_000,
  );
  const link = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(readableText(mail))?.[1];
  const code = /code: (\d{6})/.exec(readableText(mail))?.[1];
  if (!link || !code) throw new Error(`recovery mail without link or code: ${readableText(mail)}`);
  return { mail, link, code };
}

describe('sign-up and sign-in', () => {
  it('stores users as GoTrue does: lower-cased e-mail, bcrypt cost 10, identity and session rows', async () => {
    const { email, user, session } = await signedUp('storage', { name: 'Stored Person' });
    const db = new pg.Client({ connectionString: stack.dbUrl });
    await db.connect();
    try {
      const u = await db.query(
        'select email, encrypted_password, raw_user_meta_data from auth.users where id = $1',
        [user.id],
      );
      expect(u.rows[0].email).toBe(email.toLowerCase());
      expect(u.rows[0].encrypted_password).toMatch(/^\$2[aby]\$10\$/);
      const identities = await db.query('select provider from auth.identities where user_id = $1', [
        user.id,
      ]);
      expect(identities.rows).toEqual([{ provider: 'email' }]);
      const sessionId = decodeJwt(session.access_token).session_id;
      const tokens = await db.query(
        'select token, revoked from auth.refresh_tokens where session_id = $1',
        [sessionId],
      );
      expect(tokens.rows).toEqual([{ token: session.refresh_token, revoked: false }]);
      // The insert went through SQL, so the migrations' trigger on auth.users made the profile.
      const profile = await db.query('select name, email from public.profiles where id = $1', [
        user.id,
      ]);
      expect(profile.rows).toEqual([{ name: 'Stored Person', email: email.toLowerCase() }]);
    } finally {
      await db.end();
    }
  });

  it('signs in with e-mail (any case) and password; getUser and getSession return the user', async () => {
    const { email, user } = await signedUp('signin', { name: 'Grace' });
    const supabase = client();
    const { data, error } = await supabase.auth.signInWithPassword({
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(data.user?.last_sign_in_at).toBeTruthy();

    const got = await supabase.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(user.id);
    expect(got.data.user?.user_metadata.name).toBe('Grace');

    const current = await supabase.auth.getSession();
    expect(current.data.session?.access_token).toBe(data.session?.access_token);
  });
});

describe('refresh tokens', () => {
  it('rotates the refresh token and issues a working access token', async () => {
    const { supabase, session } = await signedUp('refresh');
    const { data, error } = await supabase.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(data.session!.access_token).session_id).toBe(
      decodeJwt(session.access_token).session_id,
    );
    const got = await client().auth.getUser(data.session!.access_token);
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(session.user.id);
  });

  it('within the reuse interval, the previous token yields the current one instead of failing', async () => {
    const { supabase, session } = await signedUp('reuse');
    const first = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(first.error).toBeNull();
    const again = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(again.error).toBeNull();
    expect(again.data.session?.refresh_token).toBe(first.data.session?.refresh_token);
  });

  it('two tabs refreshing the same token at once both get the same successor', async () => {
    const { session } = await signedUp('race');
    const [a, b] = await Promise.all([
      client().auth.refreshSession({ refresh_token: session.refresh_token }),
      client().auth.refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    expect(a.data.session?.refresh_token).toBe(b.data.session?.refresh_token);
  });

  it('refresh_token_not_found (400) for an unknown token', async () => {
    const { error } = await client().auth.refreshSession({ refresh_token: 'doesNotExist' });
    expect(error?.code).toBe('refresh_token_not_found');
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('Invalid Refresh Token: Refresh Token Not Found');
  });
});

describe('updating the user', () => {
  it('merges data into user_metadata', async () => {
    const { supabase } = await signedUp('meta', { name: 'Old Name', plan: 'free' });
    const { data, error } = await supabase.auth.updateUser({ data: { name: 'New Name' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({
      name: 'New Name',
      plan: 'free',
      email_verified: true,
    });
    const got = await supabase.auth.getUser();
    expect(got.data.user?.user_metadata.name).toBe('New Name');
  });

  it('changes the password; the old one stops working', async () => {
    const { supabase, email } = await signedUp('password');
    const { error } = await supabase.auth.updateUser({ password: 'a-new-password' });
    expect(error).toBeNull();
    const oldOne = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(oldOne.error?.code).toBe('invalid_credentials');
    const newOne = await client().auth.signInWithPassword({ email, password: 'a-new-password' });
    expect(newOne.error).toBeNull();
  });

  it('same_password (422) when the new password equals the current one', async () => {
    const { supabase } = await signedUp('same');
    const { error } = await supabase.auth.updateUser({ password: PASSWORD });
    expect(error?.code).toBe('same_password');
    expect(error?.status).toBe(422);
  });

  it('weak_password (422) on update too', async () => {
    const { supabase } = await signedUp('weak-update');
    const { error } = await supabase.auth.updateUser({ password: '123' });
    expect(error?.code).toBe('weak_password');
    expect(error?.status).toBe(422);
  });
});

describe('signing out', () => {
  it('global sign-out ends every session: refresh fails and the old JWT is refused', async () => {
    const { supabase, email, session } = await signedUp('logout');
    const other = client();
    const otherSignIn = await other.auth.signInWithPassword({ email, password: PASSWORD });
    expect(otherSignIn.error).toBeNull();

    const { error } = await supabase.auth.signOut();
    expect(error).toBeNull();
    expect((await supabase.auth.getSession()).data.session).toBeNull();

    const refresh = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error?.code).toBe('refresh_token_not_found');
    expect(refresh.error?.status).toBe(400);
    const otherRefresh = await client().auth.refreshSession({
      refresh_token: otherSignIn.data.session!.refresh_token,
    });
    expect(otherRefresh.error?.code).toBe('refresh_token_not_found');

    // GoTrue answers 403 session_not_found; auth-js turns that into AuthSessionMissingError.
    const got = await client().auth.getUser(session.access_token);
    expect(got.data.user).toBeNull();
    expect(got.error?.name).toBe('AuthSessionMissingError');
  });

  it("scope 'local' ends only this session, 'others' every session but this one", async () => {
    const { email } = await signedUp('scopes');
    const [a, b, c] = [client(), client(), client()];
    const sessions = [];
    for (const x of [a, b, c]) {
      const { data, error } = await x.auth.signInWithPassword({ email, password: PASSWORD });
      expect(error).toBeNull();
      sessions.push(data.session!);
    }
    expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await client().auth.getUser(sessions[0].access_token)).error?.name).toBe(
      'AuthSessionMissingError',
    );
    expect((await client().auth.getUser(sessions[1].access_token)).error).toBeNull();

    expect((await b.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await client().auth.getUser(sessions[1].access_token)).error).toBeNull();
    expect((await client().auth.getUser(sessions[2].access_token)).error?.name).toBe(
      'AuthSessionMissingError',
    );
  });
});

describe('password recovery by e-mail', () => {
  it('mails a link; following it yields a session that may set a new password', async () => {
    const { email } = await signedUp('recover');
    const redirectTo = `${APP_URL}/reset-password`;
    const { data, error } = await client().auth.resetPasswordForEmail(email, { redirectTo });
    expect(error).toBeNull();
    expect(data).toEqual({});

    const { mail, link } = await recoveryMailFor(email);
    expect(mail.subject).toBe('Reset your tinyback password');
    const linkUrl = new URL(link);
    expect(linkUrl.origin).toBe(stack.apiUrl);
    expect(linkUrl.searchParams.get('type')).toBe('recovery');
    expect(linkUrl.searchParams.get('redirect_to')).toBe(redirectTo);
    expect(mail.html).toContain('Choose a new password');

    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const location = new URL(followed.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectTo);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect([...fragment.keys()]).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'token_type',
      'type',
    ]);
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(decodeJwt(fragment.get('access_token')!).amr).toEqual([
      { method: 'recovery', timestamp: expect.any(Number) },
    ]);

    const browser = client();
    const set = await browser.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    expect(set.data.user?.email).toBe(email);
    const updated = await browser.auth.updateUser({ password: 'recovered-password' });
    expect(updated.error).toBeNull();

    const signIn = await client().auth.signInWithPassword({
      email,
      password: 'recovered-password',
    });
    expect(signIn.error).toBeNull();

    // The link is single-use: a second visit redirects with GoTrue's error fragment.
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(303);
    const errorLocation = new URL(again.headers.get('location')!);
    const errorFragment = new URLSearchParams(errorLocation.hash.slice(1));
    expect(errorFragment.get('error')).toBe('access_denied');
    expect(errorFragment.get('error_code')).toBe('otp_expired');
    expect(errorFragment.get('error_description')).toBeTruthy();
  });

  it('verifyOtp with the e-mailed code returns a session', async () => {
    const { email, user } = await signedUp('recover-otp');
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const { code, link } = await recoveryMailFor(email);
    // Without redirect_to the link goes back to the site URL.
    expect(new URL(link).searchParams.get('redirect_to')).toBe(APP_URL);

    const wrong = await client().auth.verifyOtp({
      email,
      token: code === '000000' ? '111111' : '000000',
      type: 'recovery',
    });
    expect(wrong.error?.code).toBe('otp_expired');
    expect(wrong.error?.status).toBe(403);

    const { data, error } = await client().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(error).toBeNull();
    expect(data.session?.user.id).toBe(user.id);
    expect(data.user?.id).toBe(user.id);
  });

  it('verifyOtp with the token hash from the link returns a session', async () => {
    const { email } = await signedUp('recover-hash');
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const { link } = await recoveryMailFor(email);
    const tokenHash = new URL(link).searchParams.get('token')!;
    const { data, error } = await client().auth.verifyOtp({
      token_hash: tokenHash,
      type: 'recovery',
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
  });

  it('answers {} for an unknown address without revealing it', async () => {
    const { data, error } = await client().auth.resetPasswordForEmail(uniqueEmail('nobody'));
    expect(error).toBeNull();
    expect(data).toEqual({});
  });

  it('validation_failed (400) for a malformed address', async () => {
    const { error } = await client().auth.resetPasswordForEmail('not-an-email');
    expect(error?.code).toBe('validation_failed');
    expect(error?.status).toBe(400);
  });
});

describe('admin API (service_role)', () => {
  const admin = () =>
    createClient(stack.apiUrl, stack.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });

  it('creates, lists and deletes users', async () => {
    const email = uniqueEmail('admin');
    const created = await admin().auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { name: 'Created By Admin' },
    });
    expect(created.error).toBeNull();
    expect(created.data.user?.user_metadata.name).toBe('Created By Admin');
    const signIn = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();

    const listed = await admin().auth.admin.listUsers({ page: 1, perPage: 1000 });
    expect(listed.error).toBeNull();
    expect(listed.data.users.some((u) => u.email === email)).toBe(true);

    const removed = await admin().auth.admin.deleteUser(created.data.user!.id);
    expect(removed.error).toBeNull();
    const after = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(after.error?.code).toBe('invalid_credentials');

    const duplicate = await admin().auth.admin.createUser({
      email: signIn.data.user!.email!,
      password: PASSWORD,
    });
    expect(duplicate.error).toBeNull(); // the deleted address is free again
  });

  it('email_exists (422) when creating an existing address', async () => {
    const { email } = await signedUp('admin-dup');
    const { error } = await admin().auth.admin.createUser({ email, password: PASSWORD });
    expect(error?.code).toBe('email_exists');
    expect(error?.status).toBe(422);
  });

  it('not_admin (403) with the anon key', async () => {
    const anon = await client().auth.admin.listUsers();
    expect(anon.error?.code).toBe('not_admin');
    expect(anon.error?.status).toBe(403);
  });
});

describe('error codes', () => {
  it('weak_password (422) with reasons, using minimum_password_length from config.toml', async () => {
    const { error } = await client().auth.signUp({ email: uniqueEmail('weak'), password: '12345' });
    expect(error?.code).toBe('weak_password');
    expect(error?.status).toBe(422);
    expect(error?.message).toBe('Password should be at least 6 characters.');
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(['length']);
  });

  it('validation_failed (400) for a malformed e-mail or a missing password', async () => {
    const badEmail = await client().auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(badEmail.error?.code).toBe('validation_failed');
    expect(badEmail.error?.status).toBe(400);
    expect(badEmail.error?.message).toBe('Unable to validate email address: invalid format');

    const noPassword = await client().auth.signUp({ email: uniqueEmail('nopw'), password: '' });
    expect(noPassword.error?.code).toBe('validation_failed');
    expect(noPassword.error?.status).toBe(400);
    expect(noPassword.error?.message).toBe('Signup requires a valid password');
  });

  it('invalid_credentials (400) for a wrong password or an unknown address', async () => {
    const { email } = await signedUp('creds');
    for (const attempt of [
      { email, password: 'wrong-password' },
      { email: uniqueEmail('unknown'), password: PASSWORD },
    ]) {
      const { error } = await client().auth.signInWithPassword(attempt);
      expect(error?.code).toBe('invalid_credentials');
      expect(error?.status).toBe(400);
      expect(error?.message).toBe('Invalid login credentials');
    }
  });

  it('bad_jwt (403) for an unverifiable token or one without a subject', async () => {
    const garbage = await client().auth.getUser('not.a.jwt');
    expect(garbage.error?.code).toBe('bad_jwt');
    expect(garbage.error?.status).toBe(403);

    const secret = new TextEncoder().encode(stack.jwtSecret);
    const { session } = await signedUp('expired');
    const claims = decodeJwt(session.access_token);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(secret);
    const expiredResult = await client().auth.getUser(expired);
    expect(expiredResult.error?.code).toBe('bad_jwt');
    expect(expiredResult.error?.status).toBe(403);
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('another-secret-that-is-at-least-32-chars'));
    expect((await client().auth.getUser(forged)).error?.code).toBe('bad_jwt');

    const anonKey = await client().auth.getUser(stack.anonKey);
    expect(anonKey.error?.code).toBe('bad_jwt');
    expect(anonKey.error?.status).toBe(403);
    expect(anonKey.error?.message).toBe('invalid claim: missing sub claim');
  });
});

/**
 * A second Auth service on the same database with other config.toml settings, for behaviour the
 * project's config does not show: disabled sign-ups and a zero refresh-token reuse interval.
 */
describe('deleted users', () => {
  it('user_not_found (403) for a still-unexpired JWT of a deleted user', async () => {
    const { user, session } = await signedUp('deleted');
    const admin = createClient(stack.apiUrl, stack.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    expect((await admin.auth.admin.deleteUser(user.id)).error).toBeNull();
    const { error } = await client().auth.getUser(session.access_token);
    expect(error?.code).toBe('user_not_found');
    expect(error?.status).toBe(403);
  });
});

describe('with other config.toml settings', () => {
  let server: http.Server;
  let pool: pg.Pool;
  let dataDir: string;
  let apiUrl: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-auth-test-'));
    pool = new pg.Pool({ connectionString: stack.dbUrl, max: 4 });
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    apiUrl = `http://127.0.0.1:${port}`;
    const settings = makeSettings({ ports: { ...stack.ports, api: port }, dataDir });
    const auth: ProjectConfig['auth'] = {
      ...settings.project.auth,
      enableSignup: false,
      refreshTokenReuseInterval: 0,
    };
    const service = createAuthService({
      settings: { ...settings, project: { ...settings.project, auth } },
      pool,
      log: () => undefined,
    });
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

  it('no_authorization (401) without any bearer token (the gateway refuses such requests first)', async () => {
    const bare = new AuthClient({
      url: `${apiUrl}/auth/v1`,
      headers: {},
      persistSession: false,
      autoRefreshToken: false,
    });
    const { error } = await bare.admin.listUsers();
    expect(error?.code).toBe('no_authorization');
    expect(error?.status).toBe(401);
  });

  it('signup_disabled (422) when sign-ups are turned off', async () => {
    const { error } = await client(apiUrl).auth.signUp({
      email: uniqueEmail('disabled'),
      password: PASSWORD,
    });
    expect(error?.code).toBe('signup_disabled');
    expect(error?.status).toBe(422);
    expect(error?.message).toBe('Signups not allowed for this instance');
  });

  it('refresh_token_already_used (400) when a rotated token comes back after the reuse interval', async () => {
    const { email } = await signedUp('already-used');
    const supabase = client(apiUrl);
    const { data } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const first = await client(apiUrl).auth.refreshSession({
      refresh_token: data.session!.refresh_token,
    });
    expect(first.error).toBeNull();
    const reused = await client(apiUrl).auth.refreshSession({
      refresh_token: data.session!.refresh_token,
    });
    expect(reused.error?.code).toBe('refresh_token_already_used');
    expect(reused.error?.status).toBe(400);
    expect(reused.error?.message).toBe('Invalid Refresh Token: Already Used');
    // Reuse revokes the whole family: the successor is dead too.
    const successor = await client(apiUrl).auth.refreshSession({
      refresh_token: first.data.session!.refresh_token,
    });
    expect(successor.error?.code).toBe('refresh_token_already_used');
  });
});

describe('features the local stack does not serve', () => {
  it('answers 400 not_implemented for one-time codes, MFA and other GoTrue features it lacks', async () => {
    const { error } = await client().auth.signInWithOtp({ email: uniqueEmail('otp') });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('not_implemented');
    expect(error?.message).toBe(
      'POST /auth/v1/otp is not supported by the local stack (see local-stack/README.md)',
    );

    const headers = { apikey: stack.anonKey, 'Content-Type': 'application/json' };
    for (const [path, method] of [
      ['/factors', 'POST'],
      ['/magiclink', 'POST'],
      ['/sso', 'POST'],
      ['/user/identities/authorize', 'GET'],
      ['/admin/generate_link', 'POST'],
    ]) {
      const res = await fetch(`${stack.apiUrl}/auth/v1${path}`, {
        method,
        headers,
        body: method === 'GET' ? undefined : '{}',
      });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toMatchObject({ code: 'not_implemented' });
    }
    const pkce = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ auth_code: 'x', code_verifier: 'y' }),
    });
    expect(pkce.status).toBe(400);
    expect(await pkce.json()).toMatchObject({
      code: 'not_implemented',
      message: 'The pkce grant is not supported by the local stack (see local-stack/README.md)',
    });
  });
});

describe('HTTP edge cases (requests supabase-js never sends)', () => {
  const auth = (p: string, init?: RequestInit) =>
    fetch(`${stack.apiUrl}/auth/v1${p}`, {
      ...init,
      headers: { apikey: stack.anonKey, 'X-Supabase-Api-Version': '2024-01-01', ...init?.headers },
    });

  it('404 for unknown paths and 405 for wrong methods, in GoTrue error shape', async () => {
    const missing = await auth('/no-such-endpoint');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    const wrongMethod = await auth('/signup', { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
    });
  });

  it('400 bad_json for malformed JSON and wrongly typed fields, with both code fields and the header', async () => {
    for (const body of ['{"email": ', '[1,2]', '{"email": 42, "password": "x"}']) {
      const res = await auth('/signup', {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-sb-error-code')).toBe('bad_json');
      const json = await res.json();
      expect(json).toMatchObject({ code: 'bad_json', error_code: 'bad_json' });
    }
  });

  it('refuses oversized bodies and keeps serving', async () => {
    const res = await auth('/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 'x@example.com', password: 'x'.repeat(2_000_000) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    const health = await auth('/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ name: 'GoTrue' });
  });

  it('GET /settings reports e-mail sign-up with confirmations on (no auto-confirmation)', async () => {
    const res = await auth('/settings');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      external: { email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: false,
    });
  });
});
