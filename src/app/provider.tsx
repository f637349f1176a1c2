// App-wide providers: the design system, the server-state cache and the auth state.
import { useState, type ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { AuthProvider, useAuth } from '../lib/auth';
import { createQueryClient } from '../lib/query-client';
import { Toaster } from '../components/toaster';
import { system } from './theme';

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
          <Toaster />
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
