// App-wide providers: Chakra UI's design system.
import type { ReactNode } from 'react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';

export function AppProvider({ children }: { children: ReactNode }) {
  return <ChakraProvider value={defaultSystem}>{children}</ChakraProvider>;
}
