// One message in the list, as the spec's card shows it: the form's name and id ("Form ID", wrapping
// at any point on a narrow screen), From (or 'Anonymous'), Email (or a dash), Message and the date,
// then the first custom fields in the order sent and how many more there are, the names of its
// files, plus read state, the e-mail's delivery, a selection box and the actions. The card opens the message on click or Enter.
import { Fragment, memo, useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Flex,
  HStack,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import {
  InboxIcon,
  MailIcon,
  MailOpenIcon,
  ShieldExclamationPointIcon,
  TrashIcon,
} from 'lucide-react';
import type { MessageAction } from '../api/update-messages';
import { formatMessageDate } from '../format-date';
import { MessageSource } from './message-source';
import {
  fieldSummary,
  fieldsPreview,
  filesSummary,
  senderEmail,
  senderName,
} from '../message-fields';
import { visibleText } from '../../../lib/visible-text';
import type { Message } from '../types';
import { DeliveryStatus } from './delivery-status';

/** How long a message that just arrived stays highlighted before the highlight fades. */
const HIGHLIGHT_MS = 4000;
/** How many custom fields a card shows before "+N more fields". */
const CARD_FIELDS = 2;

/**
 * The handlers name the message, so one stable set serves every card: a card re-renders only when
 * its own message, form name or selection changes, not when another message arrives.
 */
export interface MessageCardProps {
  message: Message;
  formName: string;
  selected: boolean;
  onSelect: (id: string, selected: boolean) => void;
  onOpen: (id: string) => void;
  onAction: (id: string, action: MessageAction) => void;
  onDelete: (message: Message) => void;
}

/** Clicks on the card's own controls must not also open the message. */
const stop = (event: MouseEvent) => event.stopPropagation();

export const MessageCard = memo(function MessageCard({
  message,
  formName,
  selected,
  onSelect,
  onOpen,
  onAction,
  onDelete,
}: MessageCardProps) {
  const name = senderName(message);
  const unread = message.read_at === null;
  const fields = fieldsPreview(message, CARD_FIELDS);
  const [highlighted, setHighlighted] = useState(message.arrivedLive === true);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    // Only the card itself: Enter on a button inside it is that button's.
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(message.id);
    }
  }

  return (
    <Box
      as="article"
      aria-label={`Message from ${name}`}
      tabIndex={0}
      onClick={() => onOpen(message.id)}
      onKeyDown={onKeyDown}
      cursor="pointer"
      borderWidth="1px"
      borderRadius="lg"
      borderColor={selected ? 'teal.emphasized' : 'border'}
      bg={highlighted || selected ? 'teal.subtle' : 'bg'}
      transition="background-color 1.5s ease-out, border-color 0.2s"
      // Off-screen cards skip style, layout and paint until scrolled near: a message arriving at
      // the top of a long list lays out the cards on screen, not every loaded one.
      css={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 11rem' }}
      p={{ base: '3', md: '4' }}
      _hover={{ borderColor: 'teal.emphasized' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'teal.focusRing', outlineOffset: '2px' }}
    >
      <Flex gap="3" align="start">
        <Checkbox.Root
          checked={selected}
          onCheckedChange={(details) => onSelect(message.id, details.checked === true)}
          onClick={stop}
          mt="0.5"
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>
            <VisuallyHidden>{`Select message from ${name}`}</VisuallyHidden>
          </Checkbox.Label>
        </Checkbox.Root>

        <Stack gap="2" flex="1" minW="0">
          <Flex gap="2" align="baseline" justify="space-between" wrap="wrap">
            <HStack gap="2" minW="0" align="center">
              {unread && (
                <Box
                  w="2"
                  h="2"
                  borderRadius="full"
                  bg="teal.solid"
                  flexShrink={0}
                  aria-hidden="true"
                />
              )}
              {unread && <VisuallyHidden>Unread.</VisuallyHidden>}
              <Text fontWeight={unread ? 'bold' : 'medium'} truncate>
                {formName}
              </Text>
              {message.arrivedLive && unread && (
                <Badge colorPalette="teal" variant="solid" size="sm">
                  New
                </Badge>
              )}
            </HStack>
            <Text asChild textStyle="sm" color="fg.muted">
              <time dateTime={message.created_at}>{formatMessageDate(message.created_at)}</time>
            </Text>
          </Flex>
          <Text textStyle="xs" color="fg.muted" minW="0">
            Form ID:{' '}
            <Text as="span" fontFamily="mono" overflowWrap="anywhere">
              {message.form_id}
            </Text>
          </Text>
          <MessageSource message={message} />

          <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1">
            <Text as="dt" textStyle="sm" color="fg.muted">
              From
            </Text>
            <Text as="dd" textStyle="sm" fontWeight={unread ? 'bold' : 'normal'} minW="0" truncate>
              {name}
            </Text>
            <Text as="dt" textStyle="sm" color="fg.muted">
              Email
            </Text>
            <Text as="dd" textStyle="sm" minW="0" truncate>
              {senderEmail(message)}
            </Text>
            <Text as="dt" textStyle="sm" color="fg.muted">
              Message
            </Text>
            <Text
              as="dd"
              textStyle="sm"
              whiteSpace="pre-wrap"
              wordBreak="break-word"
              lineClamp={3}
              minW="0"
            >
              {message.message?.trim() ? message.message : '—'}
            </Text>
            {fields.shown.map((field) => (
              <Fragment key={field.name}>
                <Text as="dt" textStyle="sm" color="fg.muted" maxW="10rem" truncate>
                  {visibleText(field.name)}
                </Text>
                <Text as="dd" textStyle="sm" minW="0" truncate>
                  {fieldSummary(field.value) || '—'}
                </Text>
              </Fragment>
            ))}
            {message.files.length > 0 && (
              <>
                <Text as="dt" textStyle="sm" color="fg.muted">
                  Files
                </Text>
                <Text as="dd" textStyle="sm" minW="0" truncate>
                  {filesSummary(message.files)}
                </Text>
              </>
            )}
          </Box>
          {fields.more > 0 && (
            <Text textStyle="xs" color="fg.muted">
              +{fields.more} more {fields.more === 1 ? 'field' : 'fields'}
            </Text>
          )}

          <Flex gap="2" align="center" justify="space-between" wrap="wrap" pt="1">
            <DeliveryStatus message={message} />
            <HStack gap="1" wrap="wrap" onClick={stop}>
              {message.is_spam ? (
                <Button size="xs" variant="ghost" onClick={() => onAction(message.id, 'not-spam')}>
                  <InboxIcon aria-hidden="true" /> Not spam
                </Button>
              ) : (
                <>
                  {unread ? (
                    <Button size="xs" variant="ghost" onClick={() => onAction(message.id, 'read')}>
                      <MailOpenIcon aria-hidden="true" /> Mark as read
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="ghost"
                      onClick={() => onAction(message.id, 'unread')}
                    >
                      <MailIcon aria-hidden="true" /> Mark as unread
                    </Button>
                  )}
                  <Button size="xs" variant="ghost" onClick={() => onAction(message.id, 'spam')}>
                    <ShieldExclamationPointIcon aria-hidden="true" /> Mark as spam
                  </Button>
                </>
              )}
              <Button
                size="xs"
                variant="ghost"
                colorPalette="red"
                onClick={() => onDelete(message)}
              >
                <TrashIcon aria-hidden="true" /> Delete
              </Button>
            </HStack>
          </Flex>
        </Stack>
      </Flex>
    </Box>
  );
});
