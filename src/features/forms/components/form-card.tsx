// One form on the Forms tab: its name (bidi controls shown as tokens), id, target address (and whether it still awaits its
// confirmation), origin, settings, message counts and views and conversion (the analytics
// tracker), with the actions on it. An <article> named
// after the form, so its buttons read in context.
import {
  Badge,
  Button,
  Card,
  Flex,
  HStack,
  Heading,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { CodeIcon, InboxIcon, PencilIcon, TrashIcon } from 'lucide-react';
import { visibleText } from '../../../lib/visible-text';
import type { Form } from '../api/get-forms';
import type { FormCounts } from '../api/get-form-counts';
import { messageCount } from '../form-texts';
import { FormConversion } from './form-conversion';
import { HeldMessages } from './held-messages';
import { TargetConfirmation } from './target-confirmation';

export interface FormCardProps {
  form: Form;
  /** Its message counts; undefined while loading, null when they could not be read. */
  counts: Pick<FormCounts, 'total' | 'unread'> | null | undefined;
  /** Messages received before its target was confirmed whose notification waits (0: none). */
  held?: number;
  onOpenMessages: () => void;
  onEmbed: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function FormCard({
  form,
  counts,
  held = 0,
  onOpenMessages,
  onEmbed,
  onEdit,
  onDelete,
}: FormCardProps) {
  return (
    <Card.Root as="article" aria-label={visibleText(form.name)} variant="outline" size="sm">
      <Card.Body gap="3">
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Heading as="h2" size="md" wordBreak="break-word" minW="0">
            {visibleText(form.name)}
          </Heading>
          <MessageBadges counts={counts} />
        </Flex>
        <Stack gap="1" fontSize="sm" color="fg.muted" minW="0">
          <Text fontFamily="mono" fontSize="xs" wordBreak="break-all">
            ID: {form.id}
          </Text>
          <Text wordBreak="break-all">To: {form.target_email}</Text>
          <Text wordBreak="break-all">Origin: {form.allowed_origin}</Text>
          {form.redirect_url && (
            <Text wordBreak="break-all">Thank-you page: {form.redirect_url}</Text>
          )}
          <FormConversion formId={form.id} />
        </Stack>
        {!form.target_verified && <TargetConfirmation form={form} />}
        {form.target_verified && form.notify_email && <HeldMessages form={form} count={held} />}
        {!form.notify_email && (
          <Badge alignSelf="flex-start" colorPalette="orange" variant="subtle">
            E-mail notifications off
          </Badge>
        )}
      </Card.Body>
      <Card.Footer>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" colorPalette="teal" onClick={onOpenMessages}>
            <InboxIcon aria-hidden /> View messages
          </Button>
          <Button size="sm" variant="outline" onClick={onEmbed}>
            <CodeIcon aria-hidden /> Embed code
          </Button>
          <Button size="sm" variant="outline" onClick={onEdit}>
            <PencilIcon aria-hidden /> Edit
          </Button>
          <Button size="sm" variant="outline" colorPalette="red" onClick={onDelete}>
            <TrashIcon aria-hidden /> Delete
          </Button>
        </HStack>
      </Card.Footer>
    </Card.Root>
  );
}

function MessageBadges({ counts }: { counts: FormCardProps['counts'] }) {
  if (counts === undefined) return <Skeleton h="5" w="28" />;
  if (counts === null) {
    return (
      <Text fontSize="sm" color="fg.muted">
        Counts unavailable
      </Text>
    );
  }
  return (
    <HStack gap="2">
      <Badge variant="subtle">{messageCount(counts.total)}</Badge>
      <Badge
        colorPalette={counts.unread ? 'teal' : 'gray'}
        variant={counts.unread ? 'solid' : 'subtle'}
      >
        {counts.unread} unread
      </Badge>
    </HStack>
  );
}
