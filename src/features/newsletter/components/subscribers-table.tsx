// A list's subscribers, one page at a time from the server: search by e-mail or name, a filter by
// status, Previous and Next, removal (asked first) and the CSV export of every row that matches
// (not only the page shown). Realtime keeps the pages current (newsletter-cache.ts).
import { useEffect, useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  EmptyState,
  Field,
  Flex,
  Input,
  NativeSelect,
  Stack,
  Table,
  Text,
  VStack,
} from '@chakra-ui/react';
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, UsersIcon } from 'lucide-react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { HorizontalScroll } from '../../../components/horizontal-scroll';
import { SettingLoadError, SettingLoading } from '../../../components/setting-states';
import { notify } from '../../../components/toaster';
import { downloadText } from '../../../lib/download';
import { visibleText } from '../../../lib/visible-text';
import { useAllSubscribers } from '../api/get-all-subscribers';
import { useSubscriberPage } from '../api/get-subscribers';
import { useRemoveSubscriber } from '../api/remove-subscriber';
import { describeListError } from '../newsletter-errors';
import { SUBSCRIBER_STATUSES, type Subscriber, type SubscriberStatus } from '../newsletter-types';
import { lastPage, showingText, SUBSCRIBERS_PAGE_SIZE } from '../subscriber-query';
import { subscribersFileName, subscribersToCsv } from '../subscribers-export';
import { SubscriberStatusBadge, SUBSCRIBER_STATUS_TEXT } from './subscriber-status';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** How long typing pauses before the search is asked of the server. */
const SEARCH_DELAY_MS = 300;

/** The value once it has stayed the same for `delay` ms (an empty one at once). */
function useSettledValue(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), value.trim() ? delay : 0);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

function NoSubscribersYet() {
  return (
    <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="xl">
      <EmptyState.Content>
        <EmptyState.Indicator aria-hidden="true">
          <UsersIcon />
        </EmptyState.Indicator>
        <VStack textAlign="center">
          <EmptyState.Title>No subscribers yet</EmptyState.Title>
          <EmptyState.Description>
            Put the signup form on your site, or import the people who agreed to hear from you.
          </EmptyState.Description>
        </VStack>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

export function SubscribersTable({ listId, listName }: { listId: string; listName: string }) {
  const searchId = useId();
  const statusId = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<SubscriberStatus | ''>('');
  // The page belongs to the search and filter it was chosen under: a new one starts at the first.
  const [paging, setPaging] = useState({ page: 0, search: '', status: '' });
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const remove = useRemoveSubscriber();
  const exporting = useAllSubscribers();
  const settledSearch = useSettledValue(search, SEARCH_DELAY_MS).trim();
  const page = paging.search === settledSearch && paging.status === status ? paging.page : 0;
  const setPage = (next: number) => setPaging({ page: next, search: settledSearch, status });
  const query = { search: settledSearch, status, page };
  const result = useSubscriberPage(listId, query);
  const data = result.data;
  const filtered = settledSearch !== '' || status !== '';
  const total = data?.total ?? 0;

  // A page emptied under the reader (removals, a smaller total): go to the last page with rows.
  if (data && !result.isPlaceholderData && data.rows.length === 0 && lastPage(data.total) < page)
    setPage(lastPage(data.total));

  async function exportCsv() {
    try {
      const rows = await exporting.mutateAsync({ listId, search: settledSearch, status });
      downloadText(subscribersToCsv(rows), subscribersFileName(listName), 'text/csv;charset=utf-8');
      notify(
        'success',
        'Export ready',
        rows.length === 1 ? '1 subscriber exported.' : `${rows.length} subscribers exported.`,
      );
    } catch (error) {
      notify('error', 'Export failed', describeListError(error, 'export the subscribers'));
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    setRemoveError(null);
    try {
      await remove.mutateAsync(removing);
      notify('success', 'Subscriber removed', `${visibleText(removing.email)} is off the list.`);
      setRemoving(null);
    } catch (error) {
      setRemoveError(describeListError(error, 'remove the subscriber'));
    }
  }

  if (result.isPending) return <SettingLoading>Loading subscribers…</SettingLoading>;
  if (result.isError && !data)
    return (
      <SettingLoadError
        title="The subscribers could not be loaded."
        onRetry={() => void result.refetch()}
      />
    );
  if (!filtered && page === 0 && total === 0 && !result.isPlaceholderData)
    return <NoSubscribersYet />;

  const rows = data?.rows ?? [];
  const hasPrevious = page > 0;
  const hasNext = (page + 1) * SUBSCRIBERS_PAGE_SIZE < total;
  const busy = result.isFetching && result.isPlaceholderData;

  return (
    <Stack gap="3">
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root flex="1 1 14rem">
          <Field.Label htmlFor={searchId}>Search subscribers</Field.Label>
          <Input
            id={searchId}
            type="search"
            size="sm"
            placeholder="E-mail or name"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
            }}
          />
        </Field.Root>
        <Field.Root flex="0 1 12rem">
          <Field.Label htmlFor={statusId}>Status</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              id={statusId}
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as SubscriberStatus | '');
              }}
            >
              <option value="">All</option>
              {SUBSCRIBER_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {SUBSCRIBER_STATUS_TEXT[value]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Button
          size="sm"
          variant="outline"
          onClick={() => void exportCsv()}
          disabled={total === 0}
          loading={exporting.isPending}
          loadingText="Exporting…"
        >
          <DownloadIcon aria-hidden /> {filtered ? 'Export matching' : 'Export CSV'}
        </Button>
      </Flex>
      {/* The count is the one line that changes with each page, search or filter: announced. */}
      <Text fontSize="sm" color="fg.muted" role="status" aria-live="polite">
        {busy ? 'Loading subscribers…' : showingText(page, rows.length, total, filtered)}
      </Text>
      {result.isError && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              These subscribers could not be loaded. The page shows the last ones.
            </Alert.Title>
          </Alert.Content>
          <Button size="xs" variant="outline" onClick={() => void result.refetch()}>
            Try again
          </Button>
        </Alert.Root>
      )}
      {rows.length === 0 ? (
        <Text color="fg.muted">No subscribers match. Change the search or the status.</Text>
      ) : (
        <HorizontalScroll label="Subscribers table" borderWidth="1px" borderRadius="lg">
          <Table.Root
            size="sm"
            aria-label="Subscribers"
            aria-busy={busy}
            opacity={busy ? 0.6 : 1}
            transition="opacity 0.15s"
          >
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader scope="col">E-mail</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Name</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Status</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Source</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Added</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">
                  <Box as="span" srOnly>
                    Actions
                  </Box>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((row) => (
                <Table.Row key={row.id}>
                  <Table.Cell overflowWrap="anywhere">{visibleText(row.email)}</Table.Cell>
                  <Table.Cell>{row.name ? visibleText(row.name) : '—'}</Table.Cell>
                  <Table.Cell>
                    <SubscriberStatusBadge status={row.status} />
                  </Table.Cell>
                  <Table.Cell>{row.source === 'import' ? 'Import' : 'Signup form'}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    <time dateTime={row.created_at}>
                      {dateFormat.format(new Date(row.created_at))}
                    </time>
                  </Table.Cell>
                  <Table.Cell textAlign="end">
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Remove ${visibleText(row.email)}`}
                      onClick={() => {
                        setRemoveError(null);
                        setRemoving(row);
                      }}
                    >
                      Remove
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </HorizontalScroll>
      )}
      {(hasPrevious || hasNext) && (
        <Flex as="nav" aria-label="Subscriber pages" justify="space-between" gap="3">
          <Button
            size="sm"
            variant="outline"
            disabled={!hasPrevious}
            onClick={() => setPage(page - 1)}
          >
            <ChevronLeftIcon aria-hidden /> Previous
          </Button>
          <Button size="sm" variant="outline" disabled={!hasNext} onClick={() => setPage(page + 1)}>
            Next <ChevronRightIcon aria-hidden />
          </Button>
        </Flex>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing ? visibleText(removing.email) : ''}?`}
        description="They get no more campaigns from this list. To be added again, they sign up again (or you import them)."
        confirmLabel="Remove subscriber"
        pending={remove.isPending}
        error={removeError}
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
