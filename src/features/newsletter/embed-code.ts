// The signup form of one list for the owner's site: a plain HTML form that posts to the
// newsletter endpoint and lands on the site's "check your inbox" page, and the same form sent with
// fetch for pages that want to stay put. The endpoint reads `email`, an optional `name`, and
// `_gotcha`, a honeypot that people leave empty and bots fill in. A list with a CAPTCHA gets the
// provider's script and widget, which adds its token field to the form: the plain form posts it as
// it is, the fetch variant reads it from the form, sends it with the address and resets the widget
// after each send (a token works once). Every interpolated value is escaped for where it lands
// (HTML attribute or text, JavaScript string).
import { SPECIAL_FIELDS } from '../../../supabase/functions/_shared/limits';
import { CAPTCHA_WIDGETS } from '../../config/captcha';
import type { CaptchaProvider } from '../../lib/database';
import { escapeHtml } from '../../lib/escape-html';

export type SignupVariant = 'html' | 'fetch';

/** Where a list's signup form posts: `{supabaseUrl}/functions/v1/newsletter/lists/{listId}`. */
export function listSignupEndpoint(supabaseUrl: string, listId: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/newsletter/lists/${encodeURIComponent(listId)}`;
}

/** A JavaScript string literal that cannot end the <script> element it sits in. */
function jsString(value: string): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Element ids that stay unique when several lists' forms share one page. */
const idPrefix = (listId: string) => `tb-nl-${listId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 8)}`;

/** The field each provider's widget puts its token in (the endpoint's order). */
const TOKEN_FIELDS: Record<CaptchaProvider, string> = {
  turnstile: SPECIAL_FIELDS.captcha[0],
  hcaptcha: SPECIAL_FIELDS.captcha[1],
  recaptcha: SPECIAL_FIELDS.captcha[2],
};

export interface SignupList {
  id: string;
  name: string;
  /** The list's CAPTCHA (null or absent: none) and its public site key. */
  captcha_provider?: CaptchaProvider | null;
  captcha_site_key?: string | null;
}

/** The list's CAPTCHA widget, when it has one with a site key. */
function captchaOf(list: SignupList) {
  return list.captcha_provider && list.captcha_site_key
    ? {
        ...CAPTCHA_WIDGETS[list.captcha_provider],
        siteKey: list.captcha_site_key,
        tokenField: TOKEN_FIELDS[list.captcha_provider],
      }
    : null;
}

type Captcha = NonNullable<ReturnType<typeof captchaOf>>;

/** The provider's script, once per page, before the form. */
function captchaScript(captcha: Captcha | null): string {
  return captcha
    ? `<!-- ${captcha.label}: load it once per page. -->
<script src="${escapeHtml(captcha.script)}" async defer></script>
`
    : '';
}

function fields(listId: string, captcha: Captcha | null): string {
  const id = idPrefix(listId);
  const widget = captcha
    ? `  <!-- CAPTCHA: signups without a solved challenge are refused. -->
  <div class="${escapeHtml(captcha.className)}" data-sitekey="${escapeHtml(captcha.siteKey)}"></div>
`
    : '';
  return `  <label for="${id}-email">Email</label>
  <input id="${id}-email" type="email" name="email" required autocomplete="email">
  <label for="${id}-name">Name (optional)</label>
  <input id="${id}-name" type="text" name="name" autocomplete="name">
  <!-- Leave this hidden field empty: it catches bots. -->
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="display:none" aria-hidden="true">
${widget}  <button type="submit">Subscribe</button>`;
}

/** The signup form's code for the owner's site. */
export function signupCode(variant: SignupVariant, supabaseUrl: string, list: SignupList): string {
  const endpoint = listSignupEndpoint(supabaseUrl, list.id);
  const id = idPrefix(list.id);
  const title = `<!-- ${escapeHtml(list.name).replace(/--/g, '- -')} (tinyback newsletter signup) -->`;
  const captcha = captchaOf(list);
  if (variant === 'html') {
    return `${title}
${captchaScript(captcha)}<form action="${escapeHtml(endpoint)}" method="POST">
${fields(list.id, captcha)}
</form>
`;
  }
  const token = captcha
    ? `, ${jsString(captcha.tokenField)}: data.get(${jsString(captcha.tokenField)}) || undefined`
    : '';
  const reset = captcha
    ? `
        .then(function () {
          // A CAPTCHA token works once: a fresh challenge for the next send.
          if (window[${jsString(captcha.global)}]) window[${jsString(captcha.global)}].reset();
        })`
    : '';
  return `${title}
${captchaScript(captcha)}<form id="${id}">
${fields(list.id, captcha)}
  <p id="${id}-status" role="status"></p>
</form>
<script>
  (function () {
    var form = document.getElementById(${jsString(id)});
    var status = document.getElementById(${jsString(`${id}-status`)});
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var data = new FormData(form);
      if (data.get('_gotcha')) return;
      status.textContent = 'Sending…';
      fetch(${jsString(endpoint)}, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email: data.get('email'), name: data.get('name') || undefined${token} }),
      })
        .then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (result) {
            if (response.ok) {
              form.reset();
              status.textContent = 'Almost done: check your inbox to confirm.';
            } else if (response.status === 429) {
              status.textContent = 'Too many attempts. Please try again in a minute.';
            } else {
              // result.error is a sentence for people (an invalid address, a CAPTCHA to solve).
              status.textContent = result.error || 'That did not work. Check the address and try again.';
            }
          });
        })
        .catch(function () {
          status.textContent = 'Could not connect. Please try again.';
        })${reset};
    });
  })();
</script>
`;
}
