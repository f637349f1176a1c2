// App-wide toasts: feedback for actions (saved, deleted, failed). `notify` is callable from any
// event handler. The renderer (toaster-view.tsx) is mounted by toaster-loader.tsx when the first
// toast is raised; until it arrives the toast waits in this store and shows once it has.
import { createToaster } from '@chakra-ui/react';
import { signalToast } from './toaster-signal';

export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true });

export type NotifyType = 'success' | 'error' | 'info';

/** Shows a short message; errors stay longer, as they usually need reading. */
export function notify(type: NotifyType, title: string, description?: string) {
  const duration = type === 'error' ? 8000 : 4000;
  toaster.create({ type, title, description, duration, closable: true });
  signalToast({ type, title, description, duration });
}
