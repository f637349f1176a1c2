// A page section with an optional centred h2 heading and intro, in the site's content width.
import type { ReactNode } from 'react';
import { Box, Container, Heading, Stack, Text, type BoxProps } from '@chakra-ui/react';
import { Eyebrow } from './eyebrow';

export interface SectionProps extends Omit<BoxProps, 'title'> {
  id?: string;
  eyebrow?: string;
  title?: string;
  intro?: ReactNode;
  children: ReactNode;
}

export function Section({ id, eyebrow, title, intro, children, ...boxProps }: SectionProps) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <Box
      as="section"
      id={id}
      aria-labelledby={title ? headingId : undefined}
      py={{ base: '12', md: '20' }}
      {...boxProps}
    >
      <Container maxW="6xl">
        {title && (
          <Stack gap="3" textAlign="center" maxW="3xl" mx="auto" mb={{ base: '8', md: '12' }}>
            {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
            <Heading
              as="h2"
              id={headingId}
              size={{ base: '2xl', md: '4xl' }}
              letterSpacing="-0.02em"
            >
              {title}
            </Heading>
            {intro && (
              <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
                {intro}
              </Text>
            )}
          </Stack>
        )}
        {children}
      </Container>
    </Box>
  );
}
