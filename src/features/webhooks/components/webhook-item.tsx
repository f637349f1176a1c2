// One webhook in a form's settings: its URL and format, on/off and spam switches, the signing
// secret (hidden until asked, copyable), "Send test event", delete (confirmed inline) and its
// delivery log. A webhook tinyback turned off after failing too often says so, since when and how
// to turn it back on. Every action answers with a toast.
import { useId, useState } from 'react';
import { Alert, Badge, Box, Button, Code, HStack, Stack, Switch, Text } from '@chakra-ui/react';
import { CopyButton } from '../../../components/copy-button';
import { notify } from '../../../components/toaster';
import { useDeleteWebhook } from '../api/delete-webhook';
import type { Webhook } from '../api/get-webhooks';
import { useSendWebhookTest } from '../api/send-webhook-test';
import { useUpdateWebhook } from '../api/update-webhook';
import {
  describeWebhookError,
  failingStreak,
  FORMAT_LABELS,
  turnedOffNotice,
} from '../webhook-texts';
import { WebhookDeliveries } from './webhook-deliveries';

export function WebhookItem({ webhook }: { webhook: Webhook }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const sendTest = useSendWebhookTest();
  const [showSecret, setShowSecret] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const logId = useId();
  const ids = { id: webhook.id, formId: webhook.form_id };
  const turnedOff = turnedOffNotice(webhook);
  const streak = failingStreak(webhook);

  function toggle(changes: { enabled?: boolean; send_spam?: boolean }, done: string) {
    update.mutate(
      { ...ids, changes },
      {
        onSuccess: () => notify('success', done),
        onError: (error) =>
          notify('error', 'Not saved', describeWebhookError(error, 'change the webhook')),
      },
    );
  }

  return (
    <Box borderWidth="1px" borderRadius="md" p="3">
      <Stack gap="3">
        <HStack justify="space-between" align="flex-start" gap="2" flexWrap="wrap">
          <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" minW={0} flex="1">
            {webhook.url}
          </Text>
          <HStack gap="1">
            <Badge colorPalette="gray">{FORMAT_LABELS[webhook.format]}</Badge>
            {turnedOff ? (
              <Badge colorPalette="red">Turned off: failing</Badge>
            ) : (
              !webhook.enabled && <Badge colorPalette="orange">Off</Badge>
            )}
          </HStack>
        </HStack>

        {turnedOff && (
          <Alert.Root status="error" size="sm" data-testid="webhook-turned-off">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{turnedOff}</Alert.Title>
              <Alert.Description>
                New messages are not sent to this URL, and we e-mailed you when it happened. Check
                that the URL is right and that your server answers with a 2xx status, then switch{' '}
                <strong>Active</strong> on again: the count of failed attempts starts afresh.
                Deliveries that failed meanwhile can be sent again from the log.
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}

        <Stack direction={{ base: 'column', sm: 'row' }} gap={{ base: 2, sm: 5 }}>
          <Switch.Root
            size="sm"
            colorPalette="teal"
            checked={webhook.enabled}
            disabled={update.isPending}
            onCheckedChange={(d) =>
              toggle({ enabled: d.checked }, d.checked ? 'Webhook turned on' : 'Webhook turned off')
            }
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>Active</Switch.Label>
          </Switch.Root>
          <Switch.Root
            size="sm"
            colorPalette="teal"
            checked={webhook.send_spam}
            disabled={update.isPending}
            onCheckedChange={(d) =>
              toggle(
                { send_spam: d.checked },
                d.checked ? 'Spam is sent to this webhook too' : 'Spam is no longer sent',
              )
            }
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>Also send spam</Switch.Label>
          </Switch.Root>
        </Stack>

        <Stack gap="1">
          <Text fontSize="sm" fontWeight="medium">
            Signing secret
          </Text>
          <HStack gap="2" flexWrap="wrap">
            <Code fontSize="xs" wordBreak="break-all" aria-live="polite">
              {showSecret ? webhook.secret : `${webhook.secret.slice(0, 6)}${'•'.repeat(16)}`}
            </Code>
            <Button
              size="xs"
              variant="outline"
              aria-pressed={showSecret}
              onClick={() => setShowSecret((s) => !s)}
            >
              {showSecret ? 'Hide' : 'Show'}
            </Button>
            <CopyButton
              text={webhook.secret}
              accessibleLabel="Copy signing secret"
              size="xs"
              variant="outline"
            />
          </HStack>
        </Stack>

        <HStack gap="2" flexWrap="wrap">
          <Button
            size="xs"
            variant="outline"
            loading={sendTest.isPending}
            disabled={!webhook.enabled}
            onClick={() =>
              sendTest.mutate(
                { webhookId: webhook.id },
                {
                  onSuccess: () => {
                    setShowLog(true);
                    notify('success', 'Test event on its way', 'Its delivery is listed below.');
                  },
                  onError: (error) =>
                    notify(
                      'error',
                      'Test event not sent',
                      describeWebhookError(error, 'send a test event'),
                    ),
                },
              )
            }
          >
            Send test event
          </Button>
          <Button
            size="xs"
            variant="ghost"
            aria-expanded={showLog}
            aria-controls={logId}
            onClick={() => setShowLog((s) => !s)}
          >
            {showLog ? 'Hide deliveries' : 'Show deliveries'}
          </Button>
          {confirming ? (
            <HStack gap="2" role="group" aria-label="Confirm deleting the webhook">
              <Text fontSize="sm">Delete this webhook and its log?</Text>
              <Button
                size="xs"
                colorPalette="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(ids, {
                    onSuccess: () => notify('success', 'Webhook deleted'),
                    onError: (error) =>
                      notify(
                        'error',
                        'Not deleted',
                        describeWebhookError(error, 'delete the webhook'),
                      ),
                    onSettled: () => setConfirming(false),
                  })
                }
              >
                Delete
              </Button>
              <Button size="xs" variant="outline" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </HStack>
          ) : (
            <Button
              size="xs"
              variant="ghost"
              colorPalette="red"
              onClick={() => setConfirming(true)}
            >
              Delete webhook
            </Button>
          )}
        </HStack>

        {!webhook.enabled && !turnedOff && (
          <Text fontSize="sm" color="fg.muted">
            Off: new messages are not sent to this URL.
          </Text>
        )}
        {streak && (
          <Text fontSize="sm" color="orange.fg">
            {streak}
          </Text>
        )}
        <Box id={logId} hidden={!showLog}>
          {showLog && <WebhookDeliveries webhookId={webhook.id} />}
        </Box>
      </Stack>
    </Box>
  );
}
