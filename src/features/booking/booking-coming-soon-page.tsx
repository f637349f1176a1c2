// Booking routes that are not built yet (skeleton).
export function BookingComingSoonPage() {
  return <h1>Coming soon</h1>;
}
