// The docs' CAPTCHA section: which providers, where the keys go, what the embed code adds, how the
// endpoint checks a token and what it answers when the check fails. Field names and error codes
// come from the function's own modules.
import { SPECIAL_FIELDS } from '../../../../supabase/functions/_shared/limits.ts';
import { ERRORS } from '../../../../supabase/functions/forms/errors.ts';
import { docSection } from '../toc';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P } from './docs-ui';

// In the endpoint's order of SPECIAL_FIELDS.captcha.
const PROVIDER_NAMES = ['Cloudflare Turnstile', 'hCaptcha', 'Google reCAPTCHA v2 (checkbox)'];
const refusal = (e: { status: number; code: string }) => (
  <>
    <strong>{e.status}</strong> <C>{e.code}</C>
  </>
);

export function Captcha() {
  return (
    <DocSection {...docSection('captcha')}>
      <P>
        Optional, per form: a visitor solves a challenge, and the endpoint checks the answer with
        the provider before it stores anything. Turn it on under{' '}
        <strong>Forms → Edit → CAPTCHA</strong>: choose the provider and paste the site key and
        secret key you created for your website in the provider&rsquo;s dashboard. The secret key is
        stored on the server only: the dashboard shows that one is set, never the key itself.
      </P>
      <DataTable
        caption="Supported providers"
        head={['Provider', 'Token field the widget adds']}
        rows={SPECIAL_FIELDS.captcha.map((field, i) => [PROVIDER_NAMES[i], <C>{field}</C>])}
      />
      <Bullets>
        <Item>
          With CAPTCHA on, the embed code loads the provider&rsquo;s script and puts its widget
          above the button; copy it again after turning CAPTCHA on or changing the provider (the
          settings warn before you save): from the moment you save, posts from a page with the old
          code are refused. Turning CAPTCHA off takes effect at once too. The fetch variant gets a
          fresh challenge after each send, since a token works once.
        </Item>
        <Item>
          reCAPTCHA v3 (invisible, scored) is not supported: create v2 &ldquo;I&rsquo;m not a
          robot&rdquo; checkbox keys.
        </Item>
        <Item>
          The token is checked with the provider&rsquo;s siteverify API, together with the
          visitor&rsquo;s IP address as the endpoint sees it, and never stored with the message.
        </Item>
      </Bullets>
      <DataTable
        caption="When the check fails, nothing is stored"
        head={['Answer', 'When']}
        rows={[
          [
            refusal(ERRORS.captchaRequired()),
            'The post carries no token: the challenge was not solved.',
          ],
          [
            refusal(ERRORS.captchaFailed()),
            'The provider refused the token (wrong, expired or already used): solve it again.',
          ],
          [
            refusal(ERRORS.captchaUnavailable()),
            'The provider did not answer in time. Retry after `Retry-After` seconds.',
          ],
          [
            refusal(ERRORS.captchaMisconfigured()),
            'The provider refused the form’s secret key: check the keys in the form’s settings.',
          ],
        ]}
      />
      <Note>
        Self-hosting: the function reaches <C>challenges.cloudflare.com</C>, <C>api.hcaptcha.com</C>{' '}
        or <C>www.google.com</C>. For tests, <C>CAPTCHA_VERIFY_URL_OVERRIDE</C> points every check
        at a local server instead; it only takes a <C>127.0.0.1</C> or <C>localhost</C> address and
        must never be set in production.
      </Note>
    </DocSection>
  );
}
