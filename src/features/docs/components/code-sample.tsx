// A copyable code block for the docs: the code as written, with a copy button in its corner.
// Long lines scroll sideways (with a fade at the edge that has more) instead of wrapping.
import { Box, HStack, Text } from '@chakra-ui/react';
import { CopyButton } from '../../../components/copy-button';
import { HorizontalScroll } from '../../../components/horizontal-scroll';

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
      <HorizontalScroll label={`${label} code`} fadeColor="gray.900">
        {/* max-content: the padding stays at the end of the longest line when scrolled. */}
        <Box
          as="pre"
          p={4}
          m={0}
          w="max-content"
          minW="full"
          color="gray.100"
          fontSize="sm"
          lineHeight="1.6"
          fontFamily="mono"
        >
          <code>{code}</code>
        </Box>
      </HorizontalScroll>
    </Box>
  );
}
