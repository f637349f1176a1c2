// Layout of a legal text: h1, effective date, a table of contents and numbered h2 sections.
import type { ReactNode } from 'react';
import { Box, Container, Heading, Link, List, Stack, Text } from '@chakra-ui/react';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export function LegalDocument({
  title,
  effective,
  intro,
  sections,
}: {
  title: string;
  effective: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <Container maxW="3xl" py={{ base: '10', md: '16' }}>
      <Stack gap="3" mb="8">
        <Heading as="h1" size={{ base: '3xl', md: '4xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        <Text color="fg.muted">Effective date: {effective}</Text>
      </Stack>
      <Box fontSize="lg" lineHeight="1.8" css={{ '& p + p': { mt: '4' } }}>
        {intro}
      </Box>
      <Box
        as="nav"
        aria-label="Contents"
        my="8"
        p="5"
        bg="bg.subtle"
        rounded="lg"
        borderWidth="1px"
      >
        <Text fontWeight="semibold" mb="2">
          Contents
        </Text>
        <List.Root as="ol" ps="5" gap="1">
          {sections.map((section) => (
            <List.Item key={section.id}>
              <Link href={`#${section.id}`} color="teal.700">
                {section.title}
              </Link>
            </List.Item>
          ))}
        </List.Root>
      </Box>
      <Stack gap="10">
        {sections.map((section, index) => (
          <Box
            as="section"
            key={section.id}
            id={section.id}
            aria-labelledby={`${section.id}-title`}
            scrollMarginTop="80px"
          >
            <Heading as="h2" id={`${section.id}-title`} size="xl" mb="3">
              {index + 1}. {section.title}
            </Heading>
            <Box
              color="fg"
              lineHeight="1.8"
              css={{
                '& p + p': { mt: '3' },
                '& ul': { ps: '6', listStyle: 'disc', mt: '3' },
                '& li': { mt: '1' },
              }}
            >
              {section.body}
            </Box>
          </Box>
        ))}
      </Stack>
    </Container>
  );
}
