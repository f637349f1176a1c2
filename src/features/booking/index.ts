export { BookingPage } from './booking-page';
export { BookingComingSoonPage } from './booking-coming-soon-page';
