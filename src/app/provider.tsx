// App-wide providers: the design system, the server-state cache and the auth state.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { AuthProvider, useAuth } from '../lib/auth';
import { createQueryClient } from '../lib/query-client';
import { system } from './theme';

// The toast renderer (and its state machine) loads after the first page: a toast raised before it
// arrives waits in the toaster's store and shows once it has.
const Toaster = lazy(() =>
  import('../components/toaster').then((module) => ({ default: module.Toaster })),
);

/** Drops every cached query when the signed-in user changes, so no one sees another's data. */
function CacheScopedToUser({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const client = useQueryClient();
  const userId = user?.id ?? null;
  const [cachedFor, setCachedFor] = useState(userId);
  if (cachedFor !== userId) {
    setCachedFor(userId);
    client.clear();
  }
  return children;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <CacheScopedToUser>{children}</CacheScopedToUser>
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
