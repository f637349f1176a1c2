// A webhook's delivery log: its latest deliveries, newest first, each with its state and every
// attempt (status code or reason, time, duration, the start of the answer), and "Send again" for
// the finished ones. Polled while one is on its way. A test event is tried once: no retry is
// promised for it.
import { Alert, Badge, Box, Button, Code, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../../components/toaster';
import { useWebhookDeliveries, type WebhookDelivery } from '../api/get-webhook-deliveries';
import { useRedeliverWebhook } from '../api/redeliver-webhook';
import {
  attemptOutcome,
  deliveryStatusColor,
  deliveryStatusLabel,
  describeWebhookError,
} from '../webhook-texts';

const when = (iso: string) => new Date(iso).toLocaleString();

export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const deliveries = useWebhookDeliveries(webhookId);

  if (deliveries.isPending)
    return (
      <HStack gap="2" role="status">
        <Spinner size="xs" />
        <Text fontSize="sm">Loading deliveries…</Text>
      </HStack>
    );
  if (deliveries.isError)
    return (
      <Alert.Root status="error" role="alert" size="sm">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Could not load the deliveries.</Alert.Title>
        </Alert.Content>
        <Button size="xs" variant="outline" onClick={() => void deliveries.refetch()}>
          Try again
        </Button>
      </Alert.Root>
    );
  if (deliveries.data.length === 0)
    return (
      <Text fontSize="sm" color="fg.muted">
        Nothing sent yet. Send a test event to try the URL.
      </Text>
    );
  return (
    <Stack as="ul" listStyleType="none" gap="2" aria-label="Latest deliveries">
      {deliveries.data.map((delivery) => (
        <li key={delivery.id}>
          <DeliveryRow webhookId={webhookId} delivery={delivery} />
        </li>
      ))}
    </Stack>
  );
}

function DeliveryRow({ webhookId, delivery }: { webhookId: string; delivery: WebhookDelivery }) {
  const redeliver = useRedeliverWebhook();
  const finished = delivery.status === 'sent' || delivery.status === 'failed';
  const test = delivery.event === 'test';
  const label = deliveryStatusLabel(delivery.status, delivery.attempts, delivery.event);
  const what = test ? 'Test event' : 'New message';

  return (
    <Box borderTopWidth="1px" pt="2">
      <HStack justify="space-between" gap="2" flexWrap="wrap">
        <HStack gap="2" flexWrap="wrap">
          <Badge colorPalette={deliveryStatusColor(delivery.status)}>{label}</Badge>
          <Text fontSize="sm">
            {what} · {when(delivery.created_at)}
          </Text>
        </HStack>
        {finished && (
          <Button
            size="xs"
            variant="outline"
            loading={redeliver.isPending}
            aria-label={`Send again: ${what.toLowerCase()} of ${when(delivery.created_at)}`}
            onClick={() =>
              redeliver.mutate(
                { webhookId, deliveryId: delivery.id },
                {
                  onSuccess: () =>
                    notify('success', 'Sent again', 'The new attempt is listed here.'),
                  onError: (error) =>
                    notify('error', 'Not queued', describeWebhookError(error, 'send it again')),
                },
              )
            }
          >
            Send again
          </Button>
        )}
      </HStack>
      {delivery.status === 'pending' && delivery.attempts > 0 && !test && (
        <Text fontSize="xs" color="fg.muted">
          Next try {when(delivery.next_attempt_at)}
        </Text>
      )}
      {test && delivery.status === 'failed' && (
        <Text fontSize="xs" color="fg.muted">
          Test events are tried once, never retried.
        </Text>
      )}
      {/* Never tried: why (e.g. its webhook was turned off before its turn came). */}
      {delivery.status === 'failed' && delivery.log.length === 0 && delivery.last_error && (
        <Text fontSize="xs" color="fg.muted">
          {delivery.last_error}
        </Text>
      )}
      {delivery.log.length > 0 && (
        <Stack as="ol" gap="1" mt="2" ps="3" aria-label={`Attempts: ${delivery.log.length}`}>
          {delivery.log.map((a) => (
            <Box as="li" key={a.id} fontSize="xs">
              <Text>
                <Text as="span" fontWeight="semibold" color={a.ok ? 'green.fg' : 'red.fg'}>
                  {attemptOutcome(a)}
                </Text>{' '}
                · {when(a.attempted_at)}
                {a.duration_ms !== null && ` · ${a.duration_ms} ms`}
              </Text>
              {a.response_excerpt && (
                <Code
                  display="block"
                  whiteSpace="pre-wrap"
                  wordBreak="break-all"
                  maxH="6rem"
                  overflowY="auto"
                  mt="1"
                  fontSize="xs"
                >
                  {a.response_excerpt}
                </Code>
              )}
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
