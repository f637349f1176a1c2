// The toasts on screen: renders the store of toaster.tsx. Loaded by toaster-loader.tsx when the
// first toast is raised, so no page load carries the renderer before a toast is needed.
import { Toaster as ChakraToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { ErrorBoundary } from './error-boundary';
import { ToastFallback } from './fallbacks';
import { toaster } from './toaster';
import { useLaterRecipes } from './theme/use-later-recipes';

/** The toasts; should their styles fail to load, each toast in words instead (never a throw). */
export function Toaster() {
  return (
    <ErrorBoundary fallback={() => <ToastFallback />}>
      <Toasts />
    </ErrorBoundary>
  );
}

function Toasts() {
  useLaterRecipes();
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
