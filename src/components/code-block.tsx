// A dark code block with a bar naming it and a copy button; long lines scroll sideways with a
// fade cue instead of wrapping. Shared by the docs' samples and the markdown renderer (blog).
import type { ReactNode } from 'react';
import { Box, HStack, Text } from '@chakra-ui/react';
import { CopyButton } from './copy-button';
import { HorizontalScroll } from './horizontal-scroll';

export interface CodeBlockProps {
  /** Shown in the bar and named by the copy button: "Copy: <label>". */
  label: string;
  /** What the copy button puts on the clipboard. */
  text: string;
  /** The scroll region's name while it overflows; the label unless told. */
  scrollLabel?: string;
  /** The <code> element (markdown passes its own); the text itself unless told. */
  children?: ReactNode;
}

export function CodeBlock({ label, text, scrollLabel = label, children }: CodeBlockProps) {
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
        <CopyButton text={text} accessibleLabel={label} size="xs" variant="subtle" />
      </HStack>
      <HorizontalScroll label={scrollLabel} fadeColor="gray.900">
        {/* max-content: the padding stays at the end of the longest line when scrolled. */}
        <Box
          as="pre"
          m={0}
          p={4}
          w="max-content"
          minW="full"
          color="gray.100"
          fontSize="sm"
          lineHeight="1.6"
          fontFamily="mono"
          css={{
            '& code': {
              bg: 'transparent',
              color: 'inherit',
              p: 0,
              fontSize: 'inherit',
              whiteSpace: 'pre',
            },
          }}
        >
          {children ?? <code>{text}</code>}
        </Box>
      </HorizontalScroll>
    </Box>
  );
}
