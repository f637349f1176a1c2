// The product's e-mails in Chromium, as their readers get them: the notification states when the
// message came in the owner's own time zone (recorded by the dashboard the owner uses) and its
// link opens that message in the dashboard; Auth's mails (sign-up confirmation, password reset,
// e-mail change, the password-changed notice) come from tinyback's own templates; an
// autoresponse comes from "<form> via tinyback". Each caught mail's HTML is rendered at 390 and
// 1280 px into test-artifacts/screenshots/emails-*.png.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2e, SCREENSHOTS } from './support/session';
import { signedInUser } from './support/auth';
import { linksIn, waitForMailTo, type CaughtMail } from './support/mail';
import { createForm, newClient, serviceClient, TEST_PASSWORD } from '../support/supabase-users';
import { uniqueEmail } from '../support/db';
import { testStack } from '../support/stack.ts';

const ORIGIN = 'https://example.test';

describe('e-mails with tinyback’s face, in Chromium', () => {
  const e2e = useE2e('emails');

  /** The mail as its reader sees it, at a phone's and a desktop's width. */
  async function shotMail(mail: CaughtMail, name: string): Promise<void> {
    expect(mail.html, `${name} has an HTML part`).toBeTruthy();
    for (const width of [390, 1280]) {
      const context = await e2e.browser.newContext({
        viewport: { width, height: 700 },
        javaScriptEnabled: false,
      });
      try {
        const page = await context.newPage();
        await page.setContent(mail.html!, { waitUntil: 'load' });
        // The envelope as a mail client shows it above the message: sender, recipient, subject.
        await page.evaluate(
          ({ from, to, subject }) => {
            const bar = document.createElement('div');
            bar.setAttribute(
              'style',
              'font:13px/1.6 sans-serif;color:#333;background:#f4f4f5;padding:8px 16px;border-bottom:1px solid #ddd;overflow-wrap:anywhere',
            );
            for (const [label, value] of [
              ['From', from],
              ['To', to],
              ['Subject', subject],
            ]) {
              const line = document.createElement('div');
              line.textContent = `${label}: ${value}`;
              bar.append(line);
            }
            document.body.prepend(bar);
          },
          {
            from: mail.from
              .map((f) => (f.name ? `${f.name} <${f.address}>` : f.address))
              .join(', '),
            to: mail.to.map((t) => t.address).join(', '),
            subject: mail.subject,
          },
        );
        // Nothing wider than the screen: long links wrap.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: path.join(SCREENSHOTS, `emails-${name}-${width}.png`),
          fullPage: true,
        });
      } finally {
        await context.close();
      }
    }
  }

  async function storedZone(userId: string): Promise<string | null> {
    const { data } = await serviceClient()
      .from('profiles')
      .select('time_zone')
      .eq('id', userId)
      .single();
    return (data as { time_zone: string | null } | null)?.time_zone ?? null;
  }

  async function post(formId: string, fields: Record<string, string>): Promise<string> {
    const res = await fetch(`${testStack().apiUrl}/functions/v1/forms/${formId}`, {
      method: 'POST',
      headers: { Origin: ORIGIN, Accept: 'application/json' },
      body: new URLSearchParams(fields),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  }

  it(
    'notification: the owner’s local time, and a link that opens the message',
    { timeout: 120_000 },
    async () => {
      const page = await e2e.newPage({ timezoneId: 'Europe/Berlin' });
      const user = await signedInUser(page, 'Zoned Owner');
      // The dashboard records the browser's zone.
      await expect.poll(() => storedZone(user.id), { timeout: 15_000 }).toBe('Europe/Berlin');
      const formId = await createForm(user.client, 'Website contact', {
        target_email: user.email,
        allowed_origin: ORIGIN,
      });
      const entryId = await post(formId, {
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        message: 'Hello! Could you send me a quote for a booking site?\nThanks, Ada',
      });

      const mail = await waitForMailTo(user.email, /New submission: Website contact/);
      expect(mail.text).toMatch(/^Received .* \(Europe\/Berlin, UTC\+0[12]:00\)\.$/m);
      const link = linksIn(mail).find((href) => href.includes(`message=${entryId}`));
      expect(link, 'a link to the message').toBeDefined();
      const url = new URL(link!);
      expect(url.pathname).toBe('/dashboard/forms');
      await shotMail(mail, 'notification');

      // The link (on this test's own copy of the site) opens the message's drawer.
      await page.goto(`${url.pathname}${url.search}`);
      const drawer = page.getByRole('dialog', { name: 'Message from Ada Lovelace' });
      await drawer.waitFor({ timeout: 20_000 });
      expect(await drawer.innerText()).toContain('Could you send me a quote');
      await e2e.shot(page, 'notification-link-opened');
    },
  );

  it(
    'Auth’s mails come from tinyback’s templates: confirm, reset, e-mail change, password changed',
    { timeout: 120_000 },
    async () => {
      // Sign-up confirmation.
      const newcomer = uniqueEmail('template-signup');
      expect(
        (await newClient().auth.signUp({ email: newcomer, password: TEST_PASSWORD })).error,
      ).toBeNull();
      const confirm = await waitForMailTo(newcomer, /^Confirm your signup to tinyback$/);
      expect(confirm.html).toContain('Confirm my e-mail address');
      expect(linksIn(confirm).some((href) => href.includes('/auth/v1/verify'))).toBe(true);
      await shotMail(confirm, 'auth-confirmation');

      // Password reset and e-mail change, for a signed-in user.
      const page = await e2e.newPage();
      const user = await signedInUser(page, 'Template Reader');
      expect((await newClient().auth.resetPasswordForEmail(user.email)).error).toBeNull();
      const reset = await waitForMailTo(user.email, /^Reset your tinyback password$/);
      expect(reset.html).toContain('Choose a new password');
      await shotMail(reset, 'auth-recovery');

      const next = uniqueEmail('template-new');
      expect((await user.client.auth.updateUser({ email: next })).error).toBeNull();
      const change = await waitForMailTo(next, /new e-mail address of your tinyback account/);
      expect(change.html).toContain('Confirm the change');
      await shotMail(change, 'auth-email-change');

      // The password changed notice, after a change in Settings.
      await page.goto('/settings');
      await page.getByLabel('Current password', { exact: true }).fill(user.password);
      await page.getByLabel('New password', { exact: true }).fill('a-new-secret-42');
      await page.getByLabel('Confirm new password', { exact: true }).fill('a-new-secret-42');
      await page.getByRole('button', { name: 'Change password' }).click();
      const notice = await waitForMailTo(user.email, /^Your tinyback password was changed$/);
      expect(notice.html).toContain('Go to the sign-in page');
      await shotMail(notice, 'auth-password-changed');
    },
  );

  it('an autoresponse comes from “<form> via tinyback”', { timeout: 90_000 }, async () => {
    const page = await e2e.newPage();
    const user = await signedInUser(page, 'Reply Owner');
    const formId = await createForm(user.client, 'Hotel Seeblick bookings', {
      target_email: user.email,
      allowed_origin: ORIGIN,
    });
    const { error } = await user.client.from('form_autoresponders').insert({
      form_id: formId,
      enabled: true,
      subject: 'Thanks, {{name}}: we got your message',
      body: 'Hi {{name}},\n\nthanks for writing to {{form}}. We answer within a day.\n\nThe Seeblick team',
    });
    expect(error).toBeNull();
    const visitor = uniqueEmail('template-visitor');
    await post(formId, { name: 'Grace Hopper', email: visitor, message: 'A room for two?' });
    const reply = await waitForMailTo(visitor, /we got your message/);
    expect(reply.from[0]?.name).toBe('Hotel Seeblick bookings via tinyback');
    await shotMail(reply, 'autoresponse');
  });
});
