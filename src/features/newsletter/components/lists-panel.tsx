// The Lists tab: pick one of the owner's lists (the choice is in the address, `?list=`), see it
// below, or create one.
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Box,
  Button,
  EmptyState,
  Field,
  Flex,
  NativeSelect,
  Skeleton,
  Stack,
  VStack,
} from '@chakra-ui/react';
import { MailIcon, PlusIcon } from 'lucide-react';
import { SettingLoadError } from '../../../components/setting-states';
import { visibleText } from '../../../lib/visible-text';
import { useLists } from '../api/get-lists';
import type { NewsletterList } from '../newsletter-types';
import { ListDetails } from './list-details';
import { ListDialog } from './list-dialog';

export function ListsPanel() {
  const selectId = useId();
  const lists = useLists();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);

  const choose = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('list', id);
        else next.delete('list');
        return next;
      },
      { replace: true },
    );

  const newButton = (
    <Button colorPalette="teal" size="sm" onClick={() => setCreating(true)}>
      <PlusIcon aria-hidden /> New list
    </Button>
  );
  const dialog = (
    <ListDialog
      open={creating}
      onClose={() => setCreating(false)}
      onSaved={(list: NewsletterList) => {
        setCreating(false);
        choose(list.id);
      }}
    />
  );

  if (lists.isPending)
    return (
      <Box role="status" aria-label="Loading your lists">
        <Skeleton height="40" borderRadius="xl" />
      </Box>
    );
  if (lists.isError)
    return (
      <SettingLoadError
        title="Your lists could not be loaded."
        onRetry={() => void lists.refetch()}
      />
    );
  if (lists.data.length === 0)
    return (
      <>
        <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="xl">
          <EmptyState.Content>
            <EmptyState.Indicator aria-hidden="true">
              <MailIcon />
            </EmptyState.Indicator>
            <VStack textAlign="center">
              <EmptyState.Title>No lists yet</EmptyState.Title>
              <EmptyState.Description>
                A list collects subscribers through a signup form on your site, and your campaigns
                go to it.
              </EmptyState.Description>
            </VStack>
            {newButton}
          </EmptyState.Content>
        </EmptyState.Root>
        {dialog}
      </>
    );

  const chosen = lists.data.find((list) => list.id === params.get('list')) ?? lists.data[0];
  return (
    <Stack gap="5">
      <Flex gap="3" align="flex-end" wrap="wrap">
        <Field.Root flex="0 1 20rem">
          <Field.Label htmlFor={selectId}>List</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              id={selectId}
              value={chosen.id}
              onChange={(event) => choose(event.target.value)}
            >
              {lists.data.map((list) => (
                <option key={list.id} value={list.id}>
                  {visibleText(list.name)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {newButton}
      </Flex>
      <ListDetails key={chosen.id} list={chosen} onDeleted={() => choose(null)} />
      {dialog}
    </Stack>
  );
}
