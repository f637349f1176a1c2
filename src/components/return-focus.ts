// Where the focus goes when a dialog or drawer closes. Chakra's dialogs hand it back to the element
// that had it when they opened. That fails when the dialog was opened from another dialog that has
// closed since (New Form's Create → the new form's code: the Create button is gone), or when the
// dialog's own action removed its opener (a deleted form's card); the focus then falls to the
// start of the document. `useReturnFocus` gives a dialog its `finalFocusEl`: the element focused
// when it opened, else the last one focused outside any dialog before it opened (the control that
// started a sequence of dialogs), else the page's content (page-content.ts).
import { useCallback, useLayoutEffect, useRef } from 'react';
import { pageContent } from './page-content';

const DIALOG = '[role="dialog"], [role="alertdialog"]';

/** The last element focused outside any dialog, tracked from the first dialog on. */
let lastOutside: HTMLElement | null = null;
let tracking = false;

function trackFocusOutsideDialogs() {
  if (tracking || typeof document === 'undefined') return;
  tracking = true;
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && !active.closest(DIALOG)) {
    lastOutside = active;
  }
  document.addEventListener(
    'focusin',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest(DIALOG)) lastOutside = target;
    },
    true,
  );
}

/** Whether `el` can take the focus back: still in the page. */
const canFocus = (el: HTMLElement | null): el is HTMLElement => !!el && el.isConnected;

/** Where the focus goes when the dialog closes; chosen when it closes. */
export function returnTarget(
  opener: HTMLElement | null,
  before: HTMLElement | null,
): HTMLElement | null {
  if (canFocus(opener)) return opener;
  if (canFocus(before)) return before;
  return pageContent();
}

/**
 * For a dialog or drawer that is open while `open`: its `finalFocusEl` (Chakra's Dialog.Root and
 * Drawer.Root take it).
 */
export function useReturnFocus(open: boolean): () => HTMLElement | null {
  const opener = useRef<HTMLElement | null>(null);
  const before = useRef<HTMLElement | null>(null);
  // Before the dialog moves the focus inside (it does so after its own effects, a frame later).
  useLayoutEffect(() => {
    trackFocusOutsideDialogs();
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    before.current = lastOutside;
  }, [open]);
  return useCallback(() => returnTarget(opener.current, before.current), []);
}
