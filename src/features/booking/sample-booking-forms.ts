// The booking page's forms: hard-coded sample data (spec §2 Booking page, §3 "Booking form"). The
// booking tool is not built yet, so there is no server call.
import { paths } from '../../config/paths';

export interface BookingForm {
  id: string;
  name: string;
  description: string;
  /** ISO timestamp. */
  createdAt: string;
  /** The public page visitors book through. */
  publicLink: string;
}

const SAMPLE_BOOKING_FORMS: readonly BookingForm[] = [
  {
    id: 'cal1',
    name: 'Intro call',
    description: 'A free 30-minute call to talk through your project and how we can help.',
    createdAt: '2026-11-02T09:30:00Z',
    publicLink: paths.bookingPublic('cal1'),
  },
  {
    id: 'cal2',
    name: 'Website review',
    description: 'A one-hour review of your site: speed, forms, accessibility and next steps.',
    createdAt: '2026-11-16T14:00:00Z',
    publicLink: paths.bookingPublic('cal2'),
  },
];

export function findBookingForm(id: string | undefined): BookingForm | undefined {
  return SAMPLE_BOOKING_FORMS.find((form) => form.id === id);
}
