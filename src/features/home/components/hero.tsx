// The home hero: the page's h1 and an e-mail box that carries the address to the register form.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Badge, Box, Button, Container, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { ArrowRightIcon } from 'lucide-react';
import { TextField } from '../../../components/text-field';
import { paths } from '../../../config/paths';
import { storeSignupEmail } from '../../../lib/signup-prefill';

export function Hero() {
  const [email, setEmail] = useState('');
  const navigate = useNavigate();

  function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // An empty box does nothing: there is nothing to carry over yet.
    if (storeSignupEmail(email)) navigate(paths.register);
  }

  return (
    <Box
      position="relative"
      overflow="hidden"
      bgGradient="to-b"
      gradientFrom="teal.50"
      gradientTo="bg"
      borderBottomWidth="1px"
    >
      <Container maxW="4xl" py={{ base: '14', md: '24' }} textAlign="center">
        <Stack gap="6" align="center">
          <Badge colorPalette="teal" variant="subtle" size="lg" rounded="full" px="3">
            Open source · EU-hosted · GDPR-friendly
          </Badge>
          <Heading
            as="h1"
            size={{ base: '4xl', md: '6xl' }}
            letterSpacing="-0.03em"
            lineHeight="1.05"
          >
            The form backend for{' '}
            <Text as="span" color="teal.600">
              any website
            </Text>
          </Heading>
          <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="2xl">
            Point your HTML form at tinyback and every submission lands in your inbox and your
            dashboard. No server to run, no code to deploy, no tracking of your visitors.
          </Text>
          <Box w="full" maxW="lg">
            <form onSubmit={start} aria-label="Get started">
              <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
                <TextField
                  label="Your email address"
                  hideLabel
                  rootProps={{ flex: '1' }}
                  type="email"
                  name="email"
                  autoComplete="email"
                  placeholder="you@company.com"
                  size="lg"
                  bg="bg"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                />
                <Button type="submit" size="lg" colorPalette="teal">
                  Get Started Free <ArrowRightIcon aria-hidden />
                </Button>
              </Stack>
              <HStack justify="center" mt="3">
                <Text fontSize="sm" color="fg.muted">
                  No credit card required.
                </Text>
              </HStack>
            </form>
          </Box>
        </Stack>
      </Container>
    </Box>
  );
}
