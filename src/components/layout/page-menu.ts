// A page's own menu below the `lg` breakpoint: the dashboard's sidebar in a drawer. While a page
// has one (the dashboard frame provides it), the header's menu button opens it instead of the
// site's menu, and the profile menu stays out of the bar: a phone gets one menu in the dashboard,
// not three. The drawer then holds the site's pages and the account as well.
import { useSyncExternalStore } from 'react';

export interface PageMenuState {
  /** A page menu is on the page (the dashboard frame is mounted). */
  present: boolean;
  open: boolean;
}

let state: PageMenuState = { present: false, open: false };
const listeners = new Set<() => void>();

/** Sets whether there is a page menu and whether it is open. */
export function setPageMenu(next: PageMenuState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export function usePageMenu(): PageMenuState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
