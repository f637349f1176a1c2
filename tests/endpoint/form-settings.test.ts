// The per-form settings at the form endpoint, over real HTTP on the local stack (gateway → Deno
// function → Postgres; SMTP → mail catcher): e-mail notifications off (stored, nothing queued or
// sent) and the form's own thank-you page (303 there, unless a valid `_next` says otherwise).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { superuserPool } from '../support/db.ts';
import { isTo, listMail, waitForMail } from '../support/mail.ts';
import { needsMail, needsSiteUrl } from '../support/target.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  resetRateLimits,
  seedForm,
  storedFor,
  urlencoded,
  type SeededForm,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const THANK_YOU = 'https://thanks.example.test/merci?from=form';
let pool: pg.Pool;

beforeAll(() => {
  pool = superuserPool(stack.dbUrl);
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

const post = (form: SeededForm, fields: Record<string, string>, accept = 'text/html') =>
  rawRequest(functionUrl(stack.apiUrl, form.formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept,
    },
    body: urlencoded(fields),
  });

async function setForm(
  formId: string,
  settings: { notify_email?: boolean; redirect_url?: string | null },
) {
  const { rowCount } = await pool.query(
    `update public.forms
        set notify_email = coalesce($2, notify_email),
            redirect_url = case when $3 then $4 else redirect_url end
      where id = $1`,
    [
      formId,
      settings.notify_email ?? null,
      'redirect_url' in settings,
      settings.redirect_url ?? null,
    ],
  );
  expect(rowCount).toBe(1);
}

describe('e-mail notifications off', () => {
  it('stores the entry but queues and sends no e-mail, until they are on again', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await seedForm(pool);
    await setForm(form.formId, { notify_email: false });

    const browser = await post(form, { name: 'Ada', message: 'first, while off' });
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe(`${SITE_URL}/thanks`);
    const json = await post(form, { message: 'second, while off' }, 'application/json');
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toEqual({ ok: true, id: expect.any(String) });
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 2, deliveries: 0 });

    // Turned on again, the next message is mailed; it is the only mail this inbox ever gets.
    await setForm(form.formId, { notify_email: true });
    await post(form, { message: 'third, while on' });
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 3, deliveries: 1 });
    await waitForMail(stack.mailWebUrl, (m) => isTo(m, form.targetEmail), 20_000);
    const inbox = (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, form.targetEmail));
    expect(inbox).toHaveLength(1);
    expect(inbox[0].text).toContain('third, while on');
  });
});

describe("the form's thank-you page", () => {
  it('receives browser posts without _next; a valid _next still wins', async () => {
    const form = await seedForm(pool);
    await setForm(form.formId, { redirect_url: THANK_YOU });

    const plain = await post(form, { message: 'a' });
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe(THANK_YOU);

    const next = await post(form, { message: 'b', _next: `${ORIGIN}/done?ok=1` });
    expect(next.status).toBe(303);
    expect(next.headers.location).toBe(`${ORIGIN}/done?ok=1`);

    // A _next off the allowed origin is ignored as before, in favour of the form's page.
    const foreign = await post(form, { message: 'c', _next: 'https://evil.example/phish' });
    expect(foreign.headers.location).toBe(THANK_YOU);

    // A bot filling the honeypot sees the same success.
    const bot = await post(form, { message: 'd', _gotcha: 'http://spam.example' });
    expect(bot.headers.location).toBe(THANK_YOU);

    // JSON clients still get JSON, never a redirect.
    const json = await post(form, { message: 'e' }, 'application/json');
    expect(json.status).toBe(200);
    expect(json.headers.location).toBeUndefined();
    expect((await storedFor(pool, form.formId)).entries).toBe(5);
  });

  it('is dropped again by clearing it: back to the site’s /thanks', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    const form = await seedForm(pool);
    await setForm(form.formId, { redirect_url: THANK_YOU });
    expect((await post(form, { message: 'a' })).headers.location).toBe(THANK_YOU);
    await setForm(form.formId, { redirect_url: null });
    expect((await post(form, { message: 'b' })).headers.location).toBe(`${SITE_URL}/thanks`);
  });
});
