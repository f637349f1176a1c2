// Where a message's notification e-mail stands: sent (when), pending (next try), failed (why),
// or none, and why: spam, notifications off, the address not confirmed yet, or a cap reached.
import { HStack, Icon, Text, type TextProps } from '@chakra-ui/react';
import { CircleExclamationPointIcon, ClockIcon, MailCheckIcon, MailMinusIcon } from 'lucide-react';
import { formatMessageDate } from '../format-date';
import { deliveryState, type DeliveryFields, type DeliveryState } from '../message-fields';

export interface DeliveryStatusProps extends TextProps {
  message: DeliveryFields;
  /** The detail view shows the full error text and the attempts. */
  detailed?: boolean;
}

const NOT_EMAILED: Record<Extract<DeliveryState, { kind: 'none' }>['reason'], string> = {
  spam: 'Not e-mailed (spam)',
  off: 'Not e-mailed: notifications off',
  unverified: 'Not e-mailed: address not confirmed',
  hourly_limit: 'Not e-mailed: hourly limit reached',
  daily_limit: 'Not e-mailed: daily limit reached',
  unknown: 'Not e-mailed',
};

export function deliveryText(message: DeliveryFields, detailed = false): string {
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
      return NOT_EMAILED[state.reason];
  }
}

const ICONS = {
  sent: { icon: MailCheckIcon, color: 'green.fg' },
  pending: { icon: ClockIcon, color: 'orange.fg' },
  failed: { icon: CircleExclamationPointIcon, color: 'red.fg' },
  none: { icon: MailMinusIcon, color: 'fg.muted' },
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
