// The centred card that frames the login, register and password screens, with the page's h1.
import type { ReactNode } from 'react';
import { Box, Card, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { HEADER_HEIGHT } from '../../../components/layout/header';

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Box
      bgGradient="to-b"
      gradientFrom="teal.50"
      gradientTo="bg"
      py={{ base: '10', md: '16' }}
      minH={`calc(100dvh - ${HEADER_HEIGHT})`}
    >
      <Container maxW="md" px={{ base: '4', sm: '6' }}>
        <Card.Root variant="elevated" shadow="lg">
          <Card.Body gap="6" p={{ base: '6', sm: '8' }}>
            <Stack gap="2" textAlign="center">
              <Heading as="h1" size="2xl" letterSpacing="-0.02em">
                {title}
              </Heading>
              {subtitle && <Text color="fg.muted">{subtitle}</Text>}
            </Stack>
            {children}
          </Card.Body>
        </Card.Root>
        {footer && (
          <Box mt="6" textAlign="center" color="fg.muted">
            {footer}
          </Box>
        )}
      </Container>
    </Box>
  );
}

/** The red line under a form that carries the server's answer. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Text role="alert" color="red.600" fontSize="sm" textAlign="center">
      {message}
    </Text>
  );
}
