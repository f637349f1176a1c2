// Auth's own mails, driven through @supabase/supabase-js and read from the mail catcher: the local
// Auth stand-in serves supabase/config.toml's `[auth.email.template.*]` (sign-up confirmation,
// password reset, e-mail change) and `[auth.email.notification.password_changed]` as GoTrue does —
// the configured subject, the template's HTML as the whole mail (no plain-text part), each value
// escaped where it stands (Go html/template; the stand-in's renderer gives these templates byte
// for byte what Go's gives) — and secure_password_change's reauthentication rule.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../local-stack/config.ts';
import { superuserPool } from '../support/db.ts';
import { isTo, readableText, sentHtmlOf, waitForMail, type CaughtMail } from '../support/mail.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const PASSWORD = 'correct-horse-1';
const config = loadProjectConfig();
const { templates, notifications } = config.auth.mailTemplates;
let pool: pg.Pool;
let counter = 0;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool?.query(`delete from auth.users where email like 'tpl+%'`);
  await pool?.end();
});

/** A fresh address with a `+`, which html/template writes as `&#43;` in HTML. */
const uniqueEmail = (tag: string) =>
  `tpl+${tag}-${Date.now().toString(36)}-${counter++}@example.com`;

function client(): SupabaseClient {
  return createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}

const mailTo = (email: string, subject: string) =>
  waitForMail(stack.mailWebUrl, (m) => isTo(m, email) && m.subject === subject);

/** The verify link and the code, as a reader finds them in the mail. */
function linkAndCode(mail: CaughtMail) {
  const text = readableText(mail);
  const link = /(https?:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(text)?.[1];
  const code = /code: (\d{6})/.exec(text)?.[1];
  if (!link || !code) throw new Error(`no link or code in:\n${text}`);
  return { link, code };
}

const escapedLink = (link: string) => link.replace(/&/g, '&amp;');

/** A confirmed user, signed in. */
async function signedIn(tag: string) {
  const email = uniqueEmail(tag);
  const admin = createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
  expect(
    (await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true })).error,
  ).toBeNull();
  const supabase = client();
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, email, session: data.session! };
}

describe("Auth's mails from config.toml's templates", () => {
  it('sends the sign-up confirmation from its template: subject, HTML alone, values escaped', async () => {
    const email = uniqueEmail('signup');
    const redirectTo = `${config.auth.siteUrl}/dashboard`;
    const { error } = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: redirectTo },
    });
    expect(error).toBeNull();
    const mail = await mailTo(email, 'Confirm your signup to tinyback');
    expect(mail.text).toBeFalsy();
    const { link, code } = linkAndCode(mail);
    expect(new URL(link).searchParams.get('type')).toBe('signup');
    // GoTrue leaves a redirect without &, = or # as it is in the link.
    expect(link.endsWith(`&redirect_to=${redirectTo}`)).toBe(true);
    // Exactly the configured template, rendered with what GoTrue gives this mail.
    expect(await sentHtmlOf(stack.mailWebUrl, mail)).toBe(
      templates
        .confirmation!.body!.render({
          SiteURL: config.auth.siteUrl,
          ConfirmationURL: link,
          Email: email,
          Token: code,
          TokenHash: new URL(link).searchParams.get('token')!,
          RedirectTo: redirectTo,
        })
        .trimEnd(),
    );
    expect(mail.html).toContain(`<strong>${email.replace('+', '&#43;')}</strong>`);
    expect(mail.html).toContain(`<a href="${escapedLink(link)}"`);
    expect(mail.html).toContain('>Confirm my e-mail address</a>');
    expect(mail.html).toContain('<html lang="en">');
    // html/template drops the template's HTML comment.
    expect(mail.html).not.toContain('<!--');
    // The link confirms the account, as the default mail's did.
    const followed = await fetch(link, { redirect: 'manual' });
    expect(new URL(followed.headers.get('location')!).hash).toContain('access_token=');
  });

  it('sends the password reset from its template', async () => {
    const { email } = await signedIn('recover');
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const mail = await mailTo(email, 'Reset your tinyback password');
    expect(mail.text).toBeFalsy();
    const { link, code } = linkAndCode(mail);
    expect(new URL(link).searchParams.get('type')).toBe('recovery');
    expect(await sentHtmlOf(stack.mailWebUrl, mail)).toBe(
      templates
        .recovery!.body!.render({
          SiteURL: config.auth.siteUrl,
          ConfirmationURL: link,
          Email: email,
          Token: code,
          TokenHash: new URL(link).searchParams.get('token')!,
          RedirectTo: config.auth.siteUrl,
        })
        .trimEnd(),
    );
    expect(mail.html).toContain('>Choose a new password</a>');
  });

  it('sends the e-mail change to both addresses, each told where it went', async () => {
    const { supabase, email } = await signedIn('change');
    const next = uniqueEmail('change-new');
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
    const subject = 'Confirm the new e-mail address of your tinyback account';
    for (const to of [next, email]) {
      const mail = await mailTo(to, subject);
      expect(mail.text).toBeFalsy();
      const { link, code } = linkAndCode(mail);
      expect(new URL(link).searchParams.get('type')).toBe('email_change');
      expect(await sentHtmlOf(stack.mailWebUrl, mail)).toBe(
        templates
          .email_change!.body!.render({
            SiteURL: config.auth.siteUrl,
            ConfirmationURL: link,
            Email: email,
            NewEmail: next,
            SendingTo: to,
            Token: code,
            TokenHash: new URL(link).searchParams.get('token')!,
            RedirectTo: config.auth.siteUrl,
          })
          .trimEnd(),
      );
      expect(mail.html).toContain(`This message went to ${to.replace('+', '&#43;')};`);
    }
  });

  it('mails the "password changed" notice after a change, from its template', async () => {
    const { supabase, email } = await signedIn('changed');
    expect((await supabase.auth.updateUser({ password: 'a-new-secret-42' })).error).toBeNull();
    const mail = await mailTo(email, 'Your tinyback password was changed');
    expect(mail.text).toBeFalsy();
    expect(await sentHtmlOf(stack.mailWebUrl, mail)).toBe(
      notifications
        .password_changed!.body!.render({ SiteURL: config.auth.siteUrl, Email: email })
        .trimEnd()
        .trimEnd(),
    );
    expect(mail.html).toContain(`<a href="${config.auth.siteUrl}/login"`);
    // Changing only the name sends nothing.
    expect((await supabase.auth.updateUser({ data: { name: 'x' } })).error).toBeNull();
  });
});

describe('secure_password_change (config.toml), as GoTrue applies it', () => {
  it('lets a session signed in within a day change the password', async () => {
    const { supabase } = await signedIn('fresh');
    expect((await supabase.auth.updateUser({ password: 'another-secret-7' })).error).toBeNull();
  });

  it('asks a session signed in more than a day ago to reauthenticate, and changes nothing', async () => {
    const { supabase, email, session } = await signedIn('stale');
    const sessionId = JSON.parse(
      Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString(),
    ).session_id as string;
    await pool.query(
      `update auth.sessions set created_at = now() - interval '25 hours' where id = $1`,
      [sessionId],
    );
    const { error } = await supabase.auth.updateUser({ password: 'another-secret-7' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('reauthentication_needed');
    expect(error?.message).toBe('Password update requires reauthentication');
    // A nonce from /reauthenticate is what GoTrue would take; the stand-in says it has none.
    const withNonce = await supabase.auth.updateUser({ password: 'another-secret-7', nonce: '1' });
    expect(withNonce.error?.code).toBe('not_implemented');
    // The password is unchanged; a fresh sign-in with it may change it.
    const again = client();
    expect((await again.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await again.auth.updateUser({ password: 'another-secret-7' })).error).toBeNull();
  });
});
