// One titled card on the settings page, labelled by its heading for assistive technology.
import { useId, type ReactNode } from 'react';
import { Card, Heading, Text } from '@chakra-ui/react';

export function SettingsSection({
  id,
  title,
  description,
  danger = false,
  children,
}: {
  /** The section's anchor (`/settings#plan`). */
  id?: string;
  title: string;
  description: ReactNode;
  danger?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card.Root
      as="section"
      id={id}
      aria-labelledby={headingId}
      variant="outline"
      borderColor={danger ? 'red.muted' : undefined}
    >
      <Card.Header gap="1">
        <Heading as="h2" size="lg" id={headingId} color={danger ? 'red.fg' : undefined}>
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {description}
        </Text>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/** The red line under a form that carries the server's answer. */
export function InlineError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Text role="alert" color="red.600" fontSize="sm">
      {message}
    </Text>
  );
}

/** The server's own message, or a fallback when the failure carries none. */
export function errorMessage(caught: unknown, fallback: string): string {
  return caught instanceof Error && caught.message ? caught.message : fallback;
}
