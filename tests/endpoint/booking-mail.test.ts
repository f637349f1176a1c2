// The booking mails as they reach the mail catcher through the real outbox (booking function →
// Postgres → nodemailer over SMTP), read from their raw source: a text/calendar alternative whose
// method is the invitation's METHOD and the same invitation attached as invite.ics, parsed with
// ical.js as a calendar client would. The visitor's copy holds only a clipped name and nothing of
// the note; the owner's holds the note. The event keeps its UID through a move with SEQUENCE
// raised, and a cancellation withdraws it with METHOD:CANCEL.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createBookingForm, freeSlots } from '../support/booking.ts';
import { createAuthUser, superuserPool, uniqueEmail } from '../support/db.ts';
import { isTo, listMail, mailSource, partsOf, type CaughtMail } from '../support/mail.ts';
import { rawRequest } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const fn = (path: string) => `${stack.apiUrl}/functions/v1/booking${path}`;
let pool: pg.Pool;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  // The first request boots the function's worker (and fetches its npm packages).
  expect((await rawRequest(fn('/book'), { method: 'OPTIONS' })).status).toBe(204);
}, 120_000);
afterAll(async () => {
  await pool.end();
});

async function post(path: string, body: unknown) {
  const res = await rawRequest(fn(path), {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
}

interface Invitation {
  method: string;
  uid: string;
  sequence: number;
  start: string;
  end: string;
  status: string;
  description: string;
  attendee: string;
}

/** A booking mail's parts and its invitation as ical.js reads it, after the MIME checks. */
async function readMail(mail: CaughtMail, method: 'REQUEST' | 'CANCEL') {
  const parts = partsOf(await mailSource(stack.mailWebUrl, mail));
  expect(parts.map((p) => p.type)).toEqual([
    'multipart/mixed',
    'multipart/alternative',
    'text/plain',
    'text/html',
    'text/calendar',
    'application/ics',
  ]);
  const calendar = parts[4]!;
  // The alternative names the method; it is no attachment.
  expect(calendar.headers).toMatch(
    new RegExp(`^content-type: text/calendar;.*\\bmethod=${method}\\b`, 'im'),
  );
  expect(calendar.headers).not.toMatch(/content-disposition/i);
  const attached = parts[5]!;
  expect(attached.headers).toMatch(/^content-disposition: attachment; filename=invite\.ics/im);
  expect(attached.body.replace(/\r\n/g, '\n')).toBe(calendar.body.replace(/\r\n/g, '\n'));

  const root = new ICAL.Component(ICAL.parse(attached.body));
  const vevent = root.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  const invitation: Invitation = {
    method: String(root.getFirstPropertyValue('method')),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    status: String(vevent.getFirstPropertyValue('status')),
    description: String(vevent.getFirstPropertyValue('description') ?? ''),
    attendee: String(vevent.getFirstProperty('attendee')?.getParameter('cn') ?? ''),
  };
  expect(invitation.method).toBe(method);
  const everything = parts.map((p) => p.body).join('\n');
  return { parts, invitation, everything, text: parts[2]!.body };
}

/** Waits until `count` mails to `address` whose subject matches have arrived. */
async function mailsTo(address: string, subject: RegExp, count = 1): Promise<CaughtMail[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = (await listMail(stack.mailWebUrl)).filter(
      (m) => isTo(m, address) && subject.test(m.subject),
    );
    if (mails.length >= count) return mails;
    if (Date.now() > deadline)
      throw new Error(`${mails.length} of ${count} mails "${subject}" to ${address} arrived`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tokenIn = (text: string) => /\/book\/manage\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

describe('booking mails', () => {
  it('invite both sides, move the same event and withdraw it', async () => {
    const owner = await createAuthUser(pool, 'Grace Owner', uniqueEmail('booking-mail-owner'));
    const form = await createBookingForm(pool, owner.id, {
      name: 'Engine review',
      description: 'Bring your punched cards.',
      duration_minutes: 45,
    });
    const from = new Date(Date.now() + 24 * 3_600_000);
    const slots = await freeSlots(pool, form.slug, from, new Date(from.getTime() + 7 * 86_400_000));
    const email = uniqueEmail('booking-mail-visitor');
    const name = 'Ada Augusta King, Countess of Lovelace and Analyst see www.ada-spam.example';
    const note = `Please prepare the Bernoulli table ${Math.random().toString(36).slice(2)}`;
    const { rows } = await pool.query<{ label: string }>(
      'select private.mail_label($1, 40) as label',
      [name],
    );
    const clipped = rows[0]!.label;
    expect(clipped.length).toBeLessThanOrEqual(40);
    expect(name.startsWith(clipped)).toBe(true);

    const booked = await post('/book', {
      slug: form.slug,
      start: slots[2],
      name,
      email,
      note,
      timeZone: 'Asia/Tokyo',
    });
    expect(booked.status).toBe(201);
    const booking = booked.body.booking as { id: string; starts_at: string; ends_at: string };
    const instants = {
      start: new Date(booking.starts_at).toISOString(),
      end: new Date(booking.ends_at).toISOString(),
    };
    expect(Date.parse(booking.ends_at) - Date.parse(booking.starts_at)).toBe(45 * 60_000);

    // The visitor's copy: the invitation, the owner's description, a clipped name, no note.
    const [visitorMail] = await mailsTo(email, /^Booked: Engine review$/);
    const visitor = await readMail(visitorMail!, 'REQUEST');
    expect(visitor.invitation).toMatchObject({
      ...instants,
      sequence: 0,
      status: 'CONFIRMED',
      description: 'Bring your punched cards.',
      attendee: clipped,
    });
    const uid = visitor.invitation.uid;
    expect(uid).toContain(booking.id);
    expect(visitor.text).toContain(`Hello ${clipped},`);
    expect(visitor.everything).not.toContain(note);
    expect(visitor.everything).not.toContain('Bernoulli');
    expect(visitor.everything).not.toContain(name);
    expect(visitor.everything).not.toContain('ada-spam');
    const firstToken = tokenIn(visitor.text);
    expect(firstToken).toBeTruthy();

    // The owner's copy: the same event, with the note and the visitor's whole name.
    const [ownerMail] = await mailsTo(owner.email, /^New booking:/);
    const toOwner = await readMail(ownerMail!, 'REQUEST');
    expect(toOwner.invitation).toMatchObject({ ...instants, uid, sequence: 0 });
    expect(toOwner.invitation.description).toContain(note);
    expect(toOwner.text).toContain(note);
    expect(toOwner.text).toContain(`Name: ${name}`);
    expect(tokenIn(toOwner.text)).toBeUndefined();

    // Moved: a new REQUEST of the same event, its SEQUENCE raised, with a new link.
    const moved = await post(`/manage/${firstToken}/reschedule`, { start: slots[6] });
    expect(moved.status).toBe(200);
    const movedTo = {
      start: new Date(slots[6]!).toISOString(),
      end: new Date(Date.parse(slots[6]!) + 45 * 60_000).toISOString(),
    };
    const visitorMails = await mailsTo(email, /^Booked:/, 2);
    const second = await readMail(
      visitorMails.find((m) => m.id !== visitorMail!.id)!,
      'REQUEST',
    );
    expect(second.invitation).toMatchObject({ ...movedTo, uid, sequence: 1, status: 'CONFIRMED' });
    expect(second.everything).not.toContain(note);
    const secondToken = tokenIn(second.text);
    expect(secondToken).toBeTruthy();
    expect(secondToken).not.toBe(firstToken);
    const ownerMails = await mailsTo(owner.email, /^New booking:/, 2);
    const ownerMoved = await readMail(
      ownerMails.find((m) => m.id !== ownerMail!.id)!,
      'REQUEST',
    );
    expect(ownerMoved.invitation).toMatchObject({ ...movedTo, uid, sequence: 1 });

    // Cancelled: METHOD:CANCEL of the same event to both, SEQUENCE raised again.
    expect((await post(`/manage/${secondToken}/cancel`, { reason: 'Engine on fire' })).status).toBe(
      200,
    );
    const [visitorCancel] = await mailsTo(email, /^Cancelled: Engine review$/);
    const cancelled = await readMail(visitorCancel!, 'CANCEL');
    expect(cancelled.invitation).toMatchObject({
      ...movedTo,
      uid,
      sequence: 2,
      status: 'CANCELLED',
    });
    expect(cancelled.everything).not.toContain(note);
    expect(tokenIn(cancelled.text)).toBeUndefined();
    const [ownerCancel] = await mailsTo(owner.email, /^Booking cancelled:/);
    const ownerCancelled = await readMail(ownerCancel!, 'CANCEL');
    expect(ownerCancelled.invitation).toMatchObject({ uid, sequence: 2, status: 'CANCELLED' });
    expect(ownerCancelled.text).toContain('Engine on fire');
  });
});
