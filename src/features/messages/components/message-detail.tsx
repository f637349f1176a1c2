// The open message (URL `message=<id>`), in a drawer: every field the visitor sent — name, e-mail
// (a mailto link), message, and each custom field in the order sent (a field sent more than once as
// a list) — as plain text, never HTML (names, the e-mail and field names with bidirectional
// controls shown as tokens); the form and its id, the time, the e-mail's delivery; its files (the
// uploads feature's list, passed in); and the actions. Opening an unread message marks it read.
import { useEffect, useRef, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  DataList,
  Drawer,
  Flex,
  Heading,
  Link,
  Portal,
  Skeleton,
  SkeletonText,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  InboxIcon,
  MailIcon,
  ReplyIcon,
  ShieldExclamationPointIcon,
  TrashIcon,
} from 'lucide-react';
import { useReturnFocus } from '../../../components/return-focus';
import type { EntryFile } from '../../../config/uploads';
import { visibleText } from '../../../lib/visible-text';
import { useMessage } from '../api/get-message';
import type { MessageAction } from '../api/update-messages';
import { formatMessageDate } from '../format-date';
import { customFields, replyHref, senderEmail, senderName } from '../message-fields';
import type { Message } from '../types';
import { DeliveryStatus } from './delivery-status';
import { MessageSource } from './message-source';

export interface MessageDetailProps {
  /** The open message's id; the drawer is closed when null. */
  messageId: string | null;
  /** The message as a loaded list has it, if it does (no request needed then). */
  listed: Message | undefined;
  formName: (message: Message) => string;
  /** The message's files, shown by another feature (passed in by the app). */
  renderFiles?: (files: readonly EntryFile[]) => ReactNode;
  onClose: () => void;
  onAction: (message: Message, action: MessageAction, options?: { silent?: boolean }) => void;
  onDelete: (message: Message) => void;
}

export function MessageDetail({
  messageId,
  listed,
  formName,
  renderFiles,
  onClose,
  onAction,
  onDelete,
}: MessageDetailProps) {
  const fetched = useMessage(messageId, { enabled: !listed });
  const message = listed ?? fetched.data ?? undefined;

  // Mark read once per opening: "Mark as unread" in the drawer must not be undone at once.
  const markedRef = useRef<string | null>(null);
  useEffect(() => {
    if (!message || markedRef.current === message.id) return;
    markedRef.current = message.id;
    if (message.read_at === null) onAction(message, 'read', { silent: true });
  }, [message, onAction]);
  useEffect(() => {
    if (!messageId) markedRef.current = null;
  }, [messageId]);

  // Closed, the focus goes back to the card (or button) that opened it, or to the page's content
  // when that is gone (return-focus.ts).
  const finalFocusEl = useReturnFocus(messageId !== null);

  return (
    <Drawer.Root
      open={messageId !== null}
      finalFocusEl={finalFocusEl}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      size={{ base: 'full', md: 'md' }}
      placement="end"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header pe="12">
              <Drawer.Title wordBreak="break-word">
                {message ? `Message from ${senderName(message)}` : 'Message'}
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {message ? (
                <MessageFields
                  message={message}
                  formName={formName(message)}
                  files={message.files.length > 0 ? renderFiles?.(message.files) : null}
                />
              ) : fetched.isError ? (
                <Alert.Root status="error" alignItems="center" flexWrap="wrap">
                  <Alert.Indicator />
                  <Alert.Content minW="12rem">
                    <Alert.Title>This message could not be loaded.</Alert.Title>
                    <Alert.Description>Check your connection and try again.</Alert.Description>
                  </Alert.Content>
                  <Button
                    size="sm"
                    variant="outline"
                    loading={fetched.isFetching}
                    onClick={() => void fetched.refetch()}
                  >
                    Try again
                  </Button>
                </Alert.Root>
              ) : fetched.data === null ? (
                <Alert.Root status="info">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>This message no longer exists.</Alert.Title>
                    <Alert.Description>It may have been deleted.</Alert.Description>
                  </Alert.Content>
                </Alert.Root>
              ) : (
                <Stack gap="4" role="status" aria-label="Loading message">
                  <Skeleton h="5" w="60%" />
                  <SkeletonText noOfLines={6} />
                </Stack>
              )}
            </Drawer.Body>
            {message && (
              <Drawer.Footer justifyContent="flex-start" flexWrap="wrap" gap="2">
                <MessageActions
                  message={message}
                  onAction={(action) => onAction(message, action)}
                  onDelete={() => onDelete(message)}
                  onClose={onClose}
                />
              </Drawer.Footer>
            )}
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close message" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

function MessageFields({
  message,
  formName,
  files,
}: {
  message: Message;
  formName: string;
  files: ReactNode;
}) {
  const reply = replyHref(message);
  const extras = customFields(message);
  return (
    <Stack gap="6">
      <Flex gap="2" wrap="wrap">
        {message.read_at === null && <Badge colorPalette="teal">Unread</Badge>}
        {message.is_spam && <Badge colorPalette="orange">Spam</Badge>}
      </Flex>
      <DataList.Root orientation="horizontal" size="md">
        <DataList.Item>
          <DataList.ItemLabel>From</DataList.ItemLabel>
          <DataList.ItemValue wordBreak="break-word">{senderName(message)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Email</DataList.ItemLabel>
          <DataList.ItemValue wordBreak="break-all">
            {reply ? (
              <Link href={reply} colorPalette="teal" variant="underline">
                {senderEmail(message)}
              </Link>
            ) : (
              senderEmail(message)
            )}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Form</DataList.ItemLabel>
          <DataList.ItemValue>
            <Stack gap="0" minW="0">
              <Text wordBreak="break-word">{formName}</Text>
              <Text textStyle="xs" color="fg.muted">
                Form ID:{' '}
                <Text as="span" fontFamily="mono" overflowWrap="anywhere">
                  {message.form_id}
                </Text>
              </Text>
            </Stack>
          </DataList.ItemValue>
        </DataList.Item>
        {message.source_page && (
          <DataList.Item>
            <DataList.ItemLabel>Source</DataList.ItemLabel>
            <DataList.ItemValue>
              <MessageSource message={message} textStyle="sm" color="fg" />
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Received</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={message.created_at}>{formatMessageDate(message.created_at)}</time>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Notification</DataList.ItemLabel>
          <DataList.ItemValue>
            <DeliveryStatus message={message} detailed />
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>

      <Stack gap="2">
        <Heading as="h3" size="sm">
          Message
        </Heading>
        {/* Text children are escaped by React; pre-wrap keeps the visitor's line breaks. */}
        <Box
          borderWidth="1px"
          borderRadius="md"
          bg="bg.subtle"
          p="4"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          textStyle="sm"
        >
          {message.message?.trim() ? message.message : '—'}
        </Box>
      </Stack>

      <Stack gap="2">
        <Heading as="h3" size="sm">
          Other fields
        </Heading>
        {extras.length === 0 ? (
          <Text textStyle="sm" color="fg.muted">
            The visitor sent no other fields.
          </Text>
        ) : (
          <DataList.Root orientation="horizontal" size="sm">
            {extras.map(({ name, value }) => (
              <DataList.Item key={name}>
                <DataList.ItemLabel wordBreak="break-word">{visibleText(name)}</DataList.ItemLabel>
                <DataList.ItemValue whiteSpace="pre-wrap" wordBreak="break-word">
                  {Array.isArray(value) ? (
                    <Box as="ul" ps="4" listStyleType="disc" aria-label={visibleText(name)}>
                      {value.map((item, i) => (
                        <li key={i}>{item || '—'}</li>
                      ))}
                    </Box>
                  ) : (
                    value || '—'
                  )}
                </DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
        )}
      </Stack>

      {files}
    </Stack>
  );
}

function MessageActions({
  message,
  onAction,
  onDelete,
  onClose,
}: {
  message: Message;
  onAction: (action: MessageAction) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  const reply = replyHref(message);
  return (
    <>
      {reply && (
        <Button asChild size="sm" colorPalette="teal">
          <a href={reply}>
            <ReplyIcon aria-hidden="true" /> Reply by e-mail
          </a>
        </Button>
      )}
      {message.read_at !== null && (
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            onAction('unread');
            // Back to the list, where the message now shows as unread.
            onClose();
          }}
        >
          <MailIcon aria-hidden="true" /> Mark as unread
        </Button>
      )}
      {message.is_spam ? (
        <Button size="sm" variant="outline" onClick={() => onAction('not-spam')}>
          <InboxIcon aria-hidden="true" /> Not spam
        </Button>
      ) : (
        <Button size="sm" variant="outline" onClick={() => onAction('spam')}>
          <ShieldExclamationPointIcon aria-hidden="true" /> Mark as spam
        </Button>
      )}
      <Button size="sm" variant="outline" colorPalette="red" onClick={onDelete}>
        <TrashIcon aria-hidden="true" /> Delete
      </Button>
    </>
  );
}
