export { BookingPage } from './booking-page';
export { BookingFormPage } from './booking-form-page';
export { BookingPreviewPage } from './booking-preview-page';
