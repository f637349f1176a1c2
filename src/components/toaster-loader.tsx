// Mounts the toast renderer (toaster-view.tsx) once the first toast is raised, rather than on
// every page load: most visits raise none. Rendered once by the app's providers.
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { subscribeToToasts, toastRaised } from './toaster-signal';

const ToasterView = lazy(() =>
  import('./toaster-view').then((module) => ({ default: module.Toaster })),
);

export function LazyToaster() {
  const needed = useSyncExternalStore(subscribeToToasts, toastRaised, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}
