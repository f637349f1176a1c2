// "Visitors now": distinct visitors in the last five minutes, kept live by use-live-visitors.ts.
// A polite live region, so a screen reader hears the new figure without losing its place.
import { HStack, Text } from '@chakra-ui/react';
import type { StatsSource } from '../api/get-stats';
import { useVisitorsNow } from '../api/get-visitors-now';

export function VisitorsNow({ source }: { source: StatsSource }) {
  const now = useVisitorsNow(source);
  const count = now.data;
  return (
    <HStack gap="2" role="status" aria-live="polite" aria-atomic="true" data-testid="visitors-now">
      <Text as="span" aria-hidden="true" w="2" h="2" borderRadius="full" bg="green.500" />
      <Text as="span" fontSize="sm">
        {count === undefined
          ? now.isError
            ? 'Visitors now: unknown'
            : 'Visitors now: …'
          : `${count.toLocaleString('en-US')} ${count === 1 ? 'visitor' : 'visitors'} now`}
      </Text>
    </HStack>
  );
}
