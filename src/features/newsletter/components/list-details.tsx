// One list: its settings (edit, delete with a question first), its subscribers counted by status
// (counted by the server: the table holds one page), and in tabs the subscribers table, the signup
// form's code and the CSV import.
import { useId, useState } from 'react';
import { Box, Button, DataList, Flex, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { PencilIcon, Trash2Icon } from 'lucide-react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { useDeleteList } from '../api/delete-list';
import { useSubscriberCounts } from '../api/get-subscriber-counts';
import { describeListError } from '../newsletter-errors';
import { SUBSCRIBER_STATUSES, type NewsletterList } from '../newsletter-types';
import { ImportSubscribers } from './import-subscribers';
import { ListDialog } from './list-dialog';
import { SignupCode } from './signup-code';
import { SUBSCRIBER_STATUS_TEXT } from './subscriber-status';
import { SubscribersTable } from './subscribers-table';

const countFormat = new Intl.NumberFormat('en-US');

export function ListDetails({ list, onDeleted }: { list: NewsletterList; onDeleted: () => void }) {
  const headingId = useId();
  const counts = useSubscriberCounts(list.id);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = useDeleteList();
  const name = visibleText(list.name);

  async function confirmDelete() {
    setDeleteError(null);
    try {
      await remove.mutateAsync(list.id);
      notify('success', 'List deleted', `${name}, its subscribers and its campaigns are gone.`);
      setDeleting(false);
      onDeleted();
    } catch (error) {
      setDeleteError(describeListError(error, 'delete the list'));
    }
  }

  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '4', md: '5' }}
      minW="0"
    >
      <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap" mb="4">
        <Stack gap="1" minW="0">
          <Heading as="h2" size="lg" id={headingId} overflowWrap="anywhere">
            {name}
          </Heading>
          <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
            Signup form on {list.allowed_origin}
            {list.from_name ? ` · from ${visibleText(list.from_name)}` : ''}
            {list.reply_to ? ` · replies to ${list.reply_to}` : ''}
          </Text>
        </Stack>
        <Flex gap="2">
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            <PencilIcon aria-hidden /> Edit list
          </Button>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            onClick={() => {
              setDeleteError(null);
              setDeleting(true);
            }}
          >
            <Trash2Icon aria-hidden /> Delete list
          </Button>
        </Flex>
      </Flex>
      <DataList.Root
        orientation="vertical"
        mb="5"
        role="group"
        aria-label="Subscribers by status"
        display="grid"
        gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }}
        gap="3"
      >
        {SUBSCRIBER_STATUSES.map((status) => (
          <DataList.Item key={status} borderWidth="1px" borderRadius="lg" p="3">
            <DataList.ItemLabel>{SUBSCRIBER_STATUS_TEXT[status]}</DataList.ItemLabel>
            <DataList.ItemValue fontSize="xl" fontWeight="semibold">
              {counts.data ? countFormat.format(counts.data[status]) : counts.isError ? '—' : '…'}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      <Tabs.Root defaultValue="subscribers" variant="line" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="subscribers">Subscribers</Tabs.Trigger>
          <Tabs.Trigger value="signup">Signup form</Tabs.Trigger>
          <Tabs.Trigger value="import">Import</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="subscribers" pt="4">
          <SubscribersTable key={list.id} listId={list.id} listName={list.name} />
        </Tabs.Content>
        <Tabs.Content value="signup" pt="4">
          <SignupCode list={list} />
        </Tabs.Content>
        <Tabs.Content value="import" pt="4">
          <ImportSubscribers listId={list.id} listName={list.name} />
        </Tabs.Content>
      </Tabs.Root>
      <ListDialog
        open={editing}
        list={list}
        onClose={() => setEditing(false)}
        onSaved={() => setEditing(false)}
      />
      <ConfirmDialog
        open={deleting}
        title={`Delete ${name}?`}
        description="Its subscribers and campaigns are deleted with it, and its signup form stops working. This cannot be undone."
        confirmLabel="Delete list"
        pending={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(false)}
      />
    </Box>
  );
}
