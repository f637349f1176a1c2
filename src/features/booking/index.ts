export { BookingPage } from './booking-page';
export { BookingFormPage } from './booking-form-page';
