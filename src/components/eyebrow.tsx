// The small uppercase label above a page or section heading ("Pricing", "How it works").
import type { ReactNode } from 'react';
import { Text } from '@chakra-ui/react';

export function Eyebrow({ children }: { children: ReactNode }) {
  return (
    <Text
      color="teal.700"
      fontWeight="semibold"
      textTransform="uppercase"
      letterSpacing="wider"
      fontSize="sm"
    >
      {children}
    </Text>
  );
}
