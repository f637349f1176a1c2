// The top band of a content page: an eyebrow, the page's one h1, a lead paragraph and any extra
// content (a button, a toggle, a signup form). Marketing pages centre it; reading pages (blog,
// docs) align it with the content column below.
import type { ReactNode } from 'react';
import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Eyebrow } from './eyebrow';

export interface PageHeroProps {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
  align?: 'center' | 'start';
}

const looks = {
  center: {
    gradient: { bgGradient: 'to-b', gradientFrom: 'teal.50', gradientTo: 'bg' },
    container: { maxW: '4xl', py: { base: '12', md: '20' }, textAlign: 'center' },
    stack: { align: 'center' },
    heading: { size: { base: '3xl', md: '5xl' }, lineHeight: '1.1' },
    lead: { fontSize: { base: 'md', md: 'xl' } },
  },
  start: {
    gradient: { bgGradient: 'to-br', gradientFrom: 'teal.50', gradientTo: 'blue.50' },
    container: { maxW: '6xl', py: { base: '10', md: '16' } },
    stack: { maxW: '2xl' },
    heading: { size: { base: '3xl', md: '4xl' }, lineHeight: 'shorter' },
    lead: { fontSize: { base: 'md', md: 'lg' } },
  },
} as const;

export function PageHero({ eyebrow, title, lead, children, align = 'center' }: PageHeroProps) {
  const look = looks[align];
  return (
    <Box as="section" {...look.gradient} borderBottomWidth="1px">
      <Container {...look.container}>
        <Stack gap="4" {...look.stack}>
          {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
          <Heading as="h1" letterSpacing="-0.02em" {...look.heading}>
            {title}
          </Heading>
          {lead && (
            <Text color="fg.muted" maxW="2xl" {...look.lead}>
              {lead}
            </Text>
          )}
          {children}
        </Stack>
      </Container>
    </Box>
  );
}
