// The Messages tab: the owner's messages (inbox or spam, one form or all, only those with files
// or all, searched on the server), newest first and live, with read state, delivery status, bulk
// actions, a detail drawer and CSV export. Its state lives in the URL (see use-messages-params.ts).
// A message's files are shown in the drawer by the uploads feature, which the app passes in.
import { memo, useCallback, useMemo, useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  ButtonGroup,
  Checkbox,
  Flex,
  Heading,
  NativeSelect,
  Span,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import type { EntryFile } from '../../../config/uploads';
import { visibleText } from '../../../lib/visible-text';
import { useDeliveryPolling } from '../api/get-deliveries';
import { useViewCounts } from '../api/get-message-counts';
import { useMessages } from '../api/get-messages';
import { useDeleteMessages } from '../api/delete-messages';
import { useMessageAction, type MessageAction } from '../api/update-messages';
import { listRows } from '../merge-messages';
import { isDeliveryInFlight, senderName } from '../message-fields';
import type { Message, MessageView } from '../types';
import { BulkActionBar } from './bulk-action-bar';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { ExportButton } from './export-button';
import { MessageCard } from './message-card';
import { MessageDetail } from './message-detail';
import { LoadMore, MessageListEmpty, MessageListError, MessageListSkeleton } from './message-list';
import { RetentionNotice } from './retention-notice';
import { SearchBox } from './search-box';
import { useMessagesParams } from './use-messages-params';
import { useStableCallback } from './use-stable-callback';

interface FormOption {
  id: string;
  name: string;
}

export interface MessagesPanelProps {
  /** The owner's forms, for the filter and names. */
  forms: readonly FormOption[];
  /** A message's files in its drawer: the uploads feature's list, passed in by the app. */
  renderFiles?: (files: readonly EntryFile[]) => ReactNode;
}

/** Messages waiting for confirmation before they are deleted. */
interface PendingDelete {
  ids: string[];
  sender?: string;
  /** Close the open message once confirmed. */
  fromDetail?: boolean;
}

const MemoExportButton = memo(ExportButton);
const MemoSearchBox = memo(SearchBox);
const MemoRetentionNotice = memo(RetentionNotice);
const MemoMessageDetail = memo(MessageDetail);
const MemoConfirmDeleteDialog = memo(ConfirmDeleteDialog);

export const MessagesPanel = memo(function MessagesPanel({
  forms,
  renderFiles,
}: MessagesPanelProps) {
  const params = useMessagesParams();
  const { filter, messageId } = params;
  // Stable handlers: the parts of the panel below are memoized and render again only when what
  // they show changes, not on every message that arrives.
  const setForm = useStableCallback(params.setForm);
  const setView = useStableCallback(params.setView);
  const setSearch = useStableCallback(params.setSearch);
  const setFiles = useStableCallback(params.setFiles);
  const openMessage = useStableCallback(params.openMessage);
  const closeMessage = useStableCallback(params.closeMessage);
  const list = useMessages(filter);
  const counts = useViewCounts(filter.formId);
  const action = useMessageAction();
  const remove = useDeleteMessages();

  const rows = useMemo(() => listRows(list.data), [list.data]);
  const formNames = useMemo(() => new Map(forms.map((form) => [form.id, form.name])), [forms]);
  // Names as shown (bidi controls as visible tokens); the export keeps the raw ones.
  const formNameOf = useCallback(
    (message: Pick<Message, 'form' | 'form_id'>) =>
      visibleText(message.form?.name ?? formNames.get(message.form_id) ?? 'Unknown form'),
    [formNames],
  );
  const shownFormName = useCallback(
    (id: string) => {
      const name = formNames.get(id);
      return name === undefined ? undefined : visibleText(name);
    },
    [formNames],
  );

  // The selection belongs to one list; another filter starts with none.
  const filterKey = JSON.stringify(filter);
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: filterKey,
    ids: new Set(),
  });
  const selectedIds = useMemo(() => {
    if (selection.key !== filterKey) return [];
    return rows.filter((row) => selection.ids.has(row.id)).map((row) => row.id);
  }, [rows, selection, filterKey]);
  const select = useStableCallback((ids: readonly string[], selected: boolean) =>
    setSelection((current) => {
      const next = new Set(current.key === filterKey ? current.ids : []);
      for (const id of ids) {
        if (selected) next.add(id);
        else next.delete(id);
      }
      return { key: filterKey, ids: next };
    }),
  );
  const selectedSet = useMemo(() => new Set(selectedIds), [selectedIds]);
  const clearSelection = useStableCallback(() => setSelection({ key: filterKey, ids: new Set() }));

  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);

  const listed = messageId ? rows.find((row) => row.id === messageId) : undefined;

  // Deliveries still in flight are re-read every few seconds (they are not pushed live).
  const inFlight = useMemo(() => rows.filter(isDeliveryInFlight).map((row) => row.id), [rows]);
  useDeliveryPolling(inFlight);

  const run = useStableCallback(action.run);

  // One set of handlers for every card: a card that did not change is not rendered again when a
  // message arrives.
  const onCardSelect = useCallback(
    (id: string, selected: boolean) => select([id], selected),
    [select],
  );
  const onCardAction = useCallback(
    (id: string, next: MessageAction) => run({ ids: [id], action: next }),
    [run],
  );
  const onCardDelete = useCallback(
    (message: Message) => setPendingDelete({ ids: [message.id], sender: senderName(message) }),
    [],
  );

  const onDetailAction = useCallback(
    (message: Message, next: MessageAction, options?: { silent?: boolean }) =>
      run({ ids: [message.id], action: next, silent: options?.silent }),
    [run],
  );

  const confirmDelete = useStableCallback(() => {
    if (!pendingDelete) return;
    remove.mutate(pendingDelete.ids);
    if (pendingDelete.fromDetail) closeMessage();
    select(pendingDelete.ids, false);
    setPendingDelete(null);
  });
  const cancelDelete = useCallback(() => setPendingDelete(null), []);
  const onDetailDelete = useCallback(
    (message: Message) =>
      setPendingDelete({ ids: [message.id], sender: senderName(message), fromDetail: true }),
    [],
  );
  const toggleAll = useStableCallback((checked: boolean) =>
    select(
      rows.map((row) => row.id),
      checked,
    ),
  );
  const exportFormName = useCallback((id: string) => formNames.get(id), [formNames]);
  const viewCounts = useMemo(
    () => (counts.data ? { inbox: counts.data.inbox, spam: counts.data.spam } : undefined),
    [counts.data],
  );

  function bulkAction(next: MessageAction) {
    run({ ids: selectedIds, action: next });
    // Messages that leave this list (spam, not spam) leave the selection with it.
    if (next === 'spam' || next === 'not-spam') clearSelection();
  }

  const allSelected = rows.length > 0 && selectedIds.length === rows.length;
  const someSelected = selectedIds.length > 0 && !allSelected;
  const unknownForm = filter.formId !== null && !formNames.has(filter.formId);

  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" gap="4" wrap="wrap">
        <Heading as="h1" size="xl">
          Messages
        </Heading>
        <MemoExportButton filter={filter} formName={exportFormName} />
      </Flex>

      <Flex gap="3" wrap="wrap" align="center">
        <ViewSwitch view={filter.view} counts={viewCounts} onChange={setView} />
        <FormFilter
          formId={filter.formId}
          forms={forms}
          unknownForm={unknownForm}
          onChange={setForm}
        />
        <FilesFilter checked={filter.files} onChange={setFiles} />
        <MemoSearchBox value={filter.q} onSearch={setSearch} />
      </Flex>

      <MemoRetentionNotice formId={filter.formId} formName={shownFormName} />

      {/* New messages are announced; the cards themselves carry a visible "New" badge. */}
      <VisuallyHidden role="status" aria-live="polite">
        {arrivalAnnouncement(rows)}
      </VisuallyHidden>

      {list.isPending ? (
        <MessageListSkeleton />
      ) : list.isError && rows.length === 0 ? (
        <MessageListError onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : rows.length === 0 ? (
        <MessageListEmpty
          filter={filter}
          onClearSearch={() => setSearch('')}
          onShowAll={() => setFiles(false)}
        />
      ) : (
        <Stack gap="3">
          <ListHeader
            checked={allSelected ? true : someSelected ? 'indeterminate' : false}
            onToggleAll={toggleAll}
            count={rows.length}
            more={list.hasNextPage}
          />

          {selectedIds.length > 0 && (
            <BulkActionBar
              count={selectedIds.length}
              view={filter.view}
              onAction={bulkAction}
              onDelete={() => setPendingDelete({ ids: selectedIds })}
              onClear={clearSelection}
            />
          )}

          {rows.map((message) => (
            <MessageCard
              key={message.id}
              message={message}
              formName={formNameOf(message)}
              selected={selectedSet.has(message.id)}
              onSelect={onCardSelect}
              onOpen={openMessage}
              onAction={onCardAction}
              onDelete={onCardDelete}
            />
          ))}

          {list.isFetchNextPageError && (
            <Text role="alert" textStyle="sm" color="red.fg" textAlign="center">
              More messages could not be loaded. Try again.
            </Text>
          )}
          {list.hasNextPage && (
            <LoadMore
              onLoad={() => {
                if (!list.isFetchingNextPage && !list.isFetchNextPageError) {
                  void list.fetchNextPage();
                }
              }}
              loading={list.isFetchingNextPage}
            />
          )}
        </Stack>
      )}

      <MemoMessageDetail
        messageId={messageId}
        listed={listed}
        formName={formNameOf}
        renderFiles={renderFiles}
        onClose={closeMessage}
        onAction={onDetailAction}
        onDelete={onDetailDelete}
      />
      <MemoConfirmDeleteDialog
        count={pendingDelete?.ids.length ?? 0}
        sender={pendingDelete?.sender}
        onConfirm={confirmDelete}
        onCancel={cancelDelete}
      />
    </Stack>
  );
});

/** What the live region says when messages arrive while the list is open. */
function arrivalAnnouncement(rows: readonly Message[]): string {
  const arrived = rows.filter((row) => row.arrivedLive);
  if (arrived.length === 0) return '';
  const latest = senderName(arrived[0]);
  return arrived.length === 1
    ? `New message from ${latest}.`
    : `${arrived.length} new messages, the latest from ${latest}.`;
}

const FormFilter = memo(function FormFilter({
  formId,
  forms,
  unknownForm,
  onChange,
}: {
  formId: string | null;
  forms: readonly FormOption[];
  unknownForm: boolean;
  onChange: (formId: string | null) => void;
}) {
  return (
    <NativeSelect.Root size="md" width={{ base: 'full', sm: '56' }}>
      <NativeSelect.Field
        aria-label="Filter by form"
        value={formId ?? ''}
        onChange={(event) => onChange(event.currentTarget.value || null)}
      >
        <option value="">All forms</option>
        {unknownForm && <option value={formId ?? ''}>Selected form</option>}
        {forms.map((form) => (
          <option key={form.id} value={form.id}>
            {visibleText(form.name)}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
});

/** "Has files": only messages with at least one file. */
const FilesFilter = memo(function FilesFilter({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (files: boolean) => void;
}) {
  return (
    <Checkbox.Root
      checked={checked}
      onCheckedChange={(details) => onChange(details.checked === true)}
      size="sm"
    >
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>Has files</Checkbox.Label>
    </Checkbox.Root>
  );
});

const ListHeader = memo(function ListHeader({
  checked,
  onToggleAll,
  count,
  more,
}: {
  checked: boolean | 'indeterminate';
  onToggleAll: (checked: boolean) => void;
  count: number;
  more: boolean;
}) {
  return (
    <Flex justify="space-between" align="center" gap="3" wrap="wrap" minH="8">
      <Checkbox.Root
        checked={checked}
        onCheckedChange={(details) => onToggleAll(details.checked === true)}
        size="sm"
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Select all loaded messages</Checkbox.Label>
      </Checkbox.Root>
      <Text textStyle="sm" color="fg.muted">
        {count === 1 ? '1 message' : `${count} messages`}
        {more ? ' loaded' : ''}
      </Text>
    </Flex>
  );
});

const ViewSwitch = memo(function ViewSwitch({
  view,
  counts,
  onChange,
}: {
  view: MessageView;
  counts: { inbox: number; spam: number } | undefined;
  onChange: (view: MessageView) => void;
}) {
  const option = (value: MessageView, label: string) => {
    const count = counts?.[value];
    const countId = `messages-${value}-count`;
    const active = view === value;
    return (
      <Button
        aria-label={label}
        aria-pressed={active}
        aria-describedby={count === undefined ? undefined : countId}
        variant={active ? 'solid' : 'outline'}
        colorPalette={active ? 'teal' : 'gray'}
        onClick={() => onChange(value)}
      >
        {label}
        {count !== undefined && (
          <>
            <Span
              aria-hidden="true"
              textStyle="xs"
              fontWeight="semibold"
              px="1.5"
              borderRadius="full"
              bg={active ? 'whiteAlpha.300' : 'bg.muted'}
            >
              {count}
            </Span>
            <VisuallyHidden id={countId}>
              {count === 1 ? '1 message' : `${count} messages`}
            </VisuallyHidden>
          </>
        )}
      </Button>
    );
  };
  return (
    <Box>
      <ButtonGroup size="md" attached role="group" aria-label="View">
        {option('inbox', 'Inbox')}
        {option('spam', 'Spam')}
      </ButtonGroup>
    </Box>
  );
});
