// A visitor whose form post the endpoint refuses, in Chromium: a real HTML form on another
// origin's page posts to the endpoint, the endpoint sends the browser (303) to the site's refusal
// page, which says in plain words what happened, and its "Go back to the form" returns to the
// form with everything still typed. One case per refusal a browser can meet; each page is
// screenshotted at 1280 and 390 px (test-artifacts/screenshots/form-errors-*.png).
//
// The endpoint runs on a stack of this file's own: its SITE_URL is this file's site (so the
// redirect lands on the page under test), and its CAPTCHA_VERIFY_URL_OVERRIDE points at a
// verification server started here on 127.0.0.1 (never a provider on the internet).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { REFUSAL_PAGE_PATH } from '../../supabase/functions/forms/refusal-page.ts';
import { createAuthUser, createForm } from '../support/db.ts';
import { rawRequest } from '../endpoint/support.ts';
import { remote } from '../support/target.ts';
import { SESSION_START_TIMEOUT, useE2e } from './support/session';
import { pageWith, startThirdPartySite, type ThirdPartySite } from './support/third-party-site';

const SECRET = 'e2e-captcha-secret';
/** The token the stand-in provider answers with 503, as during an outage. */
const OUTAGE = 'outage-token';

/** What the visitor types into every form before sending it. */
const TYPED = {
  name: 'Grace Hopper',
  email: 'grace@navy.example',
  message: 'A ship in port is safe, but that is not what ships are built for.',
};

interface Case {
  /** The screenshot's and the test's name. */
  name: string;
  /** The code the endpoint sends the browser with. */
  code: string;
  /** The page's heading and a phrase of what it says the visitor should do. */
  heading: string;
  says: RegExp;
  /** Overrides of what is typed (an empty form, a too long message, a bad address). */
  typed?: Partial<typeof TYPED>;
  /** Extra markup inside the form: a stand-in CAPTCHA token, a file input. */
  extra?: string;
  enctype?: string;
  /** Prepares the form (CAPTCHA, another origin, …) before the page is shown. */
  setUp?: (formId: string) => Promise<void>;
  /** Runs after the page is filled in, right before Send (e.g. the form is deleted meanwhile). */
  beforeSend?: (formId: string, page: Page) => Promise<void>;
  /** Runs once the refusal page is shown (e.g. storage comes back). */
  afterSend?: () => Promise<void>;
}

describe('a refused form post in Chromium', () => {
  const e2e = useE2e('form-errors');
  let stack: RunningStack;
  let dataDir: string;
  let verifier: http.Server;
  let thirdParty: ThirdPartySite;
  let ownerId: string;

  beforeAll(async () => {
    if (remote) return;
    // The provider's siteverify: an outage for OUTAGE, "no" for every other token.
    verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        if (new URLSearchParams(body).get('response') === OUTAGE)
          return void res.writeHead(503).end('unavailable');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, 'error-codes': ['invalid-input-response'] }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
    dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-form-errors-'));
    const [api, db, mailWeb, smtp] = await freePorts(4);
    [stack, thirdParty] = await Promise.all([
      startStack({
        dataDir,
        ports: { api, db, mailWeb, smtp },
        seed: false,
        functionEnv: { SITE_URL: e2e.url, CAPTCHA_VERIFY_URL_OVERRIDE: verifyUrl },
        log: (service, message) => {
          if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
        },
      }),
      startThirdPartySite(),
    ]);
    ownerId = (await createAuthUser(stack.pool, 'Form Owner')).id;
  }, SESSION_START_TIMEOUT);

  afterAll(async () => {
    await thirdParty?.close();
    await stack?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    verifier?.closeAllConnections();
    await new Promise((resolve) => (verifier ? verifier.close(resolve) : resolve(undefined)));
  });

  const setCaptcha = async (formId: string, secret: string | null) => {
    await stack.pool.query(
      `update public.forms set captcha_provider = 'turnstile', captcha_site_key = '0x4AAAAAAAsitekey'
        where id = $1`,
      [formId],
    );
    if (secret)
      await stack.pool.query(
        'insert into private.form_captcha_secrets (form_id, secret) values ($1, $2)',
        [formId, secret],
      );
  };

  const acceptPostSignature = async () =>
    (
      await stack.pool.query<{ signature: string }>(
        `select p.oid::regprocedure::text as signature from pg_proc p
          where p.proname = 'accept_post' and p.pronamespace = 'public'::regnamespace`,
      )
    ).rows[0]!.signature;

  /** The page with a plain contact form, as an owner pastes it (the e-mail field is plain text). */
  function formPage(formId: string, c: Case): string {
    const action = `${stack.settings.apiUrl}/functions/v1/forms/${formId}`;
    return pageWith(
      'Contact us',
      `<form method="POST" action="${action}"${c.enctype ? ` enctype="${c.enctype}"` : ''}>
  <p><label for="name">Name</label><br><input id="name" name="name"></p>
  <p><label for="email">Email</label><br><input id="email" name="email"></p>
  <p><label for="message">Message</label><br><textarea id="message" name="message"></textarea></p>
  ${c.extra ?? ''}
  <button type="submit">Send</button>
</form>`,
    );
  }

  const cases: Case[] = [
    {
      name: 'invalid-field',
      code: 'invalid_fields',
      heading: 'Some answers need another look',
      says: /Correct it and send the form again/,
      typed: { email: 'grace-at-navy' },
    },
    {
      name: 'empty',
      code: 'empty_submission',
      heading: 'The form was empty',
      says: /Fill it in and send it again/,
      typed: { name: '', email: '', message: '' },
    },
    {
      name: 'too-large',
      code: 'payload_too_large',
      heading: 'Your message is too long',
      says: /Shorten the longest answers/,
      typed: { message: 'An orbit, described at length. '.repeat(2_300) },
    },
    {
      name: 'rate-limited',
      code: 'rate_limited',
      heading: 'Too many messages in a short time',
      says: /^Wait about \d+ seconds?, then go back to the form/,
      // This visitor's network has sent its allowance already (from this machine, as the browser).
      setUp: async (formId) => {
        for (let i = 0; i < LIMITS.ratePerMinute; i++) {
          const res = await rawRequest(`${stack.settings.apiUrl}/functions/v1/forms/${formId}`, {
            headers: {
              origin: thirdParty.origin,
              accept: 'application/json',
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: `message=earlier+${i}`,
          });
          expect(res.status).toBe(200);
        }
      },
    },
    {
      name: 'captcha-missing',
      code: 'captcha_required',
      heading: 'Please complete the CAPTCHA',
      says: /Complete the check next to the Send button/,
      setUp: (formId) => setCaptcha(formId, SECRET),
    },
    {
      name: 'captcha-failed',
      code: 'captcha_failed',
      heading: 'The CAPTCHA could not be verified',
      says: /Complete the check again/,
      // The widget's token, as it would have filled it in; the provider says no.
      extra: '<input type="hidden" name="cf-turnstile-response" value="expired-token">',
      setUp: (formId) => setCaptcha(formId, SECRET),
    },
    {
      name: 'captcha-unavailable',
      code: 'captcha_unavailable',
      heading: 'The CAPTCHA could not be checked just now',
      says: /^Wait about 5 seconds, then go back to the form/,
      extra: `<input type="hidden" name="cf-turnstile-response" value="${OUTAGE}">`,
      setUp: (formId) => setCaptcha(formId, SECRET),
    },
    {
      name: 'captcha-misconfigured',
      code: 'captcha_misconfigured',
      heading: 'This form’s spam check is not set up correctly',
      says: /its owner needs to fix it/,
      extra: '<input type="hidden" name="cf-turnstile-response" value="some-token">',
      setUp: (formId) => setCaptcha(formId, null),
    },
    {
      name: 'form-gone',
      code: 'form_not_found',
      heading: 'This form no longer exists',
      says: /its owner needs to fix it/,
      // Deleted while the visitor was typing.
      beforeSend: async (formId) => {
        await stack.pool.query('delete from public.forms where id = $1', [formId]);
      },
    },
    {
      name: 'origin-not-allowed',
      code: 'origin_not_allowed',
      heading: 'This form does not take messages from this website',
      says: /It is set up for another website/,
      setUp: async (formId) => {
        await stack.pool.query(
          `update public.forms set allowed_origin = 'https://elsewhere.example' where id = $1`,
          [formId],
        );
      },
    },
    {
      name: 'storage-down',
      code: 'storage_failed',
      heading: 'Your message could not be saved just now',
      says: /^Wait about 5 seconds, then go back to the form/,
      beforeSend: async () => {
        await stack.pool.query(
          `revoke execute on function ${await acceptPostSignature()} from service_role`,
        );
      },
      afterSend: async () => {
        await stack.pool.query(
          `grant execute on function ${await acceptPostSignature()} to service_role`,
        );
      },
    },
    {
      name: 'text-plain-form',
      code: 'unsupported_media_type',
      heading: 'This form is not set up correctly',
      says: /its owner needs to fix it/,
      enctype: 'text/plain',
    },
    {
      name: 'file-upload',
      code: 'file_uploads_unsupported',
      heading: 'Files cannot be sent with this form',
      says: /Remove the attached file/,
      enctype: 'multipart/form-data',
      extra: '<p><label for="cv">CV</label><br><input id="cv" name="cv" type="file"></p>',
      beforeSend: async (_formId, page) => {
        await page.getByLabel('CV').setInputFiles({
          name: 'cv.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from('Rear admiral'),
        });
      },
    },
  ];

  for (const c of cases) {
    it(`${c.code}: the styled page says so, and going back keeps what was typed`, async (ctx) => {
      if (remote) ctx.skip('local stack only: it runs a stack of its own with a CAPTCHA stand-in');
      const formId = await createForm(stack.pool, ownerId, {
        name: 'Contact',
        target_email: 'owner@example.test',
        allowed_origin: thirdParty.origin,
      });
      await c.setUp?.(formId);
      const typed = { ...TYPED, ...c.typed };
      thirdParty.setPage(`/${c.name}`, formPage(formId, c));

      const page = await e2e.newPage();
      await page.goto(`${thirdParty.origin}/${c.name}`);
      await page.getByLabel('Name').fill(typed.name);
      await page.getByLabel('Email').fill(typed.email);
      await page.getByLabel('Message').fill(typed.message);
      await c.beforeSend?.(formId, page);
      try {
        await page.getByRole('button', { name: 'Send' }).click();
        await page.waitForURL((url) => url.pathname === REFUSAL_PAGE_PATH, { timeout: 30_000 });
      } finally {
        await c.afterSend?.();
      }

      // The site's page, not a line of text: the reason is in its address, in its words.
      const url = new URL(page.url());
      expect(url.origin).toBe(e2e.url);
      expect(url.searchParams.get('code')).toBe(c.code);
      await page.getByRole('heading', { level: 1, name: c.heading }).waitFor({ timeout: 20_000 });
      expect(await page.getByText(c.says).count()).toBeGreaterThan(0);
      if (c.code === 'invalid_fields') {
        expect(url.searchParams.get('fields')).toBe('email');
        expect(await page.getByTestId('refused-fields').innerText()).toContain('email');
      }
      // Nothing the visitor typed travels in the address or shows on the page.
      expect(page.url()).not.toContain('Grace');
      expect(await page.locator('body').innerText()).not.toContain(TYPED.message);
      await e2e.shot(page, `${c.name}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
      await e2e.shot(page, `${c.name}-390`);
      // Nothing spills sideways on a phone.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await page.setViewportSize({ width: 1280, height: 800 });

      // The referring site is offered too; the history leads back to the form itself.
      expect(
        await page
          .getByRole('link', { name: `Back to ${new URL(thirdParty.origin).host}` })
          .count(),
      ).toBe(1);
      await page.getByRole('button', { name: 'Go back to the form' }).click();
      await page.waitForURL(`${thirdParty.origin}/${c.name}`);
      await page.getByLabel('Message').waitFor();
      await expect.poll(() => page.getByLabel('Message').inputValue()).toBe(typed.message);
      expect(await page.getByLabel('Name').inputValue()).toBe(typed.name);
      expect(await page.getByLabel('Email').inputValue()).toBe(typed.email);
    });
  }
});
