// The Newsletter tool's figure: how many confirmed subscribers the owner's lists have. Nothing
// while it loads or when it cannot be read: the card stays useful without it.
import { Skeleton, Text } from '@chakra-ui/react';
import { useSubscriberCount } from '../api/get-subscriber-count';

function subscriberCountText(count: number): string {
  if (count === 0) return 'No subscribers yet';
  return count === 1 ? '1 subscriber' : `${count.toLocaleString('en-US')} subscribers`;
}

export function SubscriberCount() {
  const count = useSubscriberCount();
  if (count.isPending) return <Skeleton height="5" width="32" aria-hidden />;
  if (count.isError) return null;
  return (
    <Text fontSize="sm" fontWeight="semibold" color={count.data ? 'teal.700' : 'fg.muted'}>
      {subscriberCountText(count.data)}
    </Text>
  );
}
