// The booking function through real HTTP on the local stack (gateway → Deno `booking` function →
// Postgres; the outbox → SMTP → mail catcher): a booking and each refusal as the visitor's page
// sees them, the honeypot storing nothing, the per-client limit (counted before the CAPTCHA, by a
// salted hash, never the address) and the account's daily cap, and
// the manage link read from the visitor's e-mail — shown, moved and cancelled, each link once —
// and, on a stack of its own whose siteverify stand-in answers for the providers, the CAPTCHA.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { BOOKING } from '../../supabase/functions/_shared/limits.ts';
import { createBookingForm, freeSlots } from '../support/booking.ts';
import { createAuthUser, superuserPool, uniqueEmail, type TestUser } from '../support/db.ts';
import { isTo, listMail, waitForMail, type CaughtMail } from '../support/mail.ts';
import { localOnly, needsMail, needsSiteUrl, remote, target } from '../support/target.ts';
import { rawRequest, type RawResponse } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const fn = (path: string, apiUrl = stack.apiUrl) => `${apiUrl}/functions/v1/booking${path}`;
let pool: pg.Pool;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The first request boots the function's worker (and fetches its npm packages).
  const res = await rawRequest(fn('/book'), { method: 'OPTIONS' });
  expect(res.status).toBe(204);
}, 120_000);
afterAll(async () => {
  await pool.end();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: RawResponse['headers'];
}

async function send(
  path: string,
  body?: unknown,
  method = 'POST',
  apiUrl = stack.apiUrl,
): Promise<Answer> {
  const res = await rawRequest(fn(path, apiUrl), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: res.body ? JSON.parse(res.body) : {}, headers: res.headers };
}

/** An owner with a booking page (every day 09:00–17:00 Berlin, an hour each) and its free slots. */
async function ownerWithPage(fields: Parameters<typeof createBookingForm>[2] = {}, db = pool) {
  const owner = await createAuthUser(db, 'Owner', uniqueEmail('booking-owner'));
  const form = await createBookingForm(db, owner.id, fields);
  const from = new Date(Date.now() + 24 * 3_600_000);
  const slots = await freeSlots(db, form.slug, from, new Date(from.getTime() + 14 * 86_400_000));
  expect(slots.length).toBeGreaterThan(20);
  return { owner, form, slots };
}

/**
 * A time the page offers no slot at: the small hours (03:00 or 04:00 in Berlin, plus `minutes`) of
 * the last day with free slots, so it is never inside the notice or a working hour, whatever the
 * time of day the test runs at.
 */
function nightOf(slots: string[], minutes = 0) {
  const night = new Date(slots.at(-1)!);
  night.setUTCHours(2, minutes, 0, 0);
  return night.toISOString();
}

const visitor = (slug: string, start: string, extra: Record<string, unknown> = {}) => ({
  slug,
  start,
  name: 'Ada Lovelace',
  email: uniqueEmail('booking-visitor'),
  note: 'About the analytical engine',
  timeZone: 'America/New_York',
  ...extra,
});

async function bookingsOf(owner: TestUser, db = pool) {
  const { rows } = await db.query<{
    id: string;
    starts_at: Date;
    status: string;
    name: string;
    email: string;
    note: string;
  }>(
    `select id, starts_at, status, name, email, note from public.bookings
      where user_id = $1 order by created_at`,
    [owner.id],
  );
  return rows;
}

async function deliveriesOf(owner: TestUser) {
  const { rows } = await pool.query<{ kind: string; recipient: string }>(
    `select kind, recipient from public.email_deliveries where user_id = $1 order by created_at`,
    [owner.id],
  );
  return rows;
}

const mailTo = (address: string, subject: RegExp) =>
  waitForMail(stack.mailWebUrl, (m) => isTo(m, address) && subject.test(m.subject), 20_000);

/** The manage link's token in a visitor's mail. */
function tokenIn(mail: CaughtMail): string {
  const prefix = `${target.siteUrl!.replace(/\/+$/, '')}/book/manage?token=`;
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`${escaped}([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  if (!found) throw new Error(`no manage link in: ${mail.text}`);
  return found[1]!;
}

describe('booking through the endpoint', () => {
  it('books a free slot: 201 with the booking, stored, both mails sent', async () => {
    const { owner, form, slots } = await ownerWithPage();
    const asked = visitor(form.slug, slots[3]!);
    const res = await send('/book', asked);
    expect(res.status).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      visitorMailed: true,
      booking: {
        starts_at: slots[3],
        ends_at: new Date(Date.parse(slots[3]!) + 60 * 60_000).toISOString().replace('.000', ''),
        name: 'Ada Lovelace',
        time_zone: 'Europe/Berlin',
        visitor_time_zone: 'America/New_York',
        booking_form_name: 'Intro call',
        location: 'Video call',
      },
    });
    const stored = await bookingsOf(owner);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: (res.body.booking as { id: string }).id,
      status: 'confirmed',
      name: 'Ada Lovelace',
      email: asked.email,
      note: 'About the analytical engine',
    });
    expect(stored[0]!.starts_at.toISOString()).toBe(new Date(slots[3]!).toISOString());
    // The request and the booking are counted by the client's salted hash, never its address.
    const { rows: counted } = await pool.query<{ kind: string; client: string }>(
      `select kind, client from private.action_ledger
        where user_id = $1 and kind in ('booking', 'booking_request') order by kind`,
      [owner.id],
    );
    expect(counted.map((r) => r.kind)).toEqual(['booking', 'booking_request']);
    for (const { client } of counted) expect(client).toMatch(/^[0-9a-f]{64}$/);
    if (target.mail) {
      await mailTo(asked.email, /^Booked:/);
      await mailTo(owner.email, /^New booking:/);
    }
  });

  it('answers each refusal with its status, storing nothing', async () => {
    const { owner, form, slots } = await ownerWithPage();
    const ok = visitor(form.slug, slots[0]!);

    expect(await send('/book', 'not json')).toMatchObject({
      status: 400,
      body: { code: 'invalid_json' },
    });
    expect(await send('/book', { ...ok, slug: 'no-such-page-here' })).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    for (const [change, field] of [
      [{ name: '' }, 'name'],
      [{ email: 'nobody' }, 'email'],
      [{ note: 'x'.repeat(BOOKING.maxNoteLength + 1) }, 'note'],
      [{ start: 'next Tuesday' }, 'start'],
      // A name the function cannot judge: the database refuses it in its own words.
      [{ timeZone: 'Mars/Olympus_Mons' }, 'time_zone'],
      [{ email: 'a@b..example' }, 'email'],
    ] as const) {
      const res = await send('/book', { ...ok, ...change });
      expect(res, JSON.stringify(change)).toMatchObject({
        status: 422,
        body: { code: 'invalid', field },
      });
      expect(typeof res.body.error).toBe('string');
    }
    // Not a slot (03:00 in Berlin): refused as taken, with the next free ones.
    const notSlot = await send('/book', { ...ok, start: nightOf(slots) });
    expect(notSlot).toMatchObject({ status: 409, body: { code: 'slot_taken' } });
    expect((notSlot.body.next as string[]).length).toBeGreaterThan(0);
    const body = await send(
      '/book',
      JSON.stringify({ ...ok, note: 'x'.repeat(BOOKING.maxBodyBytes) }),
    );
    expect(body.status).toBe(413);
    expect(await bookingsOf(owner)).toEqual([]);
    expect(await deliveriesOf(owner)).toEqual([]);
  });

  it('refuses a slot just taken with 409 and the next free starts', async () => {
    const { owner, form, slots } = await ownerWithPage();
    expect((await send('/book', visitor(form.slug, slots[5]!))).status).toBe(201);
    const again = await send('/book', visitor(form.slug, slots[5]!));
    expect(again).toMatchObject({ status: 409, body: { code: 'slot_taken' } });
    const next = again.body.next as string[];
    expect(next.length).toBeGreaterThan(0);
    expect(next.length).toBeLessThanOrEqual(6);
    expect(next).not.toContain(slots[5]);
    expect(next.every((s) => s > slots[5]!)).toBe(true);
    expect(await bookingsOf(owner)).toHaveLength(1);
  });

  it('gives one of 50 concurrent posts for one slot the booking and 49 a clear 409', async () => {
    const { owner, form, slots } = await ownerWithPage();
    const slot = slots[5]!;
    // Fifty visitors (each from an address of its own, so no client limit applies) at once.
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await rawRequest(fn('/book'), {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(visitor(form.slug, slot)),
          localAddress: `127.0.${60 + Math.floor(i / 200)}.${1 + (i % 200)}`,
        });
        return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
      }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const lost = answers.filter((a) => a.status === 409);
    expect(lost).toHaveLength(49);
    for (const answer of lost) {
      expect(answer.body).toMatchObject({ code: 'slot_taken' });
      expect(answer.body.next).not.toContain(slot);
    }
    // Nothing half-written: one booking, its one link, its two mails.
    const stored = await bookingsOf(owner);
    expect(stored).toHaveLength(1);
    const { rows } = await pool.query<{ tokens: number; mails: number }>(
      `select (select count(*)::int from private.booking_tokens where booking_id = $1) as tokens,
              (select count(*)::int from public.email_deliveries
                where user_id = $2 and kind in ('booking_confirmation', 'booking_notice')) as mails`,
      [stored[0]!.id, owner.id],
    );
    expect(rows[0]).toEqual({ tokens: 1, mails: 2 });
  });

  it('stores and mails nothing for a filled honeypot, yet answers like a booking', async () => {
    const { owner, form, slots } = await ownerWithPage();
    const res = await send('/book', visitor(form.slug, slots[1]!, { website: 'https://x.test' }));
    expect(res).toMatchObject({
      status: 201,
      body: {
        visitorMailed: true,
        booking: { starts_at: expect.any(String), name: 'Ada Lovelace' },
      },
    });
    expect(await bookingsOf(owner)).toEqual([]);
    expect(await deliveriesOf(owner)).toEqual([]);
    // The slot is still free.
    expect((await send('/book', visitor(form.slug, slots[1]!))).status).toBe(201);
  });

  it('asks for the CAPTCHA on a page that has one, storing nothing without it', async () => {
    const { owner, form, slots } = await ownerWithPage();
    await pool.query(
      `update public.booking_forms set captcha_provider = 'turnstile', captcha_site_key = '1x00000000000000000000AA'
        where id = $1`,
      [form.id],
    );
    await pool.query(
      `insert into private.booking_captcha_secrets (booking_form_id, secret) values ($1, 'secret')`,
      [form.id],
    );
    const res = await send('/book', visitor(form.slug, slots[2]!));
    expect(res).toMatchObject({ status: 403, body: { code: 'captcha' } });
    expect(await bookingsOf(owner)).toEqual([]);
  });

  it('limits one client to its requests a minute with 429 and Retry-After', async () => {
    const { owner, form, slots } = await ownerWithPage();
    // Each request counts, booked or not: these ask for times that are no slots.
    for (let i = 0; i < BOOKING.perClientPerMinute; i++)
      expect((await send('/book', visitor(form.slug, nightOf(slots, i)))).status).toBe(409);
    const limited = await send('/book', visitor(form.slug, slots[0]!));
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(await bookingsOf(owner)).toEqual([]);
  });

  it('counts failed CAPTCHA attempts against the client, by a hash of its address', async () => {
    const { owner, form, slots } = await ownerWithPage();
    await pool.query(
      `update public.booking_forms set captcha_provider = 'turnstile', captcha_site_key = '1x00000000000000000000AA'
        where id = $1`,
      [form.id],
    );
    await pool.query(
      `insert into private.booking_captcha_secrets (booking_form_id, secret) values ($1, 'secret')`,
      [form.id],
    );
    // No token: refused before the provider is asked, yet counted.
    for (let i = 0; i < BOOKING.perClientPerMinute; i++)
      expect((await send('/book', visitor(form.slug, slots[i]!))).status).toBe(403);
    const limited = await send('/book', visitor(form.slug, slots[0]!));
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await bookingsOf(owner)).toEqual([]);
    const { rows } = await pool.query<{ client: string }>(
      `select client from private.action_ledger where user_id = $1 and kind = 'booking_request'`,
      [owner.id],
    );
    expect(rows).toHaveLength(BOOKING.perClientPerMinute);
    // One client, stored as a salted SHA-256 hash: nothing of its address.
    expect(new Set(rows.map((r) => r.client)).size).toBe(1);
    expect(rows[0]!.client).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stops an account at its daily bookings with 429 account_limit', async () => {
    const { owner, form, slots } = await ownerWithPage();
    await pool.query(
      `insert into private.action_ledger (kind, user_id, client)
       select 'booking', $1, 'elsewhere-' || g from generate_series(1, $2) g`,
      [owner.id, BOOKING.perAccountPerDay],
    );
    const res = await send('/book', visitor(form.slug, slots[0]!));
    expect(res).toMatchObject({ status: 429, body: { code: 'account_limit' } });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await bookingsOf(owner)).toEqual([]);
  });
});

describe('the manage link', () => {
  beforeEach((ctx) => {
    needsMail(ctx);
    needsSiteUrl(ctx);
  });

  it('shows, moves and cancels the booking, each link once', async () => {
    const { owner, form, slots } = await ownerWithPage();
    const asked = visitor(form.slug, slots[2]!);
    const booked = await send('/book', asked);
    expect(booked.status).toBe(201);
    const first = tokenIn(await mailTo(asked.email, /^Booked:/));

    const shown = await send(`/manage/${first}`, undefined, 'GET');
    expect(shown).toMatchObject({
      status: 200,
      body: {
        booking: {
          id: (booked.body.booking as { id: string }).id,
          slug: form.slug,
          starts_at: slots[2],
          status: 'confirmed',
          duration_minutes: 60,
        },
      },
    });

    // Not a time the page offers: 422 before the database is asked, 409 when it is no slot.
    expect(await send(`/manage/${first}/reschedule`, { start: 'soon' })).toMatchObject({
      status: 422,
      body: { field: 'start' },
    });
    expect(await send(`/manage/${first}/reschedule`, { start: nightOf(slots) })).toMatchObject({
      status: 409,
      body: { code: 'slot_taken' },
    });

    const moved = await send(`/manage/${first}/reschedule`, { start: slots[7] });
    expect(moved).toMatchObject({
      status: 200,
      body: { manageUrlSent: true, booking: { starts_at: slots[7] } },
    });
    expect((await bookingsOf(owner))[0]!.starts_at.toISOString()).toBe(
      new Date(slots[7]!).toISOString(),
    );
    // The first link is spent.
    expect((await send(`/manage/${first}`, undefined, 'GET')).status).toBe(404);
    expect((await send(`/manage/${first}/cancel`, {})).status).toBe(404);
    expect((await send(`/manage/${first}/reschedule`, { start: slots[8] })).status).toBe(404);

    const mails = await waitForTwo(asked.email);
    const second = tokenIn(mails.find((m) => tokenIn(m) !== first)!);
    expect(second).not.toBe(first);
    expect((await send(`/manage/${second}`, undefined, 'GET')).body).toMatchObject({
      booking: { starts_at: slots[7] },
    });

    expect(await send(`/manage/${second}/cancel`, { reason: 'Something came up' })).toMatchObject({
      status: 200,
      body: { status: 'cancelled' },
    });
    const { rows } = await pool.query(
      'select status, cancelled_by, cancel_reason from public.bookings where user_id = $1',
      [owner.id],
    );
    expect(rows).toEqual([
      { status: 'cancelled', cancelled_by: 'visitor', cancel_reason: 'Something came up' },
    ]);
    expect((await send(`/manage/${second}/cancel`, {})).status).toBe(404);
    expect((await send(`/manage/${second}`, undefined, 'GET')).status).toBe(404);
    await mailTo(asked.email, /^Cancelled:/);
  });

  it('refuses to move onto a slot another booking holds', async () => {
    const { form, slots } = await ownerWithPage();
    const mine = visitor(form.slug, slots[1]!);
    expect((await send('/book', mine)).status).toBe(201);
    expect((await send('/book', visitor(form.slug, slots[4]!))).status).toBe(201);
    const token = tokenIn(await mailTo(mine.email, /^Booked:/));
    const res = await send(`/manage/${token}/reschedule`, { start: slots[4] });
    expect(res).toMatchObject({ status: 409, body: { code: 'slot_taken' } });
    // A refused move spends nothing.
    expect((await send(`/manage/${token}`, undefined, 'GET')).status).toBe(200);
  });

  it('refuses to cancel a booking that has taken place', async () => {
    const { owner, form, slots } = await ownerWithPage();
    const asked = visitor(form.slug, slots[0]!);
    expect((await send('/book', asked)).status).toBe(201);
    const token = tokenIn(await mailTo(asked.email, /^Booked:/));
    await pool.query(
      `update public.bookings
          set starts_at = now() - interval '2 hours', ends_at = now() - interval '1 hour',
              blocked = tstzrange(now() - interval '2 hours', now() - interval '1 hour', '[)')
        where user_id = $1`,
      [owner.id],
    );
    expect(await send(`/manage/${token}/cancel`, {})).toMatchObject({
      status: 409,
      body: { code: 'past' },
    });
    expect(await send(`/manage/${token}/reschedule`, { start: slots[3] })).toMatchObject({
      status: 409,
      body: { code: 'past' },
    });
  });

  it('answers 404 for a link that was never sent', async () => {
    const made = 'A'.repeat(43);
    expect(await send(`/manage/${made}`, undefined, 'GET')).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect((await send(`/manage/${made}/cancel`, {})).status).toBe(404);
    expect(
      (await send(`/manage/${made}/reschedule`, { start: new Date().toISOString() })).status,
    ).toBe(404);
  });
});

/** The two "Booked:" mails of a booking that was moved once. */
async function waitForTwo(address: string): Promise<CaughtMail[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = (await listMail(stack.mailWebUrl)).filter(
      (m) => isTo(m, address) && /^Booked:/.test(m.subject),
    );
    if (mails.length >= 2) return mails;
    if (Date.now() > deadline) throw new Error(`only ${mails.length} booking mails to ${address}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a booking page with CAPTCHA', () => {
  const SECRET = 'booking-secret-0x4AAA';
  const GOOD = 'good-token';
  /** A good token, solved on another site than the booking page's. */
  const ELSEWHERE = 'elsewhere-token';
  /** A token the stand-in answers with 503, as a provider having an outage. */
  const OUTAGE = 'outage-token';
  let checks: URLSearchParams[] = [];
  let verifier: http.Server;
  let own: RunningStack;
  let dataDir: string;

  beforeAll(async () => {
    if (remote) return;
    dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-booking-captcha-'));
    const [api, db, mailWeb, smtp] = await freePorts(4);
    let siteHost = '';
    // The provider's siteverify: success for GOOD (solved on the site) and ELSEWHERE under SECRET.
    verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        checks.push(form);
        const response = form.get('response');
        if (response === OUTAGE) return void res.writeHead(503).end('unavailable');
        const ok = form.get('secret') === SECRET && (response === GOOD || response === ELSEWHERE);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            ok
              ? { success: true, hostname: response === ELSEWHERE ? 'evil.example' : siteHost }
              : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    own = await startStack({
      dataDir,
      ports: { api, db, mailWeb, smtp },
      seed: false,
      functionEnv: {
        CAPTCHA_VERIFY_URL_OVERRIDE: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
      },
      log: (service, message) => {
        if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
      },
    });
    siteHost = new URL(own.settings.project.auth.siteUrl).hostname;
    expect((await rawRequest(fn('/book', own.settings.apiUrl), { method: 'OPTIONS' })).status).toBe(
      204,
    );
  }, 180_000);
  afterAll(async () => {
    await own?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    verifier?.closeAllConnections();
    await new Promise((r) => (verifier ? verifier.close(r) : r(undefined)));
  });
  beforeEach((ctx) => {
    localOnly(ctx, 'its verification server stands in for the provider through a function setting');
    checks = [];
  });

  async function captchaPage(secret: string | null = SECRET) {
    const page = await ownerWithPage({}, own.pool);
    await own.pool.query(
      `update public.booking_forms set captcha_provider = 'hcaptcha', captcha_site_key = '10000000-ffff-ffff-ffff-000000000001'
        where id = $1`,
      [page.form.id],
    );
    if (secret)
      await own.pool.query(
        'insert into private.booking_captcha_secrets (booking_form_id, secret) values ($1, $2)',
        [page.form.id, secret],
      );
    return page;
  }

  const book = (slug: string, start: string, captchaToken?: string) =>
    send('/book', visitor(slug, start, { captchaToken }), 'POST', own.settings.apiUrl);

  it('books with a token the provider accepts, asked with the page’s secret', async () => {
    const { owner, form, slots } = await captchaPage();
    expect((await book(form.slug, slots[0]!, GOOD)).status).toBe(201);
    expect(checks.map((c) => [c.get('secret'), c.get('response'), c.get('remoteip')])).toEqual([
      [SECRET, GOOD, '127.0.0.1'],
    ]);
    expect(await bookingsOf(owner, own.pool)).toHaveLength(1);
  });

  it('refuses a missing, refused or foreign token with 403, storing nothing', async () => {
    const { owner, form, slots } = await captchaPage();
    const missing = await book(form.slug, slots[0]!);
    expect(missing).toMatchObject({ status: 403, body: { code: 'captcha' } });
    expect(checks).toEqual([]);
    for (const token of ['wrong-token', ELSEWHERE]) {
      expect(await book(form.slug, slots[0]!, token), token).toMatchObject({
        status: 403,
        body: { code: 'captcha' },
      });
    }
    expect(checks).toHaveLength(2);
    expect(await bookingsOf(owner, own.pool)).toEqual([]);
  });

  it('answers 503 with Retry-After while the provider is away, 500 without a stored secret', async () => {
    const { owner, form, slots } = await captchaPage();
    const away = await book(form.slug, slots[0]!, OUTAGE);
    expect(away).toMatchObject({ status: 503, body: { code: 'captcha_unavailable' } });
    expect(Number(away.headers['retry-after'])).toBeGreaterThan(0);
    const unset = await captchaPage(null);
    expect(await book(unset.form.slug, unset.slots[0]!, GOOD)).toMatchObject({
      status: 500,
      body: { code: 'captcha_misconfigured' },
    });
    expect(await bookingsOf(owner, own.pool)).toEqual([]);
    expect(await bookingsOf(unset.owner, own.pool)).toEqual([]);
  });
});
