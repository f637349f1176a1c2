// The rounded teal square that carries a card's icon.
import type { LucideIcon } from 'lucide-react';
import { Flex, Icon } from '@chakra-ui/react';

export function IconTile({ icon, size = '10' }: { icon: LucideIcon; size?: '10' | '11' }) {
  return (
    <Flex
      w={size}
      h={size}
      rounded="lg"
      bg="teal.50"
      color="teal.700"
      align="center"
      justify="center"
      flexShrink={0}
    >
      <Icon as={icon} boxSize="5" aria-hidden />
    </Flex>
  );
}
