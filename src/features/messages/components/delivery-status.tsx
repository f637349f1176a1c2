// Where a message's notification e-mail stands: sent (when), pending (next try), failed (why),
// or none (notifications off for the form, or the message was spam).
import { HStack, Icon, Text, type TextProps } from '@chakra-ui/react';
import { LuCircleAlert, LuClock, LuMailCheck, LuMailMinus } from 'react-icons/lu';
import { formatMessageDate } from '../format-date';
import { deliveryState } from '../message-fields';
import type { Message } from '../types';

export interface DeliveryStatusProps extends TextProps {
  message: Pick<Message, 'delivery' | 'is_spam'>;
  /** The detail view shows the full error text and the attempts. */
  detailed?: boolean;
}

export function deliveryText(
  message: Pick<Message, 'delivery' | 'is_spam'>,
  detailed = false,
): string {
  const state = deliveryState(message);
  switch (state.kind) {
    case 'sent':
      return state.at ? `E-mailed ${formatMessageDate(state.at)}` : 'E-mailed';
    case 'pending': {
      if (state.sending) return 'E-mail being sent';
      if (state.attempts === 0) return 'E-mail queued';
      const next = state.nextAttemptAt ? ` at ${formatMessageDate(state.nextAttemptAt)}` : ' soon';
      const reason = detailed && state.lastError ? ` (last error: ${state.lastError})` : '';
      return `E-mail pending, next try${next}${reason}`;
    }
    case 'failed':
      return `E-mail failed: ${state.reason}`;
    case 'none':
      return state.reason === 'spam' ? 'Not e-mailed (spam)' : 'Not e-mailed';
  }
}

const ICONS = {
  sent: { icon: LuMailCheck, color: 'green.fg' },
  pending: { icon: LuClock, color: 'orange.fg' },
  failed: { icon: LuCircleAlert, color: 'red.fg' },
  none: { icon: LuMailMinus, color: 'fg.muted' },
} as const;

export function DeliveryStatus({ message, detailed = false, ...props }: DeliveryStatusProps) {
  const { icon, color } = ICONS[deliveryState(message).kind];
  return (
    <HStack gap="1.5" align="start" minW="0">
      <Icon as={icon} color={color} boxSize="4" mt="0.5" flexShrink={0} aria-hidden="true" />
      <Text
        textStyle="sm"
        color={deliveryState(message).kind === 'failed' ? 'red.fg' : 'fg.muted'}
        wordBreak="break-word"
        lineClamp={detailed ? undefined : 2}
        {...props}
      >
        {deliveryText(message, detailed)}
      </Text>
    </HStack>
  );
}
