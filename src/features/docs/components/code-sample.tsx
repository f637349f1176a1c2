// A copyable code block for the docs: the code as written, with a copy button in its corner.
import { Box, HStack, Text } from '@chakra-ui/react';
import { CopyButton } from '../../../components/copy-button';

export function CodeSample({ code, label }: { code: string; label: string }) {
  return (
    <Box
      as="figure"
      my={4}
      borderRadius="lg"
      overflow="hidden"
      borderWidth="1px"
      borderColor="gray.700"
      bg="gray.900"
    >
      <HStack justify="space-between" px={4} py={2} bg="gray.800" gap={3}>
        <Text
          as="figcaption"
          fontSize="xs"
          fontWeight="semibold"
          color="gray.300"
          textTransform="uppercase"
          letterSpacing="wide"
        >
          {label}
        </Text>
        <CopyButton text={code} accessibleLabel={label} size="xs" variant="subtle" />
      </HStack>
      {/* tabIndex: a scrollable region must be reachable by keyboard to be scrolled. */}
      <Box
        as="pre"
        tabIndex={0}
        aria-label={label}
        p={4}
        m={0}
        color="gray.100"
        fontSize="sm"
        lineHeight="1.6"
        overflowX="auto"
        fontFamily="mono"
        _focusVisible={{ outline: '2px solid', outlineColor: 'teal.300', outlineOffset: '-2px' }}
      >
        <code>{code}</code>
      </Box>
    </Box>
  );
}
