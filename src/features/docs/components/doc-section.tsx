// One section of the docs: an h2 with a stable id (the table of contents links to it) and its body.
import type { ReactNode } from 'react';
import { Badge, Box, Heading, HStack } from '@chakra-ui/react';

export function DocSection({
  id,
  title,
  soon,
  children,
}: {
  id: string;
  title: string;
  soon?: boolean;
  children: ReactNode;
}) {
  return (
    <Box
      as="section"
      aria-labelledby={id}
      py={8}
      borderTopWidth="1px"
      _first={{ borderTopWidth: 0, pt: 0 }}
    >
      <HStack gap={3} mb={4} flexWrap="wrap">
        <Heading as="h2" id={id} size="2xl" scrollMarginTop="88px">
          {title}
        </Heading>
        {soon && (
          <Badge colorPalette="orange" variant="subtle">
            Coming soon
          </Badge>
        )}
      </HStack>
      <Box css={{ '& > p': { mb: 4, lineHeight: 'tall' }, '& > p:last-child': { mb: 0 } }}>
        {children}
      </Box>
    </Box>
  );
}
