// The signup form of one list for the owner's site: a plain HTML form that posts to the
// newsletter endpoint and lands on the site's "check your inbox" page, and the same form sent with
// fetch for pages that want to stay put. The endpoint reads `email`, an optional `name`, and
// `_gotcha`, a honeypot that people leave empty and bots fill in. Every interpolated value is
// escaped for where it lands (HTML attribute or text, JavaScript string).

export type SignupVariant = 'html' | 'fetch';

/** Where a list's signup form posts: `{supabaseUrl}/functions/v1/newsletter/lists/{listId}`. */
export function listSignupEndpoint(supabaseUrl: string, listId: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/newsletter/lists/${encodeURIComponent(listId)}`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
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

function fields(listId: string): string {
  const id = idPrefix(listId);
  return `  <label for="${id}-email">Email</label>
  <input id="${id}-email" type="email" name="email" required autocomplete="email">
  <label for="${id}-name">Name (optional)</label>
  <input id="${id}-name" type="text" name="name" autocomplete="name">
  <!-- Leave this hidden field empty: it catches bots. -->
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="display:none" aria-hidden="true">
  <button type="submit">Subscribe</button>`;
}

export interface SignupList {
  id: string;
  name: string;
}

/** The signup form's code for the owner's site. */
export function signupCode(variant: SignupVariant, supabaseUrl: string, list: SignupList): string {
  const endpoint = listSignupEndpoint(supabaseUrl, list.id);
  const id = idPrefix(list.id);
  const title = `<!-- ${escapeHtml(list.name).replace(/--/g, '- -')} (tinyback newsletter signup) -->`;
  if (variant === 'html') {
    return `${title}
<form action="${escapeHtml(endpoint)}" method="POST">
${fields(list.id)}
</form>
`;
  }
  return `${title}
<form id="${id}">
${fields(list.id)}
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
        body: JSON.stringify({ email: data.get('email'), name: data.get('name') || undefined }),
      })
        .then(function (response) {
          if (response.ok) {
            form.reset();
            status.textContent = 'Almost done: check your inbox to confirm.';
          } else if (response.status === 429) {
            status.textContent = 'Too many attempts. Please try again in a minute.';
          } else {
            status.textContent = 'That did not work. Check the address and try again.';
          }
        })
        .catch(function () {
          status.textContent = 'Could not connect. Please try again.';
        });
    });
  })();
</script>
`;
}
