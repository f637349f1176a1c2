// Booking (skeleton).
export function BookingPage() {
  return <h1>Your Booking Forms</h1>;
}
