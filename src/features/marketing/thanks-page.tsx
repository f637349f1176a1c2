// The page a plain HTML form post lands on after a successful submission without its own redirect
// (the form endpoint's 303 to `${SITE_URL}/thanks`, no parameters). Its readers are the visitors
// of our customers' sites, so it offers only the confirmation and the way back to that site:
// the origin of the page the form was on (the browser's referrer, http(s) only), else the
// browser's history.
import { Box, Button, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { ArrowLeftIcon, CircleCheckIcon } from 'lucide-react';
import { PageMeta } from '../../components/page-meta';

/** The site the visitor came from (the page with the form), if the browser told us. */
export function referrerOrigin(referrer: string): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

function BackToSite() {
  const origin = referrerOrigin(document.referrer);
  // Our own origin is no way back: it would lead into tinyback instead of the visitor's site.
  if (origin !== null && origin !== window.location.origin) {
    return (
      <Button asChild colorPalette="teal" size="lg">
        <a href={origin}>
          <ArrowLeftIcon aria-hidden /> Back to {new URL(origin).host}
        </a>
      </Button>
    );
  }
  // No referrer (a strict referrer policy): the form page is one step back in the history.
  if (window.history.length > 1) {
    return (
      <Button colorPalette="teal" size="lg" onClick={() => window.history.back()}>
        <ArrowLeftIcon aria-hidden /> Go back
      </Button>
    );
  }
  return <Text color="fg.muted">You can close this page now.</Text>;
}

export function ThanksPage() {
  return (
    <Box px="4" py={{ base: '12', md: '20' }}>
      <PageMeta title="Thanks" description="Your message has been sent." noindex />
      <Stack
        align="center"
        textAlign="center"
        gap="5"
        maxW="lg"
        mx="auto"
        bg="bg"
        borderWidth="1px"
        rounded="2xl"
        shadow="sm"
        px={{ base: '6', md: '10' }}
        py={{ base: '10', md: '12' }}
      >
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg="green.50"
          color="green.700"
          align="center"
          justify="center"
        >
          <Icon as={CircleCheckIcon} boxSize="8" aria-hidden />
        </Flex>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          Thanks! Your message has been sent.
        </Heading>
        <Text color="fg.muted">
          The site owner has received it and will get back to you if a reply is needed.
        </Text>
        <BackToSite />
      </Stack>
    </Box>
  );
}
