// A callback that stays the same function from render to render and always calls the latest
// `fn`: handlers passed to memoized parts of the inbox without making them render again.
import { useCallback, useEffect, useRef } from 'react';

export function useStableCallback<A extends unknown[], R>(
  fn: (...args: A) => R,
): (...args: A) => R {
  const latest = useRef(fn);
  useEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
