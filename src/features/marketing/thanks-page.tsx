// The page a plain HTML form post lands on after a successful submission without its own redirect.
import { Link as RouterLink } from 'react-router-dom';
import { Button, Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { LuCircleCheck } from 'react-icons/lu';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';

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

export function ThanksPage() {
  useDocumentTitle('Thanks');
  const origin = referrerOrigin(document.referrer);
  const external = origin !== null && origin !== window.location.origin;
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      <Stack align="center" textAlign="center" gap="5">
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg="green.50"
          color="green.600"
          align="center"
          justify="center"
        >
          <Icon as={LuCircleCheck} boxSize="8" aria-hidden />
        </Flex>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          Thanks! Your message has been sent.
        </Heading>
        <Text color="fg.muted">
          The site owner has received it and will get back to you if a reply is needed.
        </Text>
        {external ? (
          <Button asChild colorPalette="teal">
            <a href={origin}>Back to {new URL(origin).host}</a>
          </Button>
        ) : (
          <Button asChild colorPalette="teal">
            <RouterLink to={paths.home}>Back to the home page</RouterLink>
          </Button>
        )}
      </Stack>
    </Container>
  );
}
