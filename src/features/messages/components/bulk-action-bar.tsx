// Actions on the selected messages: mark read, spam or not spam, delete.
import { Button, Flex, HStack, Text } from '@chakra-ui/react';
import {
  InboxIcon,
  MailOpenIcon,
  ShieldExclamationPointIcon,
  TrashIcon,
  XIcon,
} from 'lucide-react';
import { HEADER_HEIGHT } from '../../../components/layout/header';
import type { MessageAction } from '../api/update-messages';
import type { MessageView } from '../types';

export interface BulkActionBarProps {
  count: number;
  view: MessageView;
  onAction: (action: MessageAction) => void;
  onDelete: () => void;
  onClear: () => void;
}

export function BulkActionBar({ count, view, onAction, onDelete, onClear }: BulkActionBarProps) {
  return (
    <Flex
      role="region"
      aria-label="Bulk actions"
      position="sticky"
      // Stays in sight below the fixed site header while the list scrolls.
      top={`calc(${HEADER_HEIGHT} + 0.5rem)`}
      zIndex="sticky"
      gap="2"
      align="center"
      justify="space-between"
      wrap="wrap"
      borderWidth="1px"
      borderColor="teal.emphasized"
      borderRadius="lg"
      bg="teal.subtle"
      px="3"
      py="2"
      shadow="sm"
    >
      <Text fontWeight="semibold" textStyle="sm" aria-live="polite">
        {count} selected
      </Text>
      <HStack gap="1" wrap="wrap">
        <Button size="sm" variant="ghost" onClick={() => onAction('read')}>
          <MailOpenIcon aria-hidden="true" /> Mark read
        </Button>
        {view === 'spam' ? (
          <Button size="sm" variant="ghost" onClick={() => onAction('not-spam')}>
            <InboxIcon aria-hidden="true" /> Not spam
          </Button>
        ) : (
          <Button size="sm" variant="ghost" onClick={() => onAction('spam')}>
            <ShieldExclamationPointIcon aria-hidden="true" /> Mark as spam
          </Button>
        )}
        <Button size="sm" variant="ghost" colorPalette="red" onClick={onDelete}>
          <TrashIcon aria-hidden="true" /> Delete
        </Button>
        <Button size="sm" variant="ghost" onClick={onClear}>
          <XIcon aria-hidden="true" /> Clear selection
        </Button>
      </HStack>
    </Flex>
  );
}
