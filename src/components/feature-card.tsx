// A marketing card: an icon, an h3 title and one sentence. Laid out in grids on the home and
// custom web pages.
import type { LucideIcon } from 'lucide-react';
import { Card, Heading, Text } from '@chakra-ui/react';
import { IconTile } from './icon-tile';

export interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

export function FeatureCard({ icon, title, text }: Feature) {
  return (
    <Card.Root
      variant="outline"
      h="full"
      _hover={{ shadow: 'md', borderColor: 'teal.200' }}
      transition="all 0.2s"
    >
      <Card.Body gap="3">
        <IconTile icon={icon} />
        <Heading as="h3" size="md">
          {title}
        </Heading>
        <Text color="fg.muted">{text}</Text>
      </Card.Body>
    </Card.Root>
  );
}
