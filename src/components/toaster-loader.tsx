// Mounts the toast renderer (toaster-view.tsx) once the first toast is raised, rather than on
// every page load: most visits raise none. Rendered once by the app's providers.
//
// A renderer that fails to load (the network dropped, the site was redeployed) never takes the
// page down: each toast is then told in words in a polite status region (fallbacks.tsx), or, if
// even that cannot be had, the page goes on without toasts.
import { lazy, Suspense, useSyncExternalStore, type ComponentType } from 'react';
import { loadChunk, loadFallbacks } from '../lib/chunk-load';
import { subscribeToToasts, toastRaised } from './toaster-signal';

const ToasterView = lazy<ComponentType>(() =>
  loadChunk(() => import('./toaster-view'), 'Toaster')
    .then(
      (module) => ({ default: module.Toaster }),
      () => loadFallbacks().then((module) => ({ default: module.ToastFallback })),
    )
    .catch(() => ({ default: () => null })),
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
