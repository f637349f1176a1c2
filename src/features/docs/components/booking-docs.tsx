// The docs' booking section: creating a booking form, availability and its rules, time zones, why
// a time is never booked twice, confirmations with calendar invitations and the single-use manage
// link, embedding (link and iframe), and the limits against abuse.
import { BOOKING } from '../../../../supabase/functions/_shared/limits.ts';
import { site } from '../../../config/site';
import { formatCount } from '../endpoint-facts';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P, SubHeading } from './docs-ui';

/** The public address of a booking form; the slug is the owner's. */
const BOOKING_LINK = `${site.url}/book/your-slug`;

// As the dashboard's Embed section writes it, with a placeholder slug and name.
const IFRAME_SNIPPET = `<iframe src="${BOOKING_LINK}?embed=1" title="Book: Intro call" width="100%" height="720" style="border:0;max-width:100%" loading="lazy"></iframe>`;

export function Booking() {
  return (
    <DocSection {...docSection('booking')}>
      <P>
        A booking form is a public page where visitors pick a free time and book it: you get an
        e-mail, they get a confirmation with a calendar invitation, and nobody can take a time that
        is already booked. No account is needed to book.
      </P>

      <SubHeading>Creating a booking form</SubHeading>
      <P>
        Under <strong>Dashboard → Booking</strong>, choose <strong>Create new booking form</strong>{' '}
        and give it a name, an optional description and location (a place, or a meeting link), the
        length of a meeting (5 minutes to 8 hours) and your time zone. Its link ends in a slug you
        choose: 3 to 60 lowercase letters, digits and hyphens, unique across tinyback (a taken one
        is refused with &ldquo;This link is taken&rdquo;). Visitors give their name and e-mail, and
        a note when you ask for one.
      </P>

      <SubHeading>Availability</SubHeading>
      <P>
        Your weekly hours say when you can be booked: for each weekday, up to six ranges in your own
        time zone (Monday to Friday, 9:00 to 17:00 by default). Slots start at the beginning of each
        range and follow one another every meeting length, as long as the whole meeting fits inside
        the range. These rules narrow them down:
      </P>
      <DataTable
        caption="Availability rules"
        head={['Rule', 'What it does']}
        rows={[
          [
            'Date overrides',
            'Replace the weekly hours of one date with other ranges, or with none for a day off (up to 200 dates).',
          ],
          [
            'Buffers',
            'Time kept free before and after each booking (0 to 240 minutes each), so meetings do not run back to back.',
          ],
          [
            'Minimum notice',
            'How long before a slot it can still be booked (up to 30 days); 4 hours by default.',
          ],
          ['Horizon', 'How many days ahead visitors can book (1 to 365); 60 by default.'],
          [
            'Daily maximum',
            'At most this many bookings on one day of yours (1 to 100), or no maximum.',
          ],
        ]}
      />

      <SubHeading>Time zones</SubHeading>
      <P>
        Slots are stored and computed in UTC from your hours in your time zone, so a day on which
        the clocks change has the hours it really has (23 or 25), and a meeting at 9:00 stays at
        9:00 your time across the change. Visitors see every day and time in their own time zone,
        which the page detects and lets them change; the confirmation names both their time and
        yours.
      </P>

      <SubHeading>No double booking</SubHeading>
      <P>
        The database refuses two confirmed bookings of one owner that overlap, buffers included,
        across all of your booking forms: a time booked through one form is no longer free on the
        others. When two visitors ask for the same time at once, one of them gets it; the other is
        answered <C>409</C> with the next free slots to choose from (&ldquo;Someone just booked this
        time.&rdquo;), and nothing was booked for them.
      </P>

      <SubHeading>Confirmations, cancelling and rescheduling</SubHeading>
      <Bullets>
        <Item>
          Each booking sends two e-mails: you get the visitor&rsquo;s details and note, the visitor
          gets a confirmation with a calendar invitation (an <C>.ics</C> file that calendar apps add
          with one click). Cancelling or moving a booking sends updated invitations to both of you,
          so the calendar entries follow. The invitation names you as its organizer, with your
          account&rsquo;s name and e-mail address, as every calendar invitation names its host.
        </Item>
        <Item>
          The visitor&rsquo;s e-mail has a link to cancel or reschedule. It works once: it is stored
          only as a hash, and after a change the new e-mail brings a new link. Opening the link
          changes nothing (mail scanners open links too); only its buttons do.
        </Item>
        <Item>
          You can cancel a booking from the dashboard with a message to the visitor, who gets a
          cancellation for their calendar.
        </Item>
      </Bullets>

      <SubHeading>Sharing and embedding</SubHeading>
      <P>Share the link itself, or put the page on your own site in an iframe:</P>
      <CodeSample label="Booking link" code={BOOKING_LINK} />
      <CodeSample label="Booking page in an iframe" code={IFRAME_SNIPPET} />
      <P>
        With <C>?embed=1</C> the page comes without tinyback&rsquo;s header and footer. The
        dashboard shows both with your own slug, ready to copy.
      </P>

      <SubHeading>Limits against abuse</SubHeading>
      <P>
        Booking pages are public, so every booking request is counted. Per client:{' '}
        {BOOKING.perClientPerMinute} requests a minute and {BOOKING.perClientPerDay} a day to one
        account&rsquo;s pages, after which the visitor is asked to wait. Per account:{' '}
        {formatCount(BOOKING.perAccountPerDay)} bookings a day over all of your booking forms. Per
        recipient: {BOOKING.visitorMailsPerRecipientPerDay} confirmation e-mails a day to one
        address, from all pages together; past that the booking still stands, you are told as usual,
        and the page tells the visitor to keep it. The visitor&rsquo;s copy carries only a clipped
        version of the name they typed and never their note, so the form cannot be used to send your
        messages to strangers. A hidden spam trap and, if you turn one on, a CAPTCHA keep bots out.
      </P>
      <Note>
        A refused request tells the visitor what to do: which field to correct, how long to wait (
        <C>429</C> with <C>Retry-After</C>), or to try again when the service could not be reached.
      </Note>
    </DocSection>
  );
}
