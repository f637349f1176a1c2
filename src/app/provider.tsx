// App-wide providers: the design system, the auth state and the slot of the server-state cache
// (whose provider comes with the lazy pages: src/app/query-scope.tsx).
import { useState, type ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { LazyToaster } from '../components/toaster-loader';
import { AuthProvider, useAuth } from '../lib/auth';
import { createQuerySlot, QuerySlotContext, useQuerySlot } from './query-slot';
import { appSystem } from './theme';

/** Drops every cached query when the signed-in user changes, so no one sees another's data. */
function CacheScopedToUser({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const slot = useQuerySlot();
  const userId = user?.id ?? null;
  const [cachedFor, setCachedFor] = useState(userId);
  if (cachedFor !== userId) {
    setCachedFor(userId);
    slot?.clear();
  }
  return children;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [querySlot] = useState(createQuerySlot);
  return (
    <ChakraProvider value={appSystem()}>
      <QuerySlotContext.Provider value={querySlot}>
        <AuthProvider>
          <CacheScopedToUser>{children}</CacheScopedToUser>
          {/* The toast renderer loads when the first toast is raised (toaster-loader.tsx). */}
          <LazyToaster />
        </AuthProvider>
      </QuerySlotContext.Provider>
    </ChakraProvider>
  );
}
