// A subscriber's status as a badge, in words.
import { Badge } from '@chakra-ui/react';
import type { SubscriberStatus } from '../newsletter-types';

export const SUBSCRIBER_STATUS_TEXT: Record<SubscriberStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};

const PALETTE: Record<SubscriberStatus, string> = {
  pending: 'yellow',
  confirmed: 'green',
  unsubscribed: 'gray',
  bounced: 'red',
};

export function SubscriberStatusBadge({ status }: { status: SubscriberStatus }) {
  return (
    <Badge colorPalette={PALETTE[status]} variant="subtle">
      {SUBSCRIBER_STATUS_TEXT[status]}
    </Badge>
  );
}
