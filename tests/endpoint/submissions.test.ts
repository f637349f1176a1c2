// The form endpoint through real HTTP on the local stack (gateway → Deno function → supabase-js →
// Postgres; SMTP → mail catcher): every body type, every refusal, honeypot, rate limit, _next.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';
import { superuserPool } from '../support/db.ts';
import { isTo, listMail, waitForMail, type CaughtMail } from '../support/mail.ts';
import { localOnly, needsMail, needsSiteUrl } from '../support/target.ts';
import {
  freshMinute,
  functionUrl,
  multipart,
  ORIGIN,
  publicUrl,
  rawRequest,
  resetRateLimits,
  seedForm,
  storedFor,
  totalEntries,
  urlencoded,
  until,
  type SeededForm,
} from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
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

/** maildev's parsed message also carries the raw headers. */
type Caught = CaughtMail & { headers: Record<string, string>; replyTo?: { address: string }[] };
const mailTo = async (address: string) =>
  (await waitForMail(stack.mailWebUrl, (m) => isTo(m, address), 20_000)) as Caught;

const browserPost = (form: SeededForm, body: string, headers: Record<string, string> = {}) =>
  rawRequest(functionUrl(stack.apiUrl, form.formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'text/html',
      ...headers,
    },
    body,
  });

/** accept_post()'s signature, whatever its arguments are today (to break storage on purpose). */
async function acceptPostSignature(): Promise<string> {
  const { rows } = await pool.query<{ signature: string }>(
    `select p.oid::regprocedure::text as signature from pg_proc p
      where p.proname = 'accept_post' and p.pronamespace = 'public'::regnamespace`,
  );
  return rows[0]!.signature;
}

async function entryRow(id: string) {
  const { rows } = await pool.query('select * from public.entries where id = $1', [id]);
  return rows[0];
}
async function latestEntry(formId: string) {
  const { rows } = await pool.query(
    'select * from public.entries where form_id = $1 order by created_at desc limit 1',
    [formId],
  );
  return rows[0];
}

describe('accepted submissions', () => {
  it('stores a urlencoded browser post, redirects 303 to /thanks and e-mails the owner', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await seedForm(pool, 'Contact <us>');
    const res = await browserPost(
      form,
      urlencoded([
        ['userId', 'ignored'],
        ['name', '  Ada Lovelace '],
        ['email', 'ada@example.org'],
        ['message', 'Hello <b>there</b> & "friends"\r\nline two'],
        ['company', 'Analytical\u0007 Engines'],
      ]),
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${SITE_URL}/thanks`);
    expect(res.body).toBe('');

    const entry = await latestEntry(form.formId);
    expect(entry).toMatchObject({
      user_id: form.userId,
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      message: 'Hello <b>there</b> & "friends"\nline two',
      data: { company: 'Analytical Engines' },
      is_spam: false,
    });

    const mail = await mailTo(form.targetEmail);
    expect(mail.subject).toBe('New submission: Contact <us>');
    expect(mail.headers['reply-to']).toContain('ada@example.org');
    expect(mail.text).toContain('name: Ada Lovelace');
    expect(mail.text).toContain('company: Analytical Engines');
    expect(mail.text).toContain(entry.id);
    expect(mail.html).toContain('Hello &lt;b&gt;there&lt;/b&gt; &amp; &quot;friends&quot;');
    expect(mail.html).not.toContain('<b>there</b>');
    expect(mail.html).toContain('Contact &lt;us&gt;');
    // Fields appear in the order they were sent.
    const order = ['name:', 'email:', 'message:', 'company:'].map((k) => mail.text!.indexOf(k));
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // The outbox records the send just after the catcher has the message.
    const rows = await until(
      'the delivery marked sent',
      async () =>
        (
          await pool.query(
            'select status, recipient from public.email_deliveries where entry_id = $1',
            [entry.id],
          )
        ).rows,
      (r) => r[0]?.status === 'sent',
    );
    expect(rows).toEqual([{ status: 'sent', recipient: form.targetEmail }]);
  });

  it('stores a multipart post and answers JSON with CORS when JSON is accepted', async (ctx) => {
    needsMail(ctx);
    const form = await seedForm(pool);
    const { body, type } = multipart([
      ['name', 'Grace'],
      ['email', 'grace@example.org'],
      ['_replyto', 'replies@example.org'],
      ['_subject', 'Quote request'],
      ['message', 'Need <30> widgets'],
      ['size', 'M'],
    ]);
    const res = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: { 'content-type': type, origin: ORIGIN, accept: 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    const json = JSON.parse(res.body);
    expect(json).toEqual({ ok: true, id: expect.any(String) });
    expect(await entryRow(json.id)).toMatchObject({
      name: 'Grace',
      email: 'grace@example.org',
      data: { size: 'M' },
    });

    const mail = await mailTo(form.targetEmail);
    expect(mail.subject).toBe('Quote request');
    expect(mail.headers['reply-to']).toContain('replies@example.org');
    expect(mail.html).toContain('Need &lt;30&gt; widgets');
  });

  it('stores a JSON post sent to the public /api/forms path', async (ctx) => {
    localOnly(ctx, 'on a deployment /api/forms is a rewrite on your site’s host, if any');
    const form = await seedForm(pool);
    const res = await fetch(publicUrl(stack.apiUrl, form.formId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({
        name: 'Linus',
        email: 'linus@example.org',
        message: 'Hi',
        tags: ['a', 'b'],
        n: 3,
      }),
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { ok: boolean; id: string };
    expect(await entryRow(json.id)).toMatchObject({
      name: 'Linus',
      data: { tags: ['a', 'b'], n: '3' },
    });
    const mail = await mailTo(form.targetEmail);
    expect(mail.subject).toBe('New submission: Contact');
    expect(mail.headers['reply-to']).toContain('linus@example.org');
    expect(mail.text).toContain('tags: a');
  });

  it('accepts a post whose only origin evidence is the Referer', async () => {
    const form = await seedForm(pool);
    const res = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `${ORIGIN}/contact?x=1`,
      },
      body: urlencoded({ message: 'via referer' }),
    });
    expect(res.status).toBe(303);
    expect((await storedFor(pool, form.formId)).entries).toBe(1);
  });

  it('redirects to _next on the allowed origin and ignores a foreign _next', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    const form = await seedForm(pool);
    const own = await browserPost(
      form,
      urlencoded({ message: 'a', _next: `${ORIGIN}/merci?from=form` }),
    );
    expect(own.status).toBe(303);
    expect(own.headers.location).toBe(`${ORIGIN}/merci?from=form`);
    for (const next of [
      'https://evil.example/phish',
      '//evil.example/x',
      'javascript:alert(1)',
      `http://site.example.test/x`,
    ]) {
      const res = await browserPost(form, urlencoded({ message: 'b', _next: next }));
      expect(res.status, next).toBe(303);
      expect(res.headers.location, next).toBe(`${SITE_URL}/thanks`);
    }
    expect((await storedFor(pool, form.formId)).entries).toBe(5);
  });

  it('keeps injected header lines out of the e-mail', async (ctx) => {
    needsMail(ctx);
    const form = await seedForm(pool);
    const res = await browserPost(
      form,
      urlencoded({
        email: 'eve@example.org',
        _subject: 'Hi\r\nBcc: victim@example.org\r\nX-Evil: 1',
        message: 'm',
      }),
    );
    expect(res.status).toBe(303);
    const mail = await mailTo(form.targetEmail);
    expect(mail.subject).toBe('Hi Bcc: victim@example.org X-Evil: 1');
    expect(mail.headers['x-evil']).toBeUndefined();
    expect(mail.headers.bcc).toBeUndefined();
    expect((await listMail(stack.mailWebUrl)).some((m) => isTo(m, 'victim@example.org'))).toBe(
      false,
    );
  });

  it('answers the CORS preflight for the form origin only', async () => {
    const form = await seedForm(pool);
    const ok = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.headers['access-control-allow-methods']).toContain('POST');
    const foreign = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('refused submissions store nothing', () => {
  const json = { accept: 'application/json' };
  type Case = {
    status: number;
    code: string;
    send: (form: SeededForm) => ReturnType<typeof rawRequest>;
  };
  const post = (
    form: SeededForm,
    headers: Record<string, string>,
    body: string | Buffer,
    method = 'POST',
  ) =>
    rawRequest(functionUrl(stack.apiUrl, form.formId), {
      method,
      headers: { origin: ORIGIN, ...json, ...headers },
      body,
    });
  const form = (f: SeededForm, body: string, headers: Record<string, string> = {}) =>
    post(f, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body);

  const cases: Record<string, Case> = {
    'malformed JSON': {
      status: 400,
      code: 'invalid_body',
      send: (f) => post(f, { 'content-type': 'application/json' }, '{"name":'),
    },
    'foreign origin': {
      status: 403,
      code: 'origin_not_allowed',
      send: (f) => form(f, 'message=x', { origin: 'https://evil.example' }),
    },
    'no origin at all': {
      status: 403,
      code: 'origin_not_allowed',
      send: (f) =>
        rawRequest(functionUrl(stack.apiUrl, f.formId), {
          headers: { ...json, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'message=x',
        }),
    },
    'unknown form id': {
      status: 404,
      code: 'form_not_found',
      send: () =>
        rawRequest(functionUrl(stack.apiUrl, '3f2c1b4a-0000-4000-8000-00000000abcd'), {
          headers: { ...json, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'message=x',
        }),
    },
    'malformed form id': {
      status: 404,
      code: 'form_not_found',
      send: () =>
        rawRequest(functionUrl(stack.apiUrl, 'not-a-form'), {
          headers: { ...json, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'message=x',
        }),
    },
    'GET method': {
      status: 405,
      code: 'method_not_allowed',
      send: (f) =>
        rawRequest(functionUrl(stack.apiUrl, f.formId), {
          method: 'GET',
          headers: { ...json, origin: ORIGIN },
        }),
    },
    'PUT method': {
      status: 405,
      code: 'method_not_allowed',
      send: (f) =>
        post(f, { 'content-type': 'application/x-www-form-urlencoded' }, 'message=x', 'PUT'),
    },
    'body over 64 KiB': {
      status: 413,
      code: 'payload_too_large',
      send: (f) => form(f, `message=${'a'.repeat(LIMITS.maxBodyBytes)}`),
    },
    'too many fields': {
      status: 413,
      code: 'payload_too_large',
      send: (f) =>
        form(f, Array.from({ length: LIMITS.maxFields + 1 }, (_, i) => `f${i}=v`).join('&')),
    },
    'text/plain body': {
      status: 415,
      code: 'unsupported_media_type',
      send: (f) => post(f, { 'content-type': 'text/plain' }, 'message=x'),
    },
    'file upload': {
      status: 415,
      code: 'file_uploads_unsupported',
      send: (f) =>
        post(
          f,
          { 'content-type': 'multipart/form-data; boundary=B' },
          '--B\r\nContent-Disposition: form-data; name="message"\r\n\r\nx\r\n--B\r\nContent-Disposition: form-data; name="cv"; filename="cv.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--B--\r\n',
        ),
    },
    'invalid e-mail': {
      status: 422,
      code: 'invalid_fields',
      send: (f) => form(f, 'email=not-an-address&message=x'),
    },
    'message too long': {
      status: 422,
      code: 'invalid_fields',
      send: (f) => form(f, `message=${'m'.repeat(LIMITS.maxMessageLength + 1)}`),
    },
  };

  for (const [name, c] of Object.entries(cases)) {
    it(`${name} → ${c.status} ${c.code}`, async () => {
      const f = await seedForm(pool);
      const before = await totalEntries(pool);
      const res = await c.send(f);
      expect(res.status).toBe(c.status);
      expect(res.headers['content-type']).toContain('application/json');
      const body = JSON.parse(res.body);
      expect(body).toMatchObject({ ok: false, code: c.code, error: expect.any(String) });
      expect(await storedFor(pool, f.formId)).toEqual({ entries: 0, deliveries: 0 });
      expect(await totalEntries(pool)).toBe(before);
    });
  }

  it('answers a refused post of a script with its status and plain text, never a redirect or HTML', async () => {
    const f = await seedForm(pool);
    const res = await rawRequest(functionUrl(stack.apiUrl, f.formId), {
      // curl and scripts ask for no HTML; fetch() in a page says it is not navigating.
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=bad',
    });
    expect(res.status).toBe(422);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('email: Enter a valid e-mail address.');
    const fetched = await browserPost(f, 'email=bad', { 'sec-fetch-mode': 'cors' });
    expect(fetched.status).toBe(422);
    expect(fetched.headers.location).toBeUndefined();
  });

  describe('a refused browser post goes to the site’s refusal page (303), the reason in its address', () => {
    // What Chromium sends with a plain HTML form's post.
    const navigating = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    const refusal = (siteUrl: string, query: string) => `${siteUrl}/form-error?${query}`;
    const cases: [string, string, (f: SeededForm) => ReturnType<typeof rawRequest>][] = [
      [
        'an invalid field, named',
        'code=invalid_fields&fields=email',
        (f) => browserPost(f, 'email=not-an-address&message=hi', navigating),
      ],
      [
        'several invalid fields, by name only',
        'code=invalid_fields&fields=message%2Cemail',
        (f) =>
          browserPost(f, `email=x&message=${'m'.repeat(LIMITS.maxMessageLength + 1)}`, navigating),
      ],
      [
        'an empty form',
        'code=empty_submission',
        (f) => browserPost(f, 'name=&message=', navigating),
      ],
      [
        'a foreign origin',
        'code=origin_not_allowed',
        (f) => browserPost(f, 'message=hi', { ...navigating, origin: 'https://evil.example' }),
      ],
      [
        'a form that does not exist',
        'code=form_not_found',
        () =>
          rawRequest(functionUrl(stack.apiUrl, '3f2c1b4a-0000-4000-8000-00000000abcd'), {
            headers: {
              origin: ORIGIN,
              accept: 'text/html',
              'content-type': 'application/x-www-form-urlencoded',
              ...navigating,
            },
            body: 'message=hi',
          }),
      ],
      [
        'a body over 64 KiB',
        'code=payload_too_large',
        (f) => browserPost(f, `message=${'a'.repeat(LIMITS.maxBodyBytes)}`, navigating),
      ],
      [
        'a text/plain form',
        'code=unsupported_media_type',
        (f) => browserPost(f, 'message=hi', { ...navigating, 'content-type': 'text/plain' }),
      ],
      [
        'a file upload',
        'code=file_uploads_unsupported',
        (f) => {
          const body =
            '--B\r\nContent-Disposition: form-data; name="message"\r\n\r\nx\r\n--B\r\nContent-Disposition: form-data; name="cv"; filename="cv.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--B--\r\n';
          return browserPost(f, body, {
            ...navigating,
            'content-type': 'multipart/form-data; boundary=B',
          });
        },
      ],
    ];
    for (const [name, query, send] of cases) {
      it(`${name} → ${query}`, async (ctx) => {
        const SITE_URL = needsSiteUrl(ctx);
        const f = await seedForm(pool);
        const res = await send(f);
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe(refusal(SITE_URL, query));
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toBe('');
        expect(await storedFor(pool, f.formId)).toEqual({ entries: 0, deliveries: 0 });
      });
    }

    it('a rate limit, with the wait in the address and in Retry-After', async (ctx) => {
      const SITE_URL = needsSiteUrl(ctx);
      const f = await seedForm(pool);
      for (let i = 0; i < LIMITS.ratePerMinute; i++)
        expect((await browserPost(f, `message=post+${i}`, navigating)).status).toBe(303);
      const res = await browserPost(f, 'message=one+too+many', navigating);
      expect(res.status).toBe(303);
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(res.headers.location).toBe(refusal(SITE_URL, `code=rate_limited&retry=${retry}`));
      expect((await storedFor(pool, f.formId)).entries).toBe(LIMITS.ratePerMinute);
    });

    it('storage down, retryable in 5 seconds', async (ctx) => {
      localOnly(ctx, 'it breaks storage on purpose (revokes a grant of the database for a moment)');
      const SITE_URL = needsSiteUrl(ctx);
      const f = await seedForm(pool);
      const signature = await acceptPostSignature();
      await pool.query(`revoke execute on function ${signature} from service_role`);
      try {
        const res = await browserPost(f, 'message=hi', navigating);
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe(refusal(SITE_URL, 'code=storage_failed&retry=5'));
      } finally {
        await pool.query(`grant execute on function ${signature} to service_role`);
      }
    });

    it('JSON clients keep their JSON', async () => {
      const f = await seedForm(pool);
      const res = await browserPost(f, 'email=x', { ...navigating, accept: 'application/json' });
      expect(res.status).toBe(422);
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'invalid_fields' });
    });
  });

  it('answers 503 with Retry-After when storage fails, and stores nothing', async (ctx) => {
    localOnly(ctx, 'it breaks storage on purpose (revokes a grant of the database for a moment)');
    const f = await seedForm(pool);
    const signature = await acceptPostSignature();
    await pool.query(`revoke execute on function ${signature} from service_role`);
    try {
      const res = await form(f, 'message=x');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'storage_failed' });
    } finally {
      await pool.query(`grant execute on function ${signature} to service_role`);
    }
    expect(await storedFor(pool, f.formId)).toEqual({ entries: 0, deliveries: 0 });
  });
});

describe('spam defence', () => {
  it('stores a honeypot hit as spam, answers as for success and sends no e-mail', async (ctx) => {
    const SITE_URL = needsSiteUrl(ctx);
    needsMail(ctx);
    const form = await seedForm(pool);
    for (const trap of ['_gotcha', '_honey']) {
      const res = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: urlencoded({
          name: 'Bot',
          message: `spam via ${trap}`,
          [trap]: 'http://spam.example',
        }),
      });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`${SITE_URL}/thanks`);
    }
    const { rows } = await pool.query(
      'select is_spam, data from public.entries where form_id = $1',
      [form.formId],
    );
    expect(rows).toEqual([
      { is_spam: true, data: {} },
      { is_spam: true, data: {} },
    ]);
    expect((await storedFor(pool, form.formId)).deliveries).toBe(0);
    // An honest post afterwards is mailed; it is the only mail this inbox ever gets.
    await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: urlencoded({ message: 'honest' }),
    });
    await mailTo(form.targetEmail);
    const inbox = (await listMail(stack.mailWebUrl)).filter((m) => isTo(m, form.targetEmail));
    expect(inbox).toHaveLength(1);
    expect(inbox[0].text).toContain('honest');
  });

  it('rate-limits a client per form, with Retry-After, and lets it in again once the window passes', async () => {
    const form = await seedForm(pool);
    const other = await seedForm(pool);
    const send = (f: SeededForm, i: number) =>
      rawRequest(functionUrl(stack.apiUrl, f.formId), {
        headers: {
          origin: ORIGIN,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: urlencoded({ message: `post ${i}` }),
      });
    for (let i = 0; i < LIMITS.ratePerMinute; i++) expect((await send(form, i)).status).toBe(200);
    const limited = await send(form, 99);
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toMatchObject({ ok: false, code: 'rate_limited' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await storedFor(pool, form.formId)).entries).toBe(LIMITS.ratePerMinute);
    // Another form is counted separately.
    expect((await send(other, 0)).status).toBe(200);
    // A forged X-Forwarded-For does not buy a fresh allowance.
    const forged = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: {
        origin: ORIGIN,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '203.0.113.77',
      },
      body: 'message=forged',
    });
    expect(forged.status).toBe(429);

    // The minute passes (moved back in the database rather than waited for).
    await pool.query(
      `update private.submission_rate_limits set minute_start = minute_start - interval '1 minute'
        where form_id = $1`,
      [form.formId],
    );
    expect((await send(form, 6)).status).toBe(200);

    // The daily allowance is separate: once used up, the wait is until the day's end.
    await pool.query(`update private.submission_rate_limits set day_hits = $2 where form_id = $1`, [
      form.formId,
      LIMITS.ratePerDay,
    ]);
    await pool.query(
      `update private.submission_rate_limits set minute_hits = 0 where form_id = $1`,
      [form.formId],
    );
    const daily = await send(form, 7);
    expect(daily.status).toBe(429);
    expect(Number(daily.headers['retry-after'])).toBeGreaterThan(0);
    expect((await storedFor(pool, form.formId)).entries).toBe(LIMITS.ratePerMinute + 1);
  });

  it('keeps only a salted hash of the client address', async () => {
    const form = await seedForm(pool);
    const res = await rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=counted',
    });
    expect(res.status).toBe(303);
    const { rows } = await pool.query<{ ip_hash: string }>(
      'select ip_hash from private.submission_rate_limits',
    );
    for (const { ip_hash } of rows) {
      expect(ip_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(ip_hash).not.toContain('127.0.0.1');
    }
  });
});

describe('idempotent posts', () => {
  const jsonPost = (form: SeededForm, body: string, headers: Record<string, string> = {}) =>
    rawRequest(functionUrl(stack.apiUrl, form.formId), {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
        accept: 'application/json',
        ...headers,
      },
      body,
    });

  it('stores a post repeated with the same Idempotency-Key once, queues nothing more and answers as the first', async () => {
    const form = await seedForm(pool);
    const key = `key-${Date.now()}`;
    const first = await jsonPost(form, 'message=once', { 'idempotency-key': key });
    expect(first.status, first.body).toBe(200);
    const again = await jsonPost(form, 'message=once', { 'idempotency-key': key });
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body)).toEqual(JSON.parse(first.body));
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 1, deliveries: 1 });

    // Keys are per form: the same key on another form is another post.
    const other = await seedForm(pool);
    expect((await jsonPost(other, 'message=once', { 'idempotency-key': key })).status).toBe(200);
    expect(await storedFor(pool, other.formId)).toEqual({ entries: 1, deliveries: 1 });
  });

  it('takes the key from the embed code’s hidden _idempotency field, redirecting a repeat as the first', async () => {
    const form = await seedForm(pool);
    const body = urlencoded({ message: 'double click', _idempotency: `page-${Date.now()}` });
    const first = await browserPost(form, body);
    const second = await browserPost(form, body);
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 1, deliveries: 1 });
    // The key is never stored as a field of the message.
    expect((await latestEntry(form.formId)).data).toEqual({});
  });

  it('refuses a malformed key and stores nothing', async () => {
    const form = await seedForm(pool);
    const header = await jsonPost(form, 'message=x', { 'idempotency-key': 'two words' });
    expect(header.status).toBe(400);
    expect(JSON.parse(header.body)).toMatchObject({ ok: false, code: 'invalid_body' });
    const field = await jsonPost(form, urlencoded({ message: 'x', _idempotency: 'k'.repeat(256) }));
    expect(field.status).toBe(422);
    expect(JSON.parse(field.body).fields).toHaveProperty('_idempotency');
    expect(await storedFor(pool, form.formId)).toEqual({ entries: 0, deliveries: 0 });
  });

  it('frees a key whose post was refused by the rate limit', async () => {
    const form = await seedForm(pool);
    await freshMinute(pool);
    for (let i = 0; i < LIMITS.ratePerMinute; i++)
      expect((await jsonPost(form, `message=${i}`)).status).toBe(200);
    const key = `limited-${Date.now()}`;
    expect((await jsonPost(form, 'message=late', { 'idempotency-key': key })).status).toBe(429);
    await resetRateLimits(pool);
    const retried = await jsonPost(form, 'message=late', { 'idempotency-key': key });
    expect(retried.status, retried.body).toBe(200);
    expect(await storedFor(pool, form.formId)).toMatchObject({
      entries: LIMITS.ratePerMinute + 1,
    });
  });
});
