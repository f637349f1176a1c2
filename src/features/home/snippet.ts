// The home page's example of the HTML form snippet a site owner pastes into a page. The dashboard's
// embed code (features/forms/embed-code.ts) follows the same field conventions, both from limits.ts.
import { SPECIAL_FIELDS } from '../../../supabase/functions/_shared/special-fields';
import { formEndpoint } from '../../config/site';

export { formEndpoint };

/** Placeholder shown where a real form id goes. */
export const EXAMPLE_FORM_ID = 'YOUR-FORM-ID';

export interface SnippetOptions {
  supabaseUrl: string;
  formId: string;
  /** Optional page to land on after a successful post (the `_next` field). */
  next?: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** A complete, working contact form: name, email, message and a hidden honeypot. */
export function buildFormSnippet({ supabaseUrl, formId, next }: SnippetOptions): string {
  const action = escapeAttribute(formEndpoint(supabaseUrl, formId));
  const honeypot = SPECIAL_FIELDS.honeypots[0];
  const lines = [
    `<form action="${action}" method="POST">`,
    `  <label for="name">Name</label>`,
    `  <input id="name" name="name" type="text" autocomplete="name" required>`,
    ``,
    `  <label for="email">Email</label>`,
    `  <input id="email" name="email" type="email" autocomplete="email" required>`,
    ``,
    `  <label for="message">Message</label>`,
    `  <textarea id="message" name="message" rows="5" required></textarea>`,
    ``,
    `  <!-- Spam trap: people never see it, bots fill it in. Leave it empty. -->`,
    `  <input type="text" name="${honeypot}" style="display:none" tabindex="-1" autocomplete="off">`,
  ];
  if (next)
    lines.push(
      `  <input type="hidden" name="${SPECIAL_FIELDS.next}" value="${escapeAttribute(next)}">`,
    );
  lines.push(``, `  <button type="submit">Send</button>`, `</form>`);
  return lines.join('\n');
}
