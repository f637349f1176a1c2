// Whether any toast has been raised yet, and the last one's words: the only part of the toaster
// the first page load carries. The toast store and its renderer (toaster.tsx, toaster-view.tsx)
// load with the code that raises the first toast, and toaster-loader.tsx mounts the renderer once
// this says one was raised (or, should the renderer fail to load, shows the last toast's words in
// a plain status region).
export interface ToastWords {
  type: 'success' | 'error' | 'info';
  title: string;
  description?: string;
  /** How long the toast shows (ms). */
  duration: number;
}

let raised = false;
let last: ToastWords | null = null;
const listeners = new Set<() => void>();

/** Records a raised toast (called by `notify`) and tells the loader. */
export function signalToast(words: ToastWords): void {
  raised = true;
  last = words;
  listeners.forEach((listener) => listener());
}

export const toastRaised = (): boolean => raised;

/** The most recent toast (a new object for each toast), for the fallback. */
export const lastToast = (): ToastWords | null => last;

/** For useSyncExternalStore: calls `listener` whenever a toast is raised. */
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
