export { BookingPage } from './booking-page';
export { BookingFormPage } from './booking-form-page';
// The router's name for the editor until it routes /dashboard/booking/new and /:id to BookingFormPage.
export { BookingFormPage as BookingComingSoonPage } from './booking-form-page';
export { BookingPreviewPage } from './booking-preview-page';
export { bookingLiveBindings } from './live-bindings';
