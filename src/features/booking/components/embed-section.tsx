// Where visitors book: the form's public link, and the iframe code that shows its booking page
// inside another site. Both copy with one click.
import { useId } from 'react';
import { Box, Code, Flex, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { ExternalLinkIcon } from 'lucide-react';
import { CopyButton } from '../../../components/copy-button';
import { bookingIframe, publicBookingUrl } from '../embed-code';

export function EmbedSection({ slug, name }: { slug: string; name: string }) {
  const headingId = useId();
  const origin = window.location.origin;
  const url = publicBookingUrl(origin, slug);
  const iframe = bookingIframe(origin, slug, name);

  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '4', md: '5' }}
      minW="0"
    >
      <Heading as="h2" size="lg" id={headingId} mb="3">
        Share and embed
      </Heading>
      <Stack gap="4">
        <Stack gap="1">
          <Text fontWeight="medium">Public link</Text>
          <Flex gap="2" align="center" wrap="wrap">
            <Link
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              color="teal.700"
              overflowWrap="anywhere"
            >
              {url} <ExternalLinkIcon aria-hidden size="14" />
            </Link>
            <CopyButton text={url} label="Copy link" />
          </Flex>
        </Stack>
        <Stack gap="1">
          <Text fontWeight="medium">Embed on your site</Text>
          <Text fontSize="sm" color="fg.muted">
            Paste this where the booking calendar should appear.
          </Text>
          <Code
            display="block"
            whiteSpace="pre-wrap"
            overflowWrap="anywhere"
            p="3"
            borderRadius="md"
            fontSize="xs"
            aria-label="Embed code"
          >
            {iframe}
          </Code>
          <Box>
            <CopyButton text={iframe} label="Copy embed code" />
          </Box>
        </Stack>
      </Stack>
    </Box>
  );
}
