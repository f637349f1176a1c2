// The docs' newsletter section: an owner's lists and their signup form (double opt-in, an optional
// CAPTCHA), importing subscribers under a consent statement, campaigns (a test to yourself first)
// and how they are sent (exactly once, throttled, with one-click unsubscribe), and the limits
// against abuse; tinyback's own newsletter last.
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@chakra-ui/react';
import { CAMPAIGNS, LISTS } from '../../../../supabase/functions/_shared/limits.ts';
import { env } from '../../../config/env';
import { paths } from '../../../config/paths';
import { formatCount } from '../endpoint-facts';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P, SubHeading } from './docs-ui';

const LIST_ID = 'YOUR-LIST-ID';

/** Where a list's signup form posts. */
function listEndpoint(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/newsletter/lists/${LIST_ID}`;
}

export function Newsletter() {
  const endpoint = listEndpoint(env.supabaseUrl);
  return (
    <DocSection {...docSection('newsletter')}>
      <P>
        Collect subscribers on your own site and send them campaigns, from the same dashboard as
        your forms. Every subscriber confirms their address first (double opt-in), every message can
        be left with one click, and nothing you send is tracked: no pixels, no rewritten links.
      </P>

      <SubHeading>Lists and their signup form</SubHeading>
      <P>
        Under <strong>Dashboard → Newsletter</strong>, create a list: its name, the sender name and
        reply-to address your mail goes out with, the address of the site its signup form is on, and
        a few words of your own for the confirmation e-mail. The list shows its signup form, ready
        to paste:
      </P>
      <CodeSample
        label="List signup form"
        code={`<form action="${endpoint}" method="POST">
  <label>E-mail <input type="email" name="email" required></label>
  <label>Name <input type="text" name="name"></label>
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="display:none">
  <button type="submit">Subscribe</button>
</form>`}
      />
      <P>
        From JavaScript, post JSON instead (<C>{'{"email": "…", "name": "…"}'}</C>) and read the
        status. Only pages on the list&rsquo;s site may post: the browser&rsquo;s <C>Origin</C> is
        checked against it.
      </P>
      <DataTable
        caption="Answers of the signup endpoint"
        head={['Status', 'When']}
        rows={[
          [
            <C key="s">202</C>,
            'Accepted (JSON). The same answer whether the address is new, waiting or already subscribed, so nobody can learn who is on your list.',
          ],
          [
            <C key="s">303</C>,
            'Accepted (HTML form): the visitor is sent to a page asking them to check their inbox.',
          ],
          [
            <C key="s">403</C>,
            'The page is not on the list’s site, or the CAPTCHA was not solved (code captcha).',
          ],
          [<C key="s">404</C>, 'No such list.'],
          [<C key="s">422</C>, 'The address (or the name) is not valid.'],
          [
            <C key="s">429</C>,
            'Too many signups from this visitor; Retry-After says when to try again.',
          ],
          [
            <C key="s">500</C>,
            'The list’s CAPTCHA keys are wrong (code captcha_misconfigured): only the owner can fix them.',
          ],
          [
            <C key="s">503</C>,
            'The CAPTCHA provider could not be reached (code captcha_unavailable); try again shortly.',
          ],
        ]}
      />

      <SubHeading>CAPTCHA on the signup form</SubHeading>
      <P>
        Optional, in the list&rsquo;s <strong>Signup form</strong> tab: choose Cloudflare Turnstile,
        hCaptcha or reCAPTCHA v2 (checkbox), and enter the site key and secret key you create with
        the provider for your site. The secret key is kept on the server and never shown again;
        leave it empty to keep the stored one. The signup form&rsquo;s code then includes the
        provider&rsquo;s script and widget, which adds its token field to the form (
        <C>cf-turnstile-response</C>, <C>h-captcha-response</C> or <C>g-recaptcha-response</C>); a
        JSON post sends that field too. Every signup is checked with the provider before it is
        taken: a missing or failed check is refused with <C>403</C>, wrong keys with <C>500</C>, and
        a provider that does not answer with <C>503</C>. Replace the code on your page when you turn
        it on or change the provider.
      </P>

      <SubHeading>Double opt-in</SubHeading>
      <Bullets>
        <Item>
          A new address gets one e-mail in your words with a confirmation link; it works once, for{' '}
          {LISTS.confirmLinkTtlDays} days. Only confirmed subscribers ever receive a campaign, and
          the time they confirmed is kept as their consent.
        </Item>
        <Item>
          Opening the link changes nothing by itself (mail scanners open links too): the page it
          leads to confirms when its button is pressed.
        </Item>
        <Item>Signups that are never confirmed are forgotten after 30 days.</Item>
      </Bullets>

      <SubHeading>Importing subscribers</SubHeading>
      <P>
        A CSV file with an <C>email</C> column (and optionally <C>name</C>) adds people you already
        have permission to write to. You state how they agreed (&ldquo;They signed up at our shop
        counter in 2025&rdquo;); the statement is kept with each of them, and nobody imported is
        mailed before you give it. Invalid rows and addresses already on the list (or twice in the
        file) are reported by their row number and added once at most.
      </P>

      <SubHeading>Campaigns</SubHeading>
      <Bullets>
        <Item>
          Write in Markdown with a live preview; each message has an HTML and a plain-text part. A
          campaign goes out with its list&rsquo;s sender name and reply-to unless you give it its
          own. Send it now or schedule it, and pause, resume or cancel it while it sends; its
          recipients, sent, failed, bounced and unsubscribed counts update live.
        </Item>
        <Item>
          <strong>Send a test to yourself</strong> before it goes out: the campaign as your
          subscribers will get it, its subject starting with <C>[Test]</C>, to your own sign-in
          address only (never to an address you type), at most {CAMPAIGNS.testsPerHour} an hour and{' '}
          {CAMPAIGNS.testsPerDay} a day. A draft&rsquo;s unsaved edits are saved first.
        </Item>
        <Item>
          The recipients are fixed when a campaign starts: the list&rsquo;s confirmed subscribers at
          that moment. The database holds one row per recipient and campaign and never a second, so
          a campaign survives a mail-server outage or a restart and resumes by itself without
          mailing anyone twice.
        </Item>
        <Item>
          Every message carries <C>List-Unsubscribe</C> (an https link mail programs call with one
          click, as RFC 8058 and Gmail&rsquo;s and Yahoo&rsquo;s bulk-sender rules ask) and{' '}
          <C>List-Unsubscribe-Post: List-Unsubscribe=One-Click</C>, plus an unsubscribe link in the
          text whose page unsubscribes the reader as it opens: one click, nothing else to press. An
          address that bounces for good is marked bounced and not mailed again.
        </Item>
      </Bullets>

      <SubHeading>Limits</SubHeading>
      <DataTable
        caption="Limits of lists and campaigns"
        head={['Limit', 'Value']}
        rows={[
          [
            'Signups from one visitor to one account’s lists',
            `${LISTS.perClientPerMinute} a minute, ${LISTS.perClientPerDay} a day`,
          ],
          [
            'Confirmation e-mails to one address',
            `${LISTS.perRecipientPerDay} a day from all lists together, and one per list every ${LISTS.confirmationCooldownHours} hours`,
          ],
          [
            'Confirmation e-mails from one account’s lists',
            `${formatCount(LISTS.perAccountConfirmationsPerDay)} a day`,
          ],
          [
            'Campaign messages of one account',
            `${formatCount(CAMPAIGNS.perAccountPerSecond)} a second, ${formatCount(CAMPAIGNS.perAccountPerDay)} a day`,
          ],
          [
            'Campaign messages of an account less than 7 days old',
            `${formatCount(CAMPAIGNS.newAccountPerDay)} a day`,
          ],
        ]}
      />
      <Note>
        Self-hosting: campaign mail goes through the same outbox and mail settings as every other
        e-mail. Set <C>NEWSLETTER_LINK_SECRET</C> once, so unsubscribe links in mail already sent
        keep working when keys are rotated.
      </Note>

      <SubHeading>tinyback&rsquo;s own newsletter</SubHeading>
      <P>
        Want to hear about tinyback itself? Sign up in the footer of any page or on the{' '}
        <Link asChild color="teal.700">
          <RouterLink to={paths.blog}>blog</RouterLink>
        </Link>
        .
      </P>
    </DocSection>
  );
}
