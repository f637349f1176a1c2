// App-wide providers: the design system and the auth state.
import type { ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { AuthProvider } from '../lib/auth';
import { system } from './theme';

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <AuthProvider>{children}</AuthProvider>
    </ChakraProvider>
  );
}
