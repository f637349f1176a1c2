// The docs' webhooks section: what is sent and when, the formats, the signature and how to verify
// it (a Node snippet the integration tests run against a real delivery), retries, turning a failing
// webhook off, and the limits that keep webhooks from reaching private networks or flooding a host.
import { Heading } from '@chakra-ui/react';
import { ACCOUNT_CAPS } from '../../../../supabase/functions/_shared/limits.ts';
import { formatCount } from '../endpoint-facts';
import { docSection } from '../toc';
import {
  WEBHOOK_FACTS as F,
  WEBHOOK_PAYLOAD_EXAMPLE,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_VERIFY_NODE,
} from '../webhook-examples';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P } from './docs-ui';

const H3 = ({ children }: { children: string }) => (
  <Heading as="h3" size="md" mt={6} mb={3}>
    {children}
  </Heading>
);

export function Webhooks() {
  return (
    <DocSection {...docSection('webhooks')}>
      <P>
        Each form can post every new message to up to {formatCount(ACCOUNT_CAPS.webhooksPerForm)}{' '}
        URLs of yours: your own server, Zapier or Make, a Slack or Discord channel. Add them under{' '}
        <strong>Forms → Edit → Webhooks</strong> in the dashboard. A webhook is queued in the same
        database transaction that stores the message, so a stored message is never missed, and it
        goes out through the same outbox as the e-mails, with a log you can read and replay.
      </P>
      <Bullets>
        <Item>
          Sent for every accepted message; messages marked as spam only when the webhook&rsquo;s{' '}
          <strong>Also send spam</strong> switch is on.
        </Item>
        <Item>
          <strong>Send test event</strong> posts a sample message (event <C>test</C>) once, without
          retries; <strong>Show deliveries</strong> lists each attempt with its status code, time
          and the first {F.excerptChars} characters of your answer; <strong>Send again</strong>{' '}
          replays a delivered or failed one.
        </Item>
      </Bullets>

      <H3>Payload formats</H3>
      <DataTable
        caption="Webhook payload formats"
        head={['Format', 'Body', 'Use it for']}
        rows={[
          ['JSON (signed)', 'The whole message as below', 'Your own server, Zapier, Make, n8n'],
          [
            'Slack message',
            <>
              <C>{'{"text": "New message on *Contact* …"}'}</C>
            </>,
            'A Slack incoming-webhook URL',
          ],
          [
            'Discord message',
            <>
              <C>{'{"content": "…", "allowed_mentions": {"parse": []}}'}</C>
            </>,
            'A Discord channel webhook URL (mentions switched off)',
          ],
        ]}
      />
      <CodeSample label="Webhook JSON body" code={WEBHOOK_PAYLOAD_EXAMPLE} />
      <DataTable
        caption="Webhook request headers"
        head={['Header', 'Value']}
        rows={[
          [
            <C key="h">{WEBHOOK_SIGNATURE_HEADER}</C>,
            <C key="v">t=&lt;unix time&gt;,v1=&lt;hex&gt;</C>,
          ],
          [<C key="h">X-Tinyback-Event</C>, <C key="v">entry.created</C>],
          [
            <C key="h">X-Tinyback-Delivery</C>,
            'The delivery id: the same on every retry, so you can drop repeats',
          ],
          [<C key="h">Content-Type</C>, <C key="v">application/json</C>],
        ]}
      />

      <H3>Verifying the signature</H3>
      <P>
        Every request carries <C>{WEBHOOK_SIGNATURE_HEADER}</C>. Its <C>v1</C> is the HMAC-SHA256,
        keyed with the webhook&rsquo;s signing secret (shown in the dashboard, starting with{' '}
        <C>whsec_</C>), of the time <C>t</C>, a dot and the raw request body. Compute the same over
        the body exactly as received (before any JSON parsing), compare in constant time, and refuse
        requests whose <C>t</C> is more than {F.toleranceSeconds / 60} minutes old.
      </P>
      <CodeSample label="Verify a webhook in Node" code={WEBHOOK_VERIFY_NODE} />
      <Note>
        Keep the secret on your server only. The Slack and Discord presets are signed too, but those
        services ignore the header.
      </Note>

      <H3>Retries</H3>
      <P>
        A <C>2xx</C> answer within {F.timeoutSeconds} seconds counts as delivered. Anything else
        (another status, a redirect, a timeout, a refused connection) is tried again after{' '}
        {F.firstRetrySeconds} seconds, then after twice as long each time up to every{' '}
        {F.maxDelaySeconds / 3600} hours, for {F.retryWindowHours} hours; then the delivery is
        marked failed, and <strong>Send again</strong> starts a new round. Deliveries may arrive
        more than once or out of order: use <C>X-Tinyback-Delivery</C> to drop repeats.
      </P>
      <P>
        After {formatCount(ACCOUNT_CAPS.webhookFailuresBeforeOff)} failed attempts in a row, a
        webhook is turned off: its waiting deliveries are marked failed, the dashboard shows it as{' '}
        <em>Turned off</em> with the date, and you get an e-mail. Once your receiver works again,
        switch <strong>Active</strong> back on (the count starts afresh) and send the failed
        deliveries again from the log.
      </P>

      <H3>What a webhook may reach</H3>
      <Bullets>
        <Item>
          Only <C>https://</C> URLs on public addresses. Private (10/8, 172.16/12, 192.168/16,
          fc00::/7), loopback, link-local (including the cloud metadata address 169.254.169.254) and
          other reserved addresses are refused when the webhook is saved, and again after DNS
          resolution at every send, connecting only to the address that was checked.
        </Item>
        <Item>
          Redirects are never followed; at most {F.maxResponseKiB} KiB of your answer is read, and
          the request gives up after {F.timeoutSeconds} seconds.
        </Item>
        <Item>
          At most {formatCount(ACCOUNT_CAPS.webhooksPerForm)} webhooks per form and{' '}
          {formatCount(ACCOUNT_CAPS.webhooksPerAccount)} per account;{' '}
          {formatCount(ACCOUNT_CAPS.manualWebhookSendsPerMinute)} test events and{' '}
          <strong>Send again</strong> a minute and{' '}
          {formatCount(ACCOUNT_CAPS.manualWebhookSendsPerDay)} a day per account; and{' '}
          {formatCount(ACCOUNT_CAPS.webhookAttemptsPerHostPerMinute)} attempts a minute from one
          account to one host; more wait for the next free moment. Deleting webhooks resets none of
          these counts.
        </Item>
        <Item>
          Self-hosting: for local development only, <C>WEBHOOKS_ALLOW_LOCAL=on</C> in{' '}
          <C>supabase/functions/.env</C> together with <C>webhook_settings.allow_local</C> in the
          database lets webhooks use <C>http://</C> and local addresses (the local stack turns on
          both). Never in production.
        </Item>
      </Bullets>
    </DocSection>
  );
}
