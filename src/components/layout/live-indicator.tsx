// The connection to the server, shown discreetly and truthfully: a green dot and 'Live' only
// while changes stream in; 'Reconnecting…' while the live channel is down and being retried;
// 'Offline' while the browser is offline or the server cannot be reached. A status region, so a
// screen reader hears each change.
import { Box, HStack, Text } from '@chakra-ui/react';
import type { LiveStatus } from '../../lib/live-sync';

const LIVE_STATUS_TEXT: Record<LiveStatus, string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
};

const LIVE_STATUS_HINT: Record<LiveStatus, string> = {
  live: 'New forms and messages appear as they arrive.',
  connecting: 'Opening the live connection; new forms and messages will appear as they arrive.',
  reconnecting:
    'The live connection dropped and is being retried; changes made meanwhile appear once it is back.',
  offline:
    'The server cannot be reached: what you do now may fail. The page catches up by itself once the connection is back.',
};

const DOT_COLOR: Record<LiveStatus, string> = {
  live: 'green.500',
  connecting: 'gray.400',
  reconnecting: 'orange.400',
  offline: 'red.500',
};

export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <HStack
      role="status"
      gap="2"
      fontSize="xs"
      color={status === 'offline' ? 'red.fg' : 'fg.muted'}
      fontWeight={status === 'offline' ? 'semibold' : undefined}
      title={LIVE_STATUS_HINT[status]}
      data-live-status={status}
    >
      <Box
        aria-hidden
        boxSize="2"
        rounded="full"
        bg={DOT_COLOR[status]}
        animation={status === 'live' || status === 'offline' ? undefined : 'pulse'}
        _motionReduce={{ animation: 'none' }}
      />
      <Text>{LIVE_STATUS_TEXT[status]}</Text>
    </HStack>
  );
}
