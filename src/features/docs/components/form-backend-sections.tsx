// The docs sections about receiving form posts: setup, URL, examples, special fields, origin,
// spam defence, limits and errors, and notification e-mails. Every number comes from the
// endpoint's own modules.
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@chakra-ui/react';
import { env } from '../../../config/env';
import { paths } from '../../../config/paths';
import {
  CONFIRMATIONS,
  DELIVERY,
  ERROR_ROWS,
  IDEMPOTENCY,
  LIMITS,
  SPECIAL_FIELDS,
  formatBytes,
  formatCount,
  formatSeconds,
} from '../endpoint-facts';
import {
  ERROR_JSON,
  SUCCESS_JSON,
  curlExample,
  endpointUrl,
  fetchExample,
  htmlFormExample,
  rewriteExample,
} from '../examples';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P } from './docs-ui';

const [gotcha, honey] = SPECIAL_FIELDS.honeypots;

export function GettingStarted() {
  return (
    <DocSection {...docSection('getting-started')}>
      <P>
        tinyback receives the submissions of the forms on your website, stores them in Postgres and
        e-mails them to you. There is no server code to write: point a form at your endpoint and you
        are done.
      </P>
      <Bullets ordered>
        <Item>
          <Link asChild color="teal.700">
            <RouterLink to={paths.register}>Create an account</RouterLink>
          </Link>{' '}
          and open{' '}
          <Link asChild color="teal.700">
            <RouterLink to={paths.dashboardForms}>Dashboard → Forms</RouterLink>
          </Link>
          .
        </Item>
        <Item>
          Click <strong>New Form</strong> and give it a name, the e-mail address that receives the
          submissions, and the <em>allowed origin</em>: the address of the website the form lives
          on, e.g. <C>https://example.com</C> (scheme, host and port only; a trailing slash is
          removed).
        </Item>
        <Item>
          Using an address other than your account’s own? Open the confirmation link e-mailed to it
          (see <em>E-mail notifications</em>); until then messages are stored but not e-mailed.
        </Item>
        <Item>
          Copy the embed code and paste it into your page, or set the <C>action</C> of your own form
          to the form’s endpoint URL.
        </Item>
        <Item>
          Send a test message from your site. It shows up in the dashboard at once and in your
          inbox.
        </Item>
      </Bullets>
      <Note>
        The form id is a random UUID. It is not a secret — anyone can see it in your page — which is
        why the endpoint only accepts posts from your allowed origin and defends itself against
        spam.
      </Note>
    </DocSection>
  );
}

export function Endpoint() {
  return (
    <DocSection {...docSection('endpoint')}>
      <P>Every form has its own URL. Submissions are plain HTTP POST requests to:</P>
      <CodeSample label="Endpoint" code={`POST {SUPABASE_URL}/functions/v1/forms/{formId}`} />
      <P>On this instance that is:</P>
      <CodeSample label="Endpoint on this instance" code={endpointUrl(env.supabaseUrl)} />
      <P>
        The short path <C>/api/forms/{'{formId}'}</C> works too: the development server and the
        local stack route it to the function. In production, add the same rewrite on the host that
        serves your site so forms can post to your own domain:
      </P>
      <CodeSample label="Rewrite for /api/forms" code={rewriteExample(env.supabaseUrl)} />
      <Note>
        Through a rewrite the endpoint sees your server, not the visitor. It counts visitors one by
        one only when the rewrite appends the visitor’s address to <C>X-Forwarded-For</C> and sends
        the <C>X-Tinyback-Proxy-Secret</C> header with the instance’s <C>FORMS_PROXY_SECRET</C>.
        Without it every post through the rewrite shares one rate limit. Posting to the endpoint URL
        directly needs none of this.
      </Note>
      <P>
        The endpoint accepts <C>application/x-www-form-urlencoded</C> (a normal HTML form),{' '}
        <C>multipart/form-data</C> (text fields; file uploads are refused for now) and{' '}
        <C>application/json</C>. The fields <C>name</C>, <C>email</C> and <C>message</C> are stored
        in their own columns; every other field is kept too, in the order it was sent: the inbox
        shows the first ones on each message&rsquo;s card and all of them in the message, its search
        finds their values, and the CSV export gives each one a column. A name sent more than once
        (checkboxes, a multiple select) is kept as a list, shown as one and written in its one CSV
        cell with its items joined by <C>; </C>.
      </P>
    </DocSection>
  );
}

export function HtmlForm() {
  return (
    <DocSection {...docSection('html-form')}>
      <P>
        The simplest integration needs no JavaScript at all. After a successful post the browser is
        sent, with a <C>303 See Other</C>, to the address in <C>{SPECIAL_FIELDS.next}</C>, else to
        the form’s own thank-you page (set under <strong>Edit</strong> on the form’s card), else to
        our{' '}
        <Link asChild color="teal.700">
          <RouterLink to={paths.thanks}>thank-you page</RouterLink>
        </Link>
        .
      </P>
      <CodeSample label="HTML form" code={htmlFormExample(env.supabaseUrl)} />
      <P>
        If a plain form post is refused, the browser is sent, again with a <C>303 See Other</C>, to
        our{' '}
        <Link asChild color="teal.700">
          <RouterLink to={`${paths.formError}?code=invalid_fields&fields=email`}>
            refusal page
          </RouterLink>
        </Link>
        , which tells the visitor in plain words what happened (a field to correct, a CAPTCHA to
        complete, a limit to wait out, or a problem only you can fix) and leads back to the form
        with what they typed still there. Its address carries the refusal’s code, the seconds to
        wait and the names of the fields at fault, never what was typed (see{' '}
        <Link href="#limits" color="teal.700">
          limits and error codes
        </Link>
        ). For inline error messages, post with JavaScript as shown next.
      </P>
    </DocSection>
  );
}

export function Ajax() {
  return (
    <DocSection {...docSection('ajax')}>
      <P>
        Send <C>Accept: application/json</C> (or a JSON body) and the endpoint answers in JSON
        instead of redirecting. A <C>2xx</C> is only ever sent once the entry is safely stored, so{' '}
        <C>ok: true</C> means it was saved.
      </P>
      <CodeSample label="fetch example" code={fetchExample(env.supabaseUrl)} />
      <P>On success:</P>
      <CodeSample label="Success response" code={SUCCESS_JSON} />
      <P>
        On failure, <C>error</C> is a sentence you can show to your visitor, <C>code</C> a stable
        machine code and <C>fields</C> the problem with each invalid field:
      </P>
      <CodeSample label="Error response" code={ERROR_JSON} />
      <P>From a terminal:</P>
      <CodeSample label="curl example" code={curlExample(env.supabaseUrl)} />
    </DocSection>
  );
}

export function SpecialFields() {
  return (
    <DocSection {...docSection('special-fields')}>
      <P>
        Fields starting with an underscore steer the endpoint and are not stored as data. The names
        are the ones Formspree and FormSubmit use, so moving an existing form over is a one-line
        change.
      </P>
      <DataTable
        caption="Special fields"
        head={['Field', 'What it does']}
        rows={[
          [
            <C>{SPECIAL_FIELDS.next}</C>,
            `Where to send the browser after a successful post. Only used when it is on the form’s allowed origin (at most ${formatCount(LIMITS.maxNextUrlLength)} characters); anything else is ignored and the visitor lands on the form’s thank-you page, or ours.`,
          ],
          [
            <C>{SPECIAL_FIELDS.subject}</C>,
            `The subject of the notification e-mail (at most ${formatCount(LIMITS.maxSubjectLength)} characters). Without it the subject is “New submission: {form name}”.`,
          ],
          [
            <C>{SPECIAL_FIELDS.replyTo}</C>,
            'The `Reply-To` address of the notification, so replying answers your visitor. Without it the `email` field is used.',
          ],
          [
            <>
              <C>{gotcha}</C>, <C>{honey}</C>
            </>,
            'Honeypots: hide them from people. A post that fills one in gets the normal success answer, is stored as spam and sends no e-mail.',
          ],
          [
            <C>{SPECIAL_FIELDS.idempotency}</C>,
            `An idempotency key, so a double click or a resent post is stored once (see below). Never stored; empty is ignored.`,
          ],
          [
            <C>{SPECIAL_FIELDS.ignored.join(', ')}</C>,
            'The hidden owner id in the dashboard’s embed code; accepted and ignored (the form id in the URL is what counts).',
          ],
        ]}
      />
      <P>
        <strong>Idempotent posts.</strong> Give a post a key, in the <C>{IDEMPOTENCY.header}</C>{' '}
        header (from JavaScript or a server) or in the <C>{SPECIAL_FIELDS.idempotency}</C> field (a
        plain HTML form), and a repeat of that key for the same form within{' '}
        {formatCount(IDEMPOTENCY.windowHours)} hours stores nothing and sends nothing — no e-mail,
        webhook or autoreply — and gets the answer the first post got: the same entry <C>id</C>, the
        same redirect. Use a new key for each message, e.g. <C>crypto.randomUUID()</C>. The
        dashboard’s embed code does this for you: the plain form fills the field when the page is
        shown, the fetch variant sends the header once per message.
      </P>
      <Bullets>
        <Item>
          A key is 1 to {formatCount(IDEMPOTENCY.maxKeyLength)} visible ASCII characters (no
          spaces). An invalid header answers <C>400 invalid_body</C>, an invalid field{' '}
          <C>422 invalid_fields</C>; nothing is stored.
        </Item>
        <Item>
          When both are sent, the header wins. Keys are per form: the same key on two forms is two
          posts. A post that was refused (a <C>4xx</C>) keeps nothing, so it can be fixed and sent
          again with the same key.
        </Item>
      </Bullets>
    </DocSection>
  );
}

export function AllowedOrigin() {
  return (
    <DocSection {...docSection('allowed-origin')}>
      <P>
        Each form accepts posts from one website only. The endpoint reads the request’s{' '}
        <C>Origin</C> header (or, when a browser leaves it out, the origin of the <C>Referer</C>)
        and compares it with the form’s allowed origin. Anything else gets{' '}
        <C>403 origin_not_allowed</C> and nothing is stored.
      </P>
      <Bullets>
        <Item>
          The origin is scheme, host and port: <C>https://example.com</C> and{' '}
          <C>https://www.example.com</C> are different origins, and so are <C>http://</C> and{' '}
          <C>https://</C>.
        </Item>
        <Item>
          For JavaScript posts the endpoint answers the CORS preflight (<C>OPTIONS</C>) and sets{' '}
          <C>Access-Control-Allow-Origin</C> to your origin only — other sites cannot read the
          answers.
        </Item>
        <Item>
          Testing locally? Create a second form whose origin is your dev server, e.g.{' '}
          <C>http://localhost:5173</C>.
        </Item>
      </Bullets>
    </DocSection>
  );
}

export function Spam() {
  return (
    <DocSection {...docSection('spam')}>
      <Bullets>
        <Item>
          <strong>Honeypots.</strong> Add a hidden <C>{gotcha}</C> or <C>{honey}</C> field. Bots
          fill it in; the submission is kept, marked as spam, and you are not e-mailed. The bot sees
          a normal success and learns nothing.
        </Item>
        <Item>
          <strong>Rate limit.</strong> Each form accepts at most {formatCount(LIMITS.ratePerMinute)}{' '}
          submissions per minute and {formatCount(LIMITS.ratePerDay)} per day from one IP address.
          Beyond that the answer is <C>429 rate_limited</C> with a <C>Retry-After</C> header. The
          counters live in Postgres, so they hold across every instance of the function.
        </Item>
        <Item>
          <strong>Per-form cap.</strong> Whatever the number of addresses it comes from, a form
          accepts at most {formatCount(LIMITS.formRatePerMinute)} submissions per minute in all;
          beyond that it answers <C>429 rate_limited</C> as well.
        </Item>
        <Item>
          <strong>Origin check.</strong> Posts from other websites are refused (see above).
        </Item>
        <Item>
          <strong>Privacy.</strong> The IP address is never stored: only a salted hash, used for the
          rate limit.
        </Item>
      </Bullets>
    </DocSection>
  );
}

export function Limits() {
  return (
    <DocSection {...docSection('limits')}>
      <P>
        Values are trimmed, and control characters other than newline and tab are removed before
        storing.
      </P>
      <DataTable
        caption="Limits per submission"
        head={['What', 'Limit']}
        rows={[
          [
            'Request body',
            `${formatBytes(LIMITS.maxBodyBytes)} (${formatCount(LIMITS.maxBodyBytes)} bytes)`,
          ],
          ['Fields', `${formatCount(LIMITS.maxFields)}, special fields included`],
          ['Field name', `${formatCount(LIMITS.maxFieldNameLength)} characters`],
          [<C>name</C>, `${formatCount(LIMITS.maxNameLength)} characters`],
          [
            <C>email</C>,
            `${formatCount(LIMITS.maxEmailLength)} characters, a valid e-mail address`,
          ],
          [<C>message</C>, `${formatCount(LIMITS.maxMessageLength)} characters`],
          ['Any other field', `${formatCount(LIMITS.maxOtherValueLength)} characters`],
          [
            'Submissions per IP and form',
            `${formatCount(LIMITS.ratePerMinute)} per minute, ${formatCount(LIMITS.ratePerDay)} per day`,
          ],
        ]}
      />
      <P>
        A plain browser post that succeeds gets <C>303 See Other</C> to <C>{SPECIAL_FIELDS.next}</C>{' '}
        or the thank-you page; a JSON client gets <C>200</C> with <C>{'{ "ok": true, "id": … }'}</C>
        . A refused browser post gets <C>303 See Other</C> to the refusal page (
        <C>/form-error?code=…</C>, with <C>Retry-After</C> kept); JSON clients, and scripts or{' '}
        <C>fetch()</C> calls that do not ask for HTML, get the status and code below. Refusals:
      </P>
      <DataTable
        caption="Error statuses and codes"
        head={['Status', 'Code', 'When']}
        rows={ERROR_ROWS.map((row) => [
          <strong>{row.status}</strong>,
          <C>{row.code}</C>,
          row.retryAfter ? `${row.when} Sent with a \`Retry-After\` header.` : row.when,
        ])}
      />
      <Note>
        A <C>5xx</C> means nothing was stored: retry. Any <C>4xx</C> will fail again the same way
        until the request is fixed.
      </Note>
    </DocSection>
  );
}

export function Notifications() {
  return (
    <DocSection {...docSection('notifications')}>
      <P>
        Every submission that is not spam is e-mailed to the form’s target address, with every field
        in the order it was sent (HTML-escaped), <C>Reply-To</C> set to your visitor and the subject
        from <C>{SPECIAL_FIELDS.subject}</C> or “New submission: {'{form name}'}”.
      </P>
      <P>
        E-mails go only to a <strong>confirmed</strong> address. Your account’s own e-mail is
        confirmed already (a new form starts with it); any other target address gets a confirmation
        e-mail within seconds, with a link that works once, for{' '}
        {formatCount(CONFIRMATIONS.linkValidHours)} hours. The page it opens names the address and
        the form. Until someone opens it and presses <strong>Confirm address</strong>, the form’s
        card says <em>Confirmation pending</em> (with <strong>Resend confirmation</strong>),
        messages are stored and shown in the dashboard, but none is e-mailed; once it is confirmed,
        the card offers to send the messages received meanwhile (within the limits below). One
        confirmation covers every form of yours with that address.
      </P>
      <P>
        Each account is e-mailed at most {formatCount(LIMITS.notificationsPerHour)} notifications
        per hour and {formatCount(LIMITS.notificationsPerDay)} per day; messages beyond that are
        stored without an e-mail, and the dashboard says why (“Not e-mailed: hourly limit reached”).
      </P>
      <P>
        E-mails are a per-form setting: turn <strong>E-mail notifications</strong> off under{' '}
        <strong>Edit</strong> on the form’s card, and its messages are still stored and shown in the
        dashboard, but none is e-mailed.
      </P>
      <P>
        The entry and its e-mail job are saved together, and the e-mail is sent right after. If the
        mail server is down, the job waits and is retried with exponential backoff: first after{' '}
        {formatSeconds(DELIVERY.baseDelaySeconds)}, doubling each time up to{' '}
        {formatSeconds(DELIVERY.maxDelaySeconds)} between attempts,{' '}
        {formatCount(DELIVERY.maxAttempts)} attempts in all. Each entry is e-mailed exactly once,
        even when several workers run at the same time, and the dashboard shows whether it was sent.
      </P>
      <P>
        Your submissions are never lost to a mail problem: they are stored before any e-mail is
        attempted, and you can always read them in the dashboard.
      </P>
    </DocSection>
  );
}
