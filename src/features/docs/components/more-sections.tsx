// The docs sections beyond form posts: API keys, analytics, newsletter, booking, webhooks, the API
// reference, troubleshooting, security, self-hosting, FAQ and contact.
import { Box, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { site } from '../../../config/site';
import { DELIVERY, LIMITS, SPECIAL_FIELDS, formatCount, formatSeconds } from '../endpoint-facts';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, CodeText, DataTable, Item, Note, P } from './docs-ui';

// The API keys section has a file of its own: it documents the read API in full.
export { ApiKeys } from './api-keys-section';

// The analytics section lives in its own module: the tracker's snippet, options and data statement.
export { Analytics } from './analytics-docs';

// The newsletter section lives in its own module: lists, double opt-in, imports, campaigns, limits.
export { Newsletter } from './newsletter-docs';

// The booking section lives in its own module: availability, time zones, confirmations, embedding.
export { Booking } from './booking-docs';

// The webhooks section lives in its own module; re-exported so the page imports every section here.
export { Webhooks } from './webhooks-docs';
export { Autoresponder, Retention } from './autoresponder-retention-docs';

export function ApiReference() {
  return (
    <DocSection {...docSection('api-reference')}>
      <Stack gap={6}>
        <Box>
          <Heading as="h3" size="lg" mb={2}>
            <C>POST /functions/v1/forms/{'{formId}'}</C>
          </Heading>
          <P>Submits one entry. Public; no key needed.</P>
          <DataTable
            caption="Request"
            head={['Part', 'Value']}
            rows={[
              [
                'Path',
                <>
                  <C>formId</C>: the form’s UUID
                </>,
              ],
              [
                'Headers',
                <>
                  <C>Origin</C> (or <C>Referer</C>) on the allowed origin;{' '}
                  <C>Accept: application/json</C> for JSON answers
                </>,
              ],
              [
                'Body',
                <>
                  urlencoded, multipart (text only) or JSON object of strings, numbers or lists; at
                  most {formatCount(LIMITS.maxFields)} fields
                </>,
              ],
            ]}
          />
          <DataTable
            caption="Responses"
            head={['Status', 'Body']}
            rows={[
              [
                '200',
                <>
                  <C>{'{ "ok": true, "id": "<entry id>" }'}</C> (JSON clients)
                </>,
              ],
              [
                '303',
                <>
                  Redirect to <C>{SPECIAL_FIELDS.next}</C> or the thank-you page (browser posts), or
                  to the refusal page when a browser post is refused
                </>,
              ],
              [
                '4xx / 5xx',
                <>
                  <C>{'{ "ok": false, "error", "code", "fields" }'}</C> or plain text; see the error
                  table
                </>,
              ],
            ]}
          />
        </Box>
        <Box>
          <Heading as="h3" size="lg" mb={2}>
            <C>OPTIONS /functions/v1/forms/{'{formId}'}</C>
          </Heading>
          <P>CORS preflight; allowed for the form’s origin only.</P>
        </Box>
        <Box>
          <Heading as="h3" size="lg" mb={2}>
            Reading your entries
          </Heading>
          <P>
            Forms and entries are Postgres tables behind row-level security: signed in, you see your
            own rows and no one else’s. With <C>@supabase/supabase-js</C>:
          </P>
          <CodeSample
            label="Reading entries with supabase-js"
            code={`const { data, error } = await supabase
  .from('entries')
  .select('id, name, email, message, data, is_spam, created_at')
  .eq('form_id', formId)
  .order('created_at', { ascending: false });`}
          />
        </Box>
      </Stack>
    </DocSection>
  );
}

export function Troubleshooting() {
  const problems: [string, string][] = [
    [
      '`403 origin_not_allowed`',
      'The page’s origin differs from the form’s allowed origin: check https vs http, www vs no www, and the port. Pages opened as `file://` send no usable origin.',
    ],
    [
      '`404 form_not_found`',
      'The form id in the URL is wrong or the form was deleted. Copy the embed code again.',
    ],
    [
      '`429 rate_limited`',
      `More than ${formatCount(LIMITS.ratePerMinute)} posts a minute or ${formatCount(LIMITS.ratePerDay)} a day from one network. Wait for the \`Retry-After\` seconds; testing from the same machine counts too.`,
    ],
    [
      '`415 file_uploads_unsupported`',
      'Remove file inputs and `enctype="multipart/form-data"` if you do not need them.',
    ],
    [
      'No e-mail arrived',
      `Look in your spam folder, then in the dashboard: the entry is stored either way, and says why it was not e-mailed. A target address other than your account’s own must be confirmed first (“Confirmation pending” on the form’s card; the messages received meanwhile can be sent from the card once it is), and each account gets at most ${formatCount(LIMITS.notificationsPerHour)} notifications an hour. Failed deliveries are retried for a while (up to ${formatSeconds(DELIVERY.maxDelaySeconds)} between attempts). Entries with a filled honeypot are never e-mailed — make sure your own hidden field stays empty.`,
    ],
    [
      'The browser shows a plain text error',
      'On a self-hosted tinyback the `forms` function’s `SITE_URL` is not set, so it cannot send the visitor to the refusal page: set it. Or post with JavaScript for inline messages.',
    ],
    [
      '`fetch` fails with a CORS error',
      'Usually the same as a 403: the page is not on the allowed origin.',
    ],
  ];
  return (
    <DocSection {...docSection('troubleshooting')}>
      <Stack as="dl" gap={4}>
        {problems.map(([title, answer]) => (
          <Box key={title}>
            <Text as="dt" fontWeight="semibold">
              <CodeText text={title} />
            </Text>
            <Text as="dd" color="fg.muted" ms={0}>
              <CodeText text={answer} />
            </Text>
          </Box>
        ))}
      </Stack>
    </DocSection>
  );
}

export function Security() {
  return (
    <DocSection {...docSection('security')}>
      <Bullets>
        <Item>
          Entries are written only by the endpoint with the service role; browsers can never insert
          or read them directly.
        </Item>
        <Item>
          Row-level security on every table: each user reads and changes only their own forms and
          entries.
        </Item>
        <Item>
          Values are length-limited and cleaned of control characters; e-mails are HTML-escaped, and
          no header can be injected through a field.
        </Item>
        <Item>
          Responses never contain HTML, and JSON answers are readable only by the form’s own origin.
        </Item>
        <Item>IP addresses are stored only as salted hashes, for the rate limit.</Item>
        <Item>
          Everything is open source: you can read it, run it yourself and keep your data in your own
          Supabase project.
        </Item>
      </Bullets>
      <P>
        Found a vulnerability? Please write to{' '}
        <Link href={`mailto:${site.contactEmail}`} color="teal.700">
          {site.contactEmail}
        </Link>{' '}
        before disclosing it.
      </P>
    </DocSection>
  );
}

export function SelfHosting() {
  return (
    <DocSection {...docSection('self-hosting')}>
      <P>
        tinyback runs on any Supabase project, hosted or self-hosted: the database migrations, the{' '}
        <C>forms</C> Edge Function and this site. The <strong>README</strong> at the root of the
        source code has the two commands for a local copy, and the steps for deploying the backend
        (migrations, function, secrets for mail delivery and the retry schedule) and the site.
      </P>
      <Note>
        On hosted Supabase, outgoing SMTP ports are blocked: use the Resend provider for
        notifications there. Self-hosted Supabase can use any SMTP server.
      </Note>
    </DocSection>
  );
}

export function Faq() {
  const faqs: [string, string][] = [
    ['Do I need JavaScript?', 'No. A plain HTML form works; JavaScript only adds inline messages.'],
    [
      'Can I use my existing Formspree or FormSubmit form?',
      `Yes. Change the action URL; ${[SPECIAL_FIELDS.next, SPECIAL_FIELDS.subject, SPECIAL_FIELDS.replyTo].map((f) => `\`${f}\``).join(', ')} and ${SPECIAL_FIELDS.honeypots.map((f) => `\`${f}\``).join('/')} mean the same here.`,
    ],
    [
      'Is the redirect after submit a paid feature?',
      `No. \`${SPECIAL_FIELDS.next}\` works on every plan, limited to your own website so the form cannot be used to redirect elsewhere.`,
    ],
    [
      'Can visitors upload files?',
      'Not yet. Multipart forms with file fields are refused with a clear error.',
    ],
    [
      'Where is my data stored?',
      'In the Postgres database of the Supabase project tinyback runs on — yours, if you host it yourself.',
    ],
    [
      'How many fields can a form have?',
      `Up to ${formatCount(LIMITS.maxFields)} per submission, any names you like.`,
    ],
  ];
  return (
    <DocSection {...docSection('faq')}>
      <Stack as="dl" gap={4}>
        {faqs.map(([q, a]) => (
          <Box key={q}>
            <Text as="dt" fontWeight="semibold">
              {q}
            </Text>
            <Text as="dd" color="fg.muted" ms={0}>
              <CodeText text={a} />
            </Text>
          </Box>
        ))}
      </Stack>
    </DocSection>
  );
}

export function Contact() {
  return (
    <DocSection {...docSection('contact')}>
      <P>
        Questions, ideas or trouble? Write to{' '}
        <Link href={`mailto:${site.contactEmail}`} color="teal.700" fontWeight="semibold">
          {site.contactEmail}
        </Link>
        .
      </P>
    </DocSection>
  );
}
