// A form's webhooks, in its settings: the list (with each one's switches, secret, test event and
// delivery log) and the form to add one, until the form has as many as it may. Loading, empty and
// error states are spelled out.
import { useId } from 'react';
import { Heading, Link, Stack, Text } from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import { useWebhooks } from '../api/get-webhooks';
import { FAILURES_BEFORE_OFF, WEBHOOKS_PER_FORM } from '../webhook-texts';
import { AddWebhookForm } from './add-webhook-form';
import { SettingLoadError, SettingLoading } from '../../../components/setting-states';
import { WebhookItem } from './webhook-item';

export interface WebhooksSectionProps {
  formId: string;
}

export function WebhooksSection({ formId }: WebhooksSectionProps) {
  const headingId = useId();
  const webhooks = useWebhooks(formId);

  return (
    <Stack as="section" aria-labelledby={headingId} gap="3">
      <Heading as="h3" id={headingId} size="sm">
        Webhooks
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Each new message is also posted to these URLs, signed, and retried for a day if your server
        is down; after {FAILURES_BEFORE_OFF} failed attempts in a row a webhook is turned off and
        you get an e-mail. Test events are sent once, without retries. Spam is sent only where you
        ask for it. Changes here are saved at once.{' '}
        <Link
          href={`${paths.docs}#webhooks`}
          target="_blank"
          rel="noopener"
          colorPalette="teal"
          variant="underline"
        >
          How to verify the signature
        </Link>
      </Text>

      {webhooks.isPending ? (
        <SettingLoading>Loading webhooks…</SettingLoading>
      ) : webhooks.isError ? (
        <SettingLoadError
          title="Could not load the webhooks."
          onRetry={() => void webhooks.refetch()}
        />
      ) : webhooks.data.length === 0 ? (
        <Text fontSize="sm">No webhooks yet. Add a URL below to receive every new message.</Text>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" aria-label="Webhooks of this form">
          {webhooks.data.map((webhook) => (
            <li key={webhook.id}>
              <WebhookItem webhook={webhook} />
            </li>
          ))}
        </Stack>
      )}

      {webhooks.data && webhooks.data.length >= WEBHOOKS_PER_FORM ? (
        <Text fontSize="sm">
          This form has {webhooks.data.length} webhooks, the most a form may have. Delete one to add
          another.
        </Text>
      ) : (
        <AddWebhookForm formId={formId} />
      )}
    </Stack>
  );
}
