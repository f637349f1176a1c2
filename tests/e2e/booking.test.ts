// Booking end to end in Chromium: an owner creates a booking form in the dashboard and keeps its
// page open; a visitor on a phone (390 px, no session) books a time on the public page; the booking
// appears in the owner's open page without a reload (Realtime); both e-mails reach the mail catcher
// with a text/calendar invitation (METHOD:REQUEST); the visitor opens the link of their e-mail and
// cancels, the owner sees it cancelled live, and both get the withdrawal (METHOD:CANCEL).
import { describe, expect, it } from 'vitest';
import { useE2e } from './support/session';
import { signedInUser } from './support/auth';
import { seriousViolations } from './support/a11y';
import { waitForMailTo } from './support/mail';
import { mailSource, partsOf, type CaughtMail } from '../support/mail';
import { testStack } from '../support/stack.ts';

/** The calendar part of a caught mail: its content type header and its text. */
async function calendarOf(mail: CaughtMail) {
  const part = partsOf(await mailSource(testStack().mailWebUrl, mail)).find(
    (p) => p.type === 'text/calendar',
  );
  expect(part, mail.subject).toBeDefined();
  return part!;
}

describe('booking in Chromium', () => {
  const e2e = useE2e('booking');

  it(
    'a visitor books on a phone, the owner sees it live, both get invitations, the visitor cancels',
    { timeout: 240_000 },
    async () => {
      const owner = await e2e.newPage();
      const account = await signedInUser(owner, 'Owner Booking');
      await owner.goto('/dashboard/booking/new');
      const settings = owner.getByRole('form', { name: 'Booking form settings' });
      const name = `Consult ${Math.random().toString(36).slice(2, 8)}`;
      await settings.getByRole('textbox', { name: /^Name/ }).fill(name);
      await settings.getByRole('button', { name: 'Create booking form' }).click();
      await owner.getByRole('heading', { level: 1, name }).waitFor({ timeout: 20_000 });
      const slug = await owner.getByRole('textbox', { name: /^Link/ }).inputValue();
      expect(slug).toMatch(/^consult-[a-z0-9]+$/);
      await owner.getByText('No upcoming bookings').first().waitFor({ timeout: 20_000 });

      // The visitor: a fresh context, a phone's width, no session.
      const visitor = await e2e.newPage({ width: 390, height: 844 });
      await visitor.goto(`/book/${slug}`);
      await visitor.getByRole('heading', { level: 1, name }).waitFor({ timeout: 20_000 });
      // The first day with free times (this month or, late in a month, the next one).
      const freeDay = visitor.getByRole('button', { name: /\d{4}, free times/ }).first();
      await freeDay.waitFor({ timeout: 20_000 });
      await freeDay.click();
      const times = visitor.getByRole('group', { name: /^Free times on / });
      await times.getByRole('button').first().click();
      await visitor.getByRole('heading', { name: 'Your details' }).waitFor();
      const email = `booker-${Date.now().toString(36)}@example.test`;
      await visitor.getByRole('textbox', { name: /your name/i }).fill('Grace Booker');
      await visitor.getByRole('textbox', { name: /your e-mail/i }).fill(email);
      await visitor.getByRole('textbox', { name: /note/i }).fill('About the new shop');
      expect(await seriousViolations(visitor)).toEqual([]);
      await visitor.getByRole('button', { name: 'Book' }).click();
      await visitor.getByRole('heading', { name: 'You’re booked' }).waitFor({ timeout: 20_000 });
      await visitor
        .getByText(`A confirmation with a calendar invitation was sent to ${email}.`)
        .waitFor();
      expect(
        await visitor.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(390);
      await e2e.shot(visitor, 'booked');

      // The owner's open page shows it, without a reload.
      const upcoming = owner.getByRole('list', { name: 'Upcoming bookings' });
      await upcoming.getByText('Grace Booker').waitFor({ timeout: 15_000 });
      await upcoming.getByText('About the new shop').waitFor();
      await e2e.shot(owner, 'owner-live');

      // Both e-mails, each with an invitation whose part names its method.
      const visitorMail = await waitForMailTo(email, /^Booked: /, 30_000);
      const ownerMail = await waitForMailTo(account.email, /^New booking: /, 30_000);
      for (const mail of [visitorMail, ownerMail]) {
        const calendar = await calendarOf(mail);
        expect(calendar.headers).toMatch(/method=REQUEST/i);
        expect(calendar.body).toMatch(/^METHOD:REQUEST$/m);
      }
      // The visitor's copy holds the clipped name, never the note.
      expect(visitorMail.text ?? '').not.toContain('About the new shop');
      expect(ownerMail.text ?? '').toContain('About the new shop');

      // The link of the visitor's e-mail, opened on the site under test.
      const link = /\/book\/manage\?token=[A-Za-z0-9_-]+/.exec(visitorMail.text ?? '')?.[0];
      expect(link, visitorMail.text).toBeTruthy();
      await visitor.goto(link!);
      await visitor.getByRole('heading', { level: 1, name }).waitFor({ timeout: 20_000 });
      await visitor.getByRole('button', { name: 'Cancel booking' }).click();
      const dialog = visitor.getByRole('alertdialog', { name: 'Cancel this booking?' });
      await dialog.getByRole('textbox', { name: /reason/i }).fill('Something came up');
      await dialog.getByRole('button', { name: 'Cancel booking' }).click();
      await visitor
        .getByRole('heading', { name: 'Your booking is cancelled' })
        .waitFor({ timeout: 20_000 });
      expect(await seriousViolations(visitor)).toEqual([]);

      // The owner sees it cancelled, live; both get the withdrawal.
      await upcoming.getByText('Cancelled by visitor').waitFor({ timeout: 15_000 });
      await upcoming.getByText('Something came up').waitFor();
      await e2e.shot(owner, 'owner-cancelled');
      const cancelled = await waitForMailTo(email, /^Cancelled: /, 30_000);
      expect((await calendarOf(cancelled)).body).toMatch(/^METHOD:CANCEL$/m);
      await waitForMailTo(account.email, /^Booking cancelled: /, 30_000);

      // The link worked once.
      await visitor.goto(link!);
      await visitor
        .getByText('This link has already been used or no longer works.')
        .first()
        .waitFor({ timeout: 20_000 });
      expect(e2e.errorsOf(visitor)).toEqual([]);
      expect(e2e.errorsOf(owner)).toEqual([]);
    },
  );
});
