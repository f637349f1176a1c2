// Whether any toast has been raised yet: the only part of the toaster the first page load carries.
// The toast store and its renderer (toaster.tsx, toaster-view.tsx) load with the code that raises
// the first toast, and toaster-loader.tsx mounts the renderer once this says one was raised.
let raised = false;
const listeners = new Set<() => void>();

/** Marks that a toast was raised (called by `notify`); tells the waiting loader once. */
export function signalToast(): void {
  if (raised) return;
  raised = true;
  listeners.forEach((listener) => listener());
}

export const toastRaised = (): boolean => raised;

/** For useSyncExternalStore: calls `listener` when the first toast is raised. */
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
