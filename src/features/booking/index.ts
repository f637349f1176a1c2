export { BookingPage } from './booking-page';
export { BookingComingSoonPage } from './booking-coming-soon-page';
export { BookingPreviewPage } from './booking-preview-page';
