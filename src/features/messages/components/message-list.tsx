// The list part of the inbox: a skeleton while the first page loads, an error with a retry, an
// empty state that says why it is empty, or the cards with "Load more" (also triggered by
// scrolling near the end, where the browser supports it).
import { useEffect, useRef, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  EmptyState,
  Flex,
  Skeleton,
  SkeletonText,
  Stack,
  VStack,
} from '@chakra-ui/react';
import { InboxIcon, PaperclipIcon, SearchXIcon, ShieldCheckIcon } from 'lucide-react';
import type { MessageFilter } from '../types';

const EMPTY_INBOX = 'No messages received yet.';
const EMPTY_SEARCH = 'No messages match your search.';
const EMPTY_SPAM = 'No spam here.';
const EMPTY_FILES = 'No messages with files.';

export function MessageListSkeleton() {
  return (
    <Box role="status" aria-label="Loading messages">
      <Stack gap="3" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <Stack key={i} borderWidth="1px" borderRadius="lg" p="4" gap="3">
            <Flex justify="space-between" gap="4">
              <Skeleton h="5" w="35%" />
              <Skeleton h="4" w="25%" />
            </Flex>
            <SkeletonText noOfLines={3} />
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}

export function MessageListError({
  onRetry,
  retrying,
}: {
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <Alert.Root status="error" alignItems="center" flexWrap="wrap" gap="3">
      <Alert.Indicator />
      <Alert.Content flex="1" minW="12rem">
        <Alert.Title>Your messages could not be loaded.</Alert.Title>
        <Alert.Description>Check your connection and try again.</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry} loading={retrying}>
        Try again
      </Button>
    </Alert.Root>
  );
}

export function MessageListEmpty({
  filter,
  onClearSearch,
  onShowAll,
}: {
  filter: MessageFilter;
  onClearSearch: () => void;
  /** Turns "has files" off. */
  onShowAll: () => void;
}) {
  const searching = filter.q.trim() !== '';
  const onlyFiles = !searching && filter.files;
  const [icon, title, description]: [ReactNode, string, string] = searching
    ? [<SearchXIcon key="i" />, EMPTY_SEARCH, 'Try other words, or clear the search.']
    : onlyFiles
      ? [
          <PaperclipIcon key="i" />,
          EMPTY_FILES,
          'Messages that visitors sent files with show up here.',
        ]
      : filter.view === 'spam'
        ? [
            <ShieldCheckIcon key="i" />,
            EMPTY_SPAM,
            'Messages caught by the spam filter, or that you mark as spam, show up here.',
          ]
        : [
            <InboxIcon key="i" />,
            EMPTY_INBOX,
            filter.formId
              ? 'Messages sent through this form appear here as they arrive.'
              : 'Messages sent through your forms appear here as they arrive.',
          ];
  return (
    <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="xl">
      <EmptyState.Content>
        <EmptyState.Indicator aria-hidden="true">{icon}</EmptyState.Indicator>
        <VStack textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          <EmptyState.Description>{description}</EmptyState.Description>
        </VStack>
        {searching && (
          <Button variant="outline" size="sm" onClick={onClearSearch}>
            Clear search
          </Button>
        )}
        {onlyFiles && (
          <Button variant="outline" size="sm" onClick={onShowAll}>
            Show all messages
          </Button>
        )}
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

/** "Load more", pressed automatically when it scrolls into view. */
export function LoadMore({ onLoad, loading }: { onLoad: () => void; loading: boolean }) {
  const ref = useRef<HTMLButtonElement>(null);
  const onLoadRef = useRef(onLoad);
  useEffect(() => {
    onLoadRef.current = onLoad;
  });
  useEffect(() => {
    const button = ref.current;
    if (!button || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadRef.current();
      },
      { rootMargin: '200px' },
    );
    observer.observe(button);
    return () => observer.disconnect();
  }, []);
  return (
    <Flex justify="center" pt="2">
      <Button ref={ref} variant="outline" onClick={onLoad} loading={loading} loadingText="Loading…">
        Load more
      </Button>
    </Flex>
  );
}
