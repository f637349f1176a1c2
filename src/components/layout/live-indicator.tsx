// The realtime connection, shown discreetly: a green dot and 'Live' while changes stream in.
import { Box, HStack, Text } from '@chakra-ui/react';
import type { LiveStatus } from '../../lib/live-sync';

export const LIVE_STATUS_TEXT: Record<LiveStatus, string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
};

const DOT_COLOR: Record<LiveStatus, string> = {
  live: 'green.500',
  connecting: 'gray.400',
  reconnecting: 'orange.400',
};

export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <HStack
      role="status"
      gap="2"
      fontSize="xs"
      color="fg.muted"
      title={
        status === 'live'
          ? 'New forms and messages appear as they arrive.'
          : 'Waiting for the live connection; changes will appear once it is back.'
      }
    >
      <Box
        aria-hidden
        boxSize="2"
        rounded="full"
        bg={DOT_COLOR[status]}
        animation={status === 'live' ? undefined : 'pulse'}
        _motionReduce={{ animation: 'none' }}
      />
      <Text>{LIVE_STATUS_TEXT[status]}</Text>
    </HStack>
  );
}
