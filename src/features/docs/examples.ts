// The code samples on the docs page, built from the instance's Supabase URL and the endpoint's
// special field names so a copied sample works against this deployment as it is.
import { IDEMPOTENCY, SPECIAL_FIELDS } from './endpoint-facts';

export const FORM_ID_PLACEHOLDER = 'YOUR-FORM-ID';

/** The function URL of a form: POST {SUPABASE_URL}/functions/v1/forms/{formId}. */
export function endpointUrl(supabaseUrl: string, formId = FORM_ID_PLACEHOLDER): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/forms/${formId}`;
}

/**
 * A plain HTML form: works without JavaScript and lands on /thanks or on `_next`. Its optional
 * idempotency key is drawn when the page is shown, so a double click is stored once.
 */
export function htmlFormExample(supabaseUrl: string): string {
  const [honeypot] = SPECIAL_FIELDS.honeypots;
  return `<form action="${endpointUrl(supabaseUrl)}" method="POST">
  <label>Name <input type="text" name="name" required></label>
  <label>E-mail <input type="email" name="email" required></label>
  <label>Message <textarea name="message" required></textarea></label>

  <!-- Optional: where to go after a successful post (must be on your allowed origin) -->
  <input type="hidden" name="${SPECIAL_FIELDS.next}" value="https://example.com/thank-you">
  <!-- Optional: the subject of the notification e-mail -->
  <input type="hidden" name="${SPECIAL_FIELDS.subject}" value="New message from example.com">
  <!-- Spam trap: people never see it, bots fill it in -->
  <input type="text" name="${honeypot}" tabindex="-1" autocomplete="off" style="display:none">
  <!-- Optional: a double click or a resent post is stored and e-mailed once -->
  <input type="hidden" name="${SPECIAL_FIELDS.idempotency}" id="idempotency">
  <script>
    // A new key whenever the page is shown, also when the back button brings it back
    function setKey() {
      document.getElementById('idempotency').value =
        crypto.randomUUID?.() ?? Date.now() + '-' + Math.random();
    }
    setKey();
    addEventListener('pageshow', (event) => event.persisted && setKey());
  </script>

  <button type="submit">Send</button>
</form>`;
}

/**
 * AJAX with fetch and JSON: no page reload, every outcome handled, and one idempotency key per
 * message (kept on a retry, new after a success).
 */
export function fetchExample(supabaseUrl: string): string {
  return `const form = document.querySelector('#contact');
// One key per message: a double click or a retry is stored once.
let key = crypto.randomUUID();

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const response = await fetch('${endpointUrl(supabaseUrl)}', {
      method: 'POST',
      headers: { Accept: 'application/json', '${IDEMPOTENCY.header}': key },
      body: new FormData(form), // or JSON.stringify({...}) with 'Content-Type': 'application/json'
    });
    const result = await response.json();
    if (result.ok) {
      form.reset();
      key = crypto.randomUUID(); // the next message is a new one
      showMessage('Thanks! Your message has been sent.'); // result.id is the entry id
    } else if (response.status === 429 || response.status >= 500) {
      const wait = response.headers.get('Retry-After');
      showMessage(\`Please try again in \${wait ?? 'a few'} seconds.\`);
    } else {
      // result.code is machine-readable, result.error a sentence you can show,
      // result.fields maps each invalid field to its problem.
      showMessage(result.error, result.fields);
    }
  } catch {
    showMessage('Network error: please try again.');
  }
});`;
}

/** A JSON post with curl, for scripts and quick checks. */
export function curlExample(supabaseUrl: string): string {
  return `curl -i '${endpointUrl(supabaseUrl)}' \\
  -H 'Origin: https://example.com' \\
  -H 'Accept: application/json' \\
  -H 'Content-Type: application/json' \\
  -d '{"name":"Ada","email":"ada@example.com","message":"Hello!"}'`;
}

export const SUCCESS_JSON = `{ "ok": true, "id": "8c7e0a52-3f0b-4c4e-9a57-1b2f5d0c6e11" }`;

export const ERROR_JSON = `{
  "ok": false,
  "error": "Some fields are not valid.",
  "code": "invalid_fields",
  "fields": { "email": "Enter a valid e-mail address." }
}`;

/**
 * Rewrites that serve the spec's short path /api/forms/{id} from your own domain. Each appends the
 * visitor to X-Forwarded-For and proves itself with the instance's proxy secret, without which
 * the endpoint counts every visitor behind the rewrite as the rewrite's own address.
 */
export function rewriteExample(supabaseUrl: string): string {
  const functions = `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/forms`;
  return `# Netlify (netlify.toml)
[[redirects]]
  from = "/api/forms/*"
  to = "${functions}/:splat"
  status = 200
  force = true
  headers = { X-Tinyback-Proxy-Secret = "FORMS_PROXY_SECRET" }

# nginx
location /api/forms/ {
  proxy_pass ${functions}/;
  proxy_ssl_server_name on;
  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
  proxy_set_header X-Tinyback-Proxy-Secret "FORMS_PROXY_SECRET";
}`;
}
