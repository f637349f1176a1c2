// Row-level security and grants of booking, as two real users and anon: through supabase-js each
// owner creates, reads, changes and deletes only her own booking forms and reads only her own
// bookings; nobody writes bookings but the definer functions; anon reads no table and calls only
// booking_page() and booking_slots(), which show nothing of the owner; the tokens and CAPTCHA
// secrets are read by nobody; booking_owner_cancel() cancels only the caller's bookings; bookings
// reach only their owner through Realtime; deleting the account deletes its booking data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { anon, runAs, superuserPool, user } from '../support/db.ts';
import { createBookingForm, requestBooking, zonedInstant } from '../support/booking.ts';
import { listenToTable } from '../support/realtime.ts';
import { newClient, serviceClient, signUp, type TestUser } from '../support/supabase-users.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let service: SupabaseClient;
let alice: TestUser;
let bob: TestUser;
let aliceForm: { id: string; slug: string };

type Row = Record<string, unknown>;

/** A free-looking slot: 10:00 Berlin time `days` from now. */
const slotIn = (days: number, time = '10:00') =>
  zonedInstant(
    'Europe/Berlin',
    new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10),
    time,
  )
    .toISOString()
    .replace('.000', '');

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  service = serviceClient();
  [alice, bob] = await Promise.all([signUp('Alice Booking'), signUp('Bob Booking')]);
  aliceForm = await createBookingForm(pool, alice.id, { name: 'Alice call' });
});

afterAll(async () => {
  await service.from('booking_forms').delete().in('user_id', [alice?.id, bob?.id]);
  await pool.end();
});

describe('booking_forms through supabase-js', () => {
  it('is created for the caller; each owner sees, changes and deletes only her own', async () => {
    const slug = `bob-${Date.now().toString(36)}`;
    const created = await bob.client
      .from('booking_forms')
      .insert({ slug, name: 'Bob consult', time_zone: 'America/New_York' })
      .select('id, user_id, duration_minutes, weekly')
      .single();
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ user_id: bob.id, duration_minutes: 30 });
    const bobForm = created.data!.id as string;

    const seenByAlice = await alice.client.from('booking_forms').select('id');
    expect(seenByAlice.data!.map((r) => r.id)).toEqual([aliceForm.id]);
    const changed = await alice.client
      .from('booking_forms')
      .update({ name: 'Mine' })
      .eq('id', bobForm)
      .select();
    expect(changed.data).toEqual([]);
    const removed = await alice.client.from('booking_forms').delete().eq('id', bobForm).select();
    expect(removed.data).toEqual([]);
    // Creating one for somebody else is refused.
    const forged = await alice.client
      .from('booking_forms')
      .insert({ slug: `${slug}-x`, name: 'Forged', user_id: bob.id });
    expect(forged.error?.code).toBe('42501');
    // A taken link is a unique violation, whoever holds it.
    const taken = await alice.client.from('booking_forms').insert({ slug, name: 'Same link' });
    expect(taken.error?.code).toBe('23505');
    const own = await bob.client.from('booking_forms').delete().eq('id', bobForm).select('id');
    expect(own.data).toEqual([{ id: bobForm }]);
  });

  it('refuses invalid availability, time zones and links', async () => {
    const bad: Row[] = [
      { weekly: [[[540, 1020]]] },
      { weekly: Array.from({ length: 7 }, () => [[600, 540]]) },
      {
        weekly: Array.from({ length: 7 }, () => [
          [540, 700],
          [600, 800],
        ]),
      },
      { weekly: Array.from({ length: 7 }, () => [[0, 1441]]) },
      { overrides: [{ date: '2026-02-30', ranges: [] }] },
      {
        overrides: [
          { date: '2026-12-24', ranges: [] },
          { date: '2026-12-24', ranges: [[60, 120]] },
        ],
      },
      { time_zone: 'Mars/Olympus' },
      { time_zone: 'UTC+5' },
      { duration_minutes: 2 },
      { slug: 'manage' },
      { slug: 'Has Spaces' },
    ];
    for (const fields of bad) {
      const { error } = await alice.client
        .from('booking_forms')
        .insert({ slug: `bad-${Math.random().toString(36).slice(2, 9)}`, name: 'Bad', ...fields });
      expect(error?.code, JSON.stringify(fields)).toBe('23514');
    }
  });

  it('shows anon no table and lets it write none', async () => {
    const visitor = newClient();
    const forms = await visitor.from('booking_forms').select('id');
    expect(forms.data ?? []).toEqual([]);
    const bookings = await visitor.from('bookings').select('id');
    expect(bookings.data ?? []).toEqual([]);
    const insert = await visitor.from('booking_forms').insert({ slug: 'anon-form', name: 'Anon' });
    expect(insert.error).not.toBeNull();
  });
});

describe("a booking page's CAPTCHA", () => {
  const set = (client: SupabaseClient, provider: string | null, secret: string | null = 'sekret') =>
    client.rpc('set_booking_captcha', {
      p_booking_form_id: aliceForm.id,
      p_provider: provider,
      p_site_key: provider ? '0x4AAAAAAA' : null,
      p_secret: secret,
    });
  const stored = async () =>
    (
      await pool.query<{ secret: string }>(
        'select secret from private.booking_captcha_secrets where booking_form_id = $1',
        [aliceForm.id],
      )
    ).rows[0]?.secret ?? null;

  it('is set by the owner only, keeps its secret apart, and takes the keys as the provider shows them', async () => {
    expect((await set(bob.client, 'turnstile')).error?.message).toBe(
      'This booking form no longer exists.',
    );
    expect((await set(newClient(), 'turnstile')).error).not.toBeNull();
    // A new provider needs its secret; a bad one or a bad site key is refused in words.
    expect((await set(alice.client, 'turnstile', '')).error?.message).toBe('Enter the secret key.');
    expect((await set(alice.client, 'turnstile', 'with space')).error?.message).toBe(
      'Enter the secret key exactly as the provider shows it.',
    );
    const badKey = await alice.client.rpc('set_booking_captcha', {
      p_booking_form_id: aliceForm.id,
      p_provider: 'hcaptcha',
      p_site_key: 'not a key',
      p_secret: 's',
    });
    expect(badKey.error?.message).toBe('Enter the site key exactly as the provider shows it.');
    expect((await set(alice.client, 'friendlycaptcha')).error?.message).toBe(
      'Choose Turnstile, hCaptcha or reCAPTCHA.',
    );
    expect(await stored()).toBeNull();

    expect((await set(alice.client, 'turnstile')).data).toEqual({
      captcha_provider: 'turnstile',
      captcha_site_key: '0x4AAAAAAA',
    });
    // Empty keeps the stored secret for the same provider, not for another.
    expect((await set(alice.client, 'turnstile', '')).error).toBeNull();
    expect(await stored()).toBe('sekret');
    expect((await set(alice.client, 'recaptcha', '')).error?.message).toBe('Enter the secret key.');
    expect(
      (await runAs(pool, user(alice.id), 'select * from private.booking_captcha_secrets')).code,
    ).toBe('42501');
    // Off: the secret goes too.
    expect((await set(alice.client, null, null)).error).toBeNull();
    expect(await stored()).toBeNull();
  });
});

describe('bookings', () => {
  it('are read by their owner only, and written by nobody but the definer functions', async () => {
    const booked = await requestBooking(pool, aliceForm.slug, slotIn(20), {
      email: 'v1@example.test',
    });
    expect(booked.status).toBe('booked');
    const mine = await alice.client.from('bookings').select('id, email');
    expect(mine.data).toEqual([{ id: booked.booking!.id, email: 'v1@example.test' }]);
    expect((await bob.client.from('bookings').select('id')).data).toEqual([]);
    const write = await alice.client
      .from('bookings')
      .update({ status: 'cancelled' })
      .eq('id', booked.booking!.id)
      .select();
    expect(write.error ?? write.data).toBeTruthy();
    expect(write.data ?? []).toEqual([]);
    const insert = await alice.client.from('bookings').insert({
      booking_form_id: aliceForm.id,
      user_id: alice.id,
      starts_at: slotIn(21),
      ends_at: slotIn(21, '11:00'),
      blocked: `[${slotIn(21)},${slotIn(21, '11:00')})`,
      name: 'Me',
      email: 'me@example.test',
      visitor_time_zone: 'UTC',
    });
    expect(insert.error?.code).toBe('42501');
  });

  it('lets anon call only booking_page() and booking_slots(), which show nothing of the owner', async () => {
    const visitor = newClient();
    const page = await visitor.rpc('booking_page', { p_slug: aliceForm.slug });
    expect(page.error).toBeNull();
    expect(Object.keys(page.data as Row).sort()).toEqual(
      [
        'ask_note',
        'captcha_provider',
        'captcha_site_key',
        'description',
        'duration_minutes',
        'id',
        'location',
        'max_days_ahead',
        'min_notice_minutes',
        'name',
        'slug',
        'time_zone',
      ].sort(),
    );
    const from = new Date();
    const slots = await visitor.rpc('booking_slots', {
      p_slug: aliceForm.slug,
      p_from: from.toISOString(),
      p_to: new Date(from.getTime() + 7 * 86_400_000).toISOString(),
    });
    expect(slots.error).toBeNull();
    expect(Array.isArray((slots.data as { slots: unknown[] }).slots)).toBe(true);
    for (const [fn, args] of [
      ['booking_request', { p_slug: aliceForm.slug }],
      ['booking_manage', { p_token: 'x'.repeat(43) }],
      ['booking_cancel_by_token', { p_token: 'x'.repeat(43), p_reason: '' }],
      ['booking_captcha_secret', { p_booking_form_id: aliceForm.id }],
      ['booking_owner_cancel', { p_booking_id: aliceForm.id, p_message: '' }],
    ] as const) {
      const { error } = await visitor.rpc(fn, args as never);
      expect(error, fn).not.toBeNull();
    }
  });

  it('lets no role but the definer functions read the tokens and CAPTCHA secrets', async () => {
    for (const actor of [anon, user(alice.id)]) {
      for (const table of ['private.booking_tokens', 'private.booking_captcha_secrets']) {
        const outcome = await runAs(pool, actor, `select * from ${table}`);
        expect(outcome.code, `${actor.role} ${table}`).toBe('42501');
      }
    }
    for (const fn of [
      "public.booking_request('x', now(), 'n', 'e@example.test', '', 'UTC', 'c', 'https://x.test/', '{}')",
      "public.booking_manage('x')",
      'public.booking_captcha_secret(gen_random_uuid())',
    ]) {
      const outcome = await runAs(pool, user(alice.id), `select ${fn}`);
      expect(outcome.code, fn).toBe('42501');
    }
  });

  it("booking_owner_cancel() cancels the caller's own booking only", async () => {
    const booked = await requestBooking(pool, aliceForm.slug, slotIn(22), {
      email: 'v2@example.test',
    });
    const byBob = await bob.client.rpc('booking_owner_cancel', {
      p_booking_id: booked.booking!.id,
      p_message: 'Not mine',
    });
    expect(byBob.data).toEqual({ status: 'not_found' });
    const byAlice = await alice.client.rpc('booking_owner_cancel', {
      p_booking_id: booked.booking!.id,
      p_message: 'Sorry, I am travelling.',
    });
    expect(byAlice.data).toEqual({ status: 'cancelled' });
    const { rows } = await pool.query(
      `select status, cancelled_by, cancel_reason, sequence from public.bookings where id = $1`,
      [booked.booking!.id],
    );
    expect(rows[0]).toEqual({
      status: 'cancelled',
      cancelled_by: 'owner',
      cancel_reason: 'Sorry, I am travelling.',
      sequence: 1,
    });
    const again = await alice.client.rpc('booking_owner_cancel', {
      p_booking_id: booked.booking!.id,
      p_message: '',
    });
    expect(again.data).toEqual({ status: 'already_cancelled' });
  });

  it('reach their owner through Realtime, filtered on the owner, and nobody else', async () => {
    type Change = RealtimePostgresChangesPayload<Row>;
    const forAlice: Change[] = [];
    const forBob: Change[] = [];
    const forAnon: Change[] = [];
    const visitor = newClient();
    const channels = await Promise.all([
      listenToTable(alice.client, 'bookings-alice', 'bookings', `user_id=eq.${alice.id}`, forAlice),
      listenToTable(bob.client, 'bookings-bob', 'bookings', `user_id=eq.${alice.id}`, forBob),
      listenToTable(visitor, 'bookings-anon', 'bookings', undefined, forAnon),
    ]);
    try {
      const booked = await requestBooking(pool, aliceForm.slug, slotIn(23), {
        email: 'v3@example.test',
      });
      const deadline = Date.now() + 5000;
      while (
        !forAlice.some((c) => (c.new as Row).id === booked.booking!.id) &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(forAlice.find((c) => (c.new as Row).id === booked.booking!.id)?.new).toMatchObject({
        user_id: alice.id,
        status: 'confirmed',
        email: 'v3@example.test',
      });
      // A deleted booking (its form deleted) reaches its owner too: its replica identity carries
      // user_id for the filter, and the change shows only the key, as on any RLS table.
      await pool.query('delete from public.bookings where id = $1', [booked.booking!.id]);
      const deleted = (c: Change) =>
        c.eventType === 'DELETE' && (c.old as Row).id === booked.booking!.id;
      const until = Date.now() + 5000;
      while (!forAlice.some(deleted) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(forAlice.find(deleted)?.old).toEqual({ id: booked.booking!.id });
      await new Promise((r) => setTimeout(r, 500));
      // The others saw no insert: at most the deleted row's key, which RLS can no longer check
      // (Supabase's documented behaviour; tests/rls/form-ids.test.ts shows it for forms).
      for (const seen of [forBob, forAnon]) {
        expect(seen.map((c) => [c.eventType, c.old, c.new])).toEqual(
          seen.length ? [['DELETE', { id: booked.booking!.id }, {}]] : [],
        );
      }
    } finally {
      await Promise.all([
        alice.client.removeChannel(channels[0]),
        bob.client.removeChannel(channels[1]),
        visitor.removeChannel(channels[2]),
      ]);
    }
  });

  it('deleting the account deletes its booking forms, bookings and tokens', async () => {
    const carol = await signUp('Carol Booking');
    const form = await createBookingForm(pool, carol.id);
    const booked = await requestBooking(pool, form.slug, slotIn(24));
    expect(booked.status).toBe('booked');
    await pool.query('delete from auth.users where id = $1', [carol.id]);
    const { rows } = await pool.query(
      `select (select count(*)::int from public.booking_forms where user_id = $1) as forms,
              (select count(*)::int from public.bookings where user_id = $1) as bookings,
              (select count(*)::int from private.booking_tokens where booking_id = $2) as tokens`,
      [carol.id, booked.booking!.id],
    );
    expect(rows[0]).toEqual({ forms: 0, bookings: 0, tokens: 0 });
  });
});
