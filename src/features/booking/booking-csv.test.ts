import { describe, expect, it } from 'vitest';
import { bookingsToCsv, CSV_BOM, csvField, neutralizeFormula } from './booking-csv';
import type { Booking } from './bookings';

const booking = (overrides: Partial<Booking> = {}): Booking => ({
  id: '00000000-0000-4000-d000-000000000001',
  booking_form_id: 'f1',
  starts_at: '2026-12-01T08:00:00+00:00',
  ends_at: '2026-12-01T08:30:00+00:00',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  note: '',
  visitor_time_zone: 'America/New_York',
  status: 'confirmed',
  cancelled_at: null,
  cancelled_by: null,
  cancel_reason: null,
  created_at: '2026-11-20T10:00:00.123456+00:00',
  ...overrides,
});

const forms = new Map([['f1', { name: 'Intro call', time_zone: 'Europe/Berlin' }]]);
const lines = (csv: string) => csv.slice(CSV_BOM.length).replace(/\r\n$/, '').split('\r\n');

describe('bookingsToCsv', () => {
  it('starts with a BOM and the header row, lines end with CRLF', () => {
    const csv = bookingsToCsv([], (id) => forms.get(id));
    expect(csv).toBe(
      `${CSV_BOM}"Start (UTC)","End (UTC)","Local start","Local end","Time zone","Form","Name","Email","Note","Status","Cancelled by","Cancel reason","Visitor time zone","Booked at (UTC)"\r\n`,
    );
  });

  it('writes a booking with UTC and local times in the form’s zone', () => {
    const csv = bookingsToCsv([booking({ note: 'Line one\nsay "hi"' })], (id) => forms.get(id));
    expect(lines(csv)[1]).toBe(
      '"2026-12-01T08:00:00.000Z","2026-12-01T08:30:00.000Z","2026-12-01 09:00","2026-12-01 09:30","Europe/Berlin","Intro call","Ada Lovelace","ada@example.com","Line one\nsay ""hi""","confirmed","","","America/New_York","2026-11-20T10:00:00.123Z"',
    );
  });

  it('says who cancelled and why, and leaves a deleted form’s name empty in UTC', () => {
    const csv = bookingsToCsv(
      [
        booking({
          booking_form_id: 'gone',
          status: 'cancelled',
          cancelled_by: 'visitor',
          cancelled_at: '2026-11-21T10:00:00Z',
          cancel_reason: 'Ill, sorry',
        }),
      ],
      (id) => forms.get(id),
    );
    expect(lines(csv)[1]).toContain(
      '"2026-12-01 08:00","2026-12-01 08:30","UTC","","Ada Lovelace","ada@example.com","","cancelled","visitor","Ill, sorry"',
    );
  });

  it('neutralises formulas in the visitor’s text, also after a `;` or `,`', () => {
    const csv = bookingsToCsv(
      [booking({ name: '=cmd|calc', email: '@evil', note: 'ok;=1+1', cancel_reason: '+1' })],
      (id) => forms.get(id),
    );
    const row = lines(csv)[1];
    expect(row).toContain(`"'=cmd|calc","'@evil","ok;'=1+1"`);
    expect(csvField('-2')).toBe(`"'-2"`);
    expect(neutralizeFormula('a,=b')).toBe("a,'=b");
    expect(neutralizeFormula('a=b')).toBe('a=b');
  });
});
