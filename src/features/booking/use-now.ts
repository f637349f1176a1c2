// The time, read again every minute: a booking that ends leaves the upcoming lists and counts
// within a minute without a reload.
import { useEffect, useState } from 'react';

const CLOCK_MS = 60_000;

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
