// App-wide toasts: feedback for actions (saved, deleted, failed). `notify` is callable from any
// event handler; <Toaster/> is rendered once by the app's providers.
import { Toaster as ChakraToaster, Portal, Stack, Toast, createToaster } from '@chakra-ui/react';

export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true });

export type NotifyType = 'success' | 'error' | 'info';

/** Shows a short message; errors stay longer, as they usually need reading. */
export function notify(type: NotifyType, title: string, description?: string) {
  toaster.create({
    type,
    title,
    description,
    duration: type === 'error' ? 8000 : 4000,
    closable: true,
  });
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && (
                <Toast.Description opacity="1">{toast.description}</Toast.Description>
              )}
            </Stack>
            {toast.closable && <Toast.CloseTrigger aria-label="Dismiss" />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
