// The site footer: a newsletter slot (filled by the app with the signup form), links, social
// icons, the current year and 'All rights reserved'.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Container,
  Flex,
  HStack,
  IconButton,
  Link,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Wordmark } from './wordmark';
import { BrandIcon } from '../brand-icon';
import { paths } from '../../config/paths';
import { site } from '../../config/site';

const linkGroups = [
  {
    title: 'Product',
    links: [
      { label: 'Tools', to: paths.tools },
      { label: 'Pricing', to: paths.pricing },
      { label: 'Docs', to: paths.docs },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Blog', to: paths.blog },
      { label: 'Custom Web', to: paths.custom },
      { label: 'Contact', href: `mailto:${site.contactEmail}` },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Terms of Service', to: paths.terms },
      { label: 'Privacy Policy', to: paths.privacy },
    ],
  },
] as const;

const socials = [
  { label: 'tinyback on GitHub', href: site.repositoryUrl, icon: 'github' },
  { label: 'tinyback on X', href: 'https://x.com/', icon: 'x' },
  { label: 'tinyback on LinkedIn', href: 'https://www.linkedin.com/', icon: 'linkedin' },
] as const;

export function Footer({ newsletter }: { newsletter?: ReactNode }) {
  return (
    <Box as="footer" bg="gray.950" color="gray.300" mt="auto">
      <Container maxW="6xl" py={{ base: '10', md: '14' }}>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="10">
          <Stack gap="4" maxW="md">
            <Box>
              <Wordmark tone="dark" />
            </Box>
            <Text>{site.tagline} Privacy-first, EU-hosted, no tracking.</Text>
            {newsletter}
          </Stack>
          <SimpleGrid columns={{ base: 2, sm: 3 }} gap="6">
            {linkGroups.map((group) => (
              <Box as="nav" key={group.title} aria-label={group.title}>
                <Text fontWeight="semibold" color="white" mb="3">
                  {group.title}
                </Text>
                <Stack as="ul" gap="2" listStyle="none">
                  {group.links.map((link) => (
                    <li key={link.label}>
                      {'to' in link ? (
                        <Link asChild color="gray.300" _hover={{ color: 'white' }}>
                          <RouterLink to={link.to}>{link.label}</RouterLink>
                        </Link>
                      ) : (
                        <Link href={link.href} color="gray.300" _hover={{ color: 'white' }}>
                          {link.label}
                        </Link>
                      )}
                    </li>
                  ))}
                </Stack>
              </Box>
            ))}
          </SimpleGrid>
        </SimpleGrid>
        <Flex
          mt="10"
          pt="6"
          borderTopWidth="1px"
          borderColor="gray.800"
          direction={{ base: 'column', sm: 'row' }}
          gap="4"
          justify="space-between"
          align={{ base: 'flex-start', sm: 'center' }}
        >
          <Text fontSize="sm">
            © {new Date().getFullYear()} {site.name}. All rights reserved.
          </Text>
          <HStack gap="1">
            {socials.map(({ label, href, icon }) => (
              <IconButton
                key={label}
                asChild
                variant="ghost"
                size="sm"
                color="gray.300"
                _hover={{ color: 'white', bg: 'gray.800' }}
              >
                <a href={href} aria-label={label} target="_blank" rel="noreferrer noopener">
                  <BrandIcon name={icon} />
                </a>
              </IconButton>
            ))}
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
