// A list's subscribers: search by e-mail or name, a filter by status, removal (asked first) and
// the CSV export of what is shown. Realtime keeps the rows current (live-bindings.ts); long lists
// show a page of rows at a time.
import { useDeferredValue, useId, useMemo, useState } from 'react';
import {
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
import { DownloadIcon, UsersIcon } from 'lucide-react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { HorizontalScroll } from '../../../components/horizontal-scroll';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { useRemoveSubscriber } from '../api/remove-subscriber';
import { describeListError } from '../newsletter-errors';
import { SUBSCRIBER_STATUSES, type Subscriber, type SubscriberStatus } from '../newsletter-types';
import { downloadText } from '../../../lib/download';
import { subscribersToCsv } from '../subscribers-export';
import { SubscriberStatusBadge, SUBSCRIBER_STATUS_TEXT } from './subscriber-status';

const PAGE = 100;
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Whether a subscriber matches the search text (e-mail or name, any case). */
function matchesSearch(subscriber: Subscriber, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return true;
  return (
    subscriber.email.toLocaleLowerCase().includes(needle) ||
    (subscriber.name ?? '').toLocaleLowerCase().includes(needle)
  );
}

export function SubscribersTable({
  listName,
  subscribers,
}: {
  listName: string;
  subscribers: readonly Subscriber[];
}) {
  const searchId = useId();
  const statusId = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<SubscriberStatus | ''>('');
  const [shown, setShown] = useState(PAGE);
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const remove = useRemoveSubscriber();
  const deferredSearch = useDeferredValue(search);

  const rows = useMemo(
    () =>
      subscribers.filter(
        (row) => (!status || row.status === status) && matchesSearch(row, deferredSearch),
      ),
    [subscribers, status, deferredSearch],
  );

  function exportCsv() {
    const stamp = new Date().toISOString().slice(0, 10);
    const slug =
      listName
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'list';
    downloadText(
      subscribersToCsv(rows),
      `${slug}-subscribers-${stamp}.csv`,
      'text/csv;charset=utf-8',
    );
    notify(
      'success',
      'Export ready',
      rows.length === 1 ? '1 subscriber exported.' : `${rows.length} subscribers exported.`,
    );
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

  if (subscribers.length === 0)
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
              setShown(PAGE);
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
                setShown(PAGE);
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
        <Button size="sm" variant="outline" onClick={exportCsv} disabled={rows.length === 0}>
          <DownloadIcon aria-hidden /> Export CSV
        </Button>
      </Flex>
      <Text fontSize="sm" color="fg.muted" role="status">
        {rows.length === subscribers.length
          ? `${subscribers.length} ${subscribers.length === 1 ? 'subscriber' : 'subscribers'}`
          : `${rows.length} of ${subscribers.length} subscribers match`}
      </Text>
      {rows.length === 0 ? (
        <Text color="fg.muted">No subscribers match. Change the search or the status.</Text>
      ) : (
        <HorizontalScroll label="Subscribers table" borderWidth="1px" borderRadius="lg">
          <Table.Root size="sm" aria-label="Subscribers">
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
              {rows.slice(0, shown).map((row) => (
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
      {rows.length > shown && (
        <Button
          variant="outline"
          size="sm"
          alignSelf="center"
          onClick={() => setShown(shown + PAGE)}
        >
          Show more
        </Button>
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
