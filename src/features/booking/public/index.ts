// The visitor's side of booking: the public booking page (/book/:slug, `?embed=1` for the iframe)
// and the page a confirmation e-mail's link opens (/book/manage?token=…).
export { BookingPublicPage } from './components/booking-public-page';
export { BookingManagePage } from './components/booking-manage-page';
