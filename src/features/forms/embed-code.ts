// The embed code of one form: a complete, paste-ready HTML form that posts to the form's endpoint,
// and the same form posted with fetch for pages that want to stay put. Follows the endpoint's
// field conventions (supabase/functions/forms/README.md, _shared/limits.ts): name / email /
// message are stored in their own columns, `_gotcha` is a honeypot, `_next` the page to land on,
// and `Accept: application/json` turns the 303 redirect into a JSON answer. Posts are idempotent:
// the plain form carries a `_idempotency` key drawn once per page load by a tiny inline script
// (without JavaScript the field stays empty and is ignored), and the fetch variant sends an
// `Idempotency-Key` header drawn per message, so a double click or a retried post is stored once.
// For a form that takes files, the plain form streams them in its multipart post, and the fetch
// variant uploads them straight to Storage through signed upload URLs before posting.
// A form with CAPTCHA gets the provider's script and widget, which adds its token field to the
// form. Every interpolated value is escaped for where it lands (HTML attribute or text, HTML
// comment, JavaScript string).
import { IDEMPOTENCY, SPECIAL_FIELDS } from '../../../supabase/functions/_shared/limits';
import { CAPTCHA_WIDGETS } from '../../config/captcha';
import { FILE_KIND_ACCEPT, type FileKind } from '../../config/uploads';
import type { CaptchaProvider } from '../../lib/database';
import { escapeComment, escapeHtml } from '../../lib/escape-html';

export interface EmbedForm {
  id: string;
  name: string;
  /** The owner's id: the spec's hidden `userId` field (the endpoint accepts and ignores it). */
  user_id: string;
  allowed_origin: string;
  redirect_url: string | null;
  /** The form's CAPTCHA (null or absent: none) and its public site key. */
  captcha_provider?: CaptchaProvider | null;
  captcha_site_key?: string | null;
  /** The form's file uploads (null or absent, or off: the form takes no files). */
  form_uploads?: { enabled: boolean; kinds: string[]; max_files: number } | null;
}

export interface EmbedOptions {
  supabaseUrl: string;
  form: EmbedForm;
}

export type EmbedVariant = 'html' | 'fetch';

/** The public endpoint a form posts to: `{supabaseUrl}/functions/v1/forms/{formId}`. */
export function formEndpoint(supabaseUrl: string, formId: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/forms/${encodeURIComponent(formId)}`;
}

/**
 * A JavaScript string literal holding `value`, safe inside a <script> element: JSON quoting, plus
 * `<`, `>` and `&` as \u escapes so `</script>` or `<!--` in the value cannot end the element, and
 * the line separators JSON leaves raw.
 */
export function jsString(value: string): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Element ids that stay unique when several forms share one page. */
function idPrefix(formId: string): string {
  return `tb-${
    formId
      .replace(/[^a-zA-Z0-9]/g, '')
      .slice(0, 8)
      .toLowerCase() || 'form'
  }`;
}

/** Where a successful plain post lands, in words, for the `_next` comment. */
function landingPage(form: EmbedForm): string {
  return form.redirect_url
    ? `your thank-you page (${escapeComment(form.redirect_url)})`
    : "tinyback's thank-you page";
}

/** The form's CAPTCHA widget, when it has one with a site key. */
function captchaOf(form: EmbedForm) {
  return form.captcha_provider && form.captcha_site_key
    ? { ...CAPTCHA_WIDGETS[form.captcha_provider], siteKey: form.captcha_site_key }
    : null;
}

/**
 * A JavaScript function expression returning a new idempotency key: a random UUID, or 32 random
 * hex digits where `crypto.randomUUID` is missing (pages served over plain http, older browsers).
 * ES5, like the rest of the snippet, indented by `indent`.
 */
function newKeyFunction(indent: string): string[] {
  return [
    `function () {`,
    `  var c = window.crypto, b = new Uint8Array(16), i;`,
    `  if (c && c.randomUUID) return c.randomUUID();`,
    `  if (c && c.getRandomValues) c.getRandomValues(b);`,
    `  else for (i = 0; i < 16; i++) b[i] = Math.random() * 256;`,
    `  return Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');`,
    `}`,
  ].map((line, i) => (i === 0 ? line : indent + line));
}

/**
 * The hidden idempotency field of the plain form and the inline script that fills it when the
 * page is shown: on load, and again when the back button brings the page back from the browser's
 * cache, where a new message must not pass for the one already sent.
 */
function idempotencyField(prefix: string): string[] {
  const fieldId = `${prefix}-idempotency`;
  return [
    `  <!-- Sent once: a double click or a resent post within ${IDEMPOTENCY.windowHours} hours is stored and e-mailed once.`,
    `       Filled when the page is shown; without JavaScript it stays empty and is ignored. -->`,
    `  <input id="${fieldId}" type="hidden" name="${SPECIAL_FIELDS.idempotency}" value="">`,
    `  <script>`,
    `    (function (field, newKey) {`,
    `      field.value = newKey();`,
    `      window.addEventListener('pageshow', function (event) { if (event.persisted) field.value = newKey(); });`,
    `    })(document.getElementById(${jsString(fieldId)}), ${newKeyFunction('    ').join('\n')});`,
    `  </script>`,
  ];
}

/** The file input of a form with uploads on: its `accept` hint from the kinds the form takes. */
function fileInput(form: EmbedForm, prefix: string): string[] {
  const uploads = form.form_uploads;
  if (!uploads?.enabled) return [];
  const accept = uploads.kinds
    .filter((kind): kind is FileKind => Object.hasOwn(FILE_KIND_ACCEPT, kind))
    .map((kind) => FILE_KIND_ACCEPT[kind])
    .join(',');
  const many = uploads.max_files > 1;
  return [
    `  <label for="${prefix}-files">${many ? `Attachments (up to ${uploads.max_files})` : 'Attachment'}</label>`,
    `  <input id="${prefix}-files" name="attachment" type="file" accept="${escapeHtml(accept)}"${many ? ' multiple' : ''}>`,
    ``,
  ];
}

/** The <form> element shared by both variants (with the CAPTCHA script before it). */
function formMarkup(
  { supabaseUrl, form }: EmbedOptions,
  id: string,
  { idempotencyField: withKeyField }: { idempotencyField: boolean },
): string[] {
  const prefix = idPrefix(form.id);
  const honeypot = SPECIAL_FIELDS.honeypots[0];
  const example = `${form.allowed_origin.replace(/\/+$/, '')}/thank-you`;
  const captcha = captchaOf(form);
  return [
    `<!-- tinyback form "${escapeComment(form.name)}": submissions are stored and e-mailed to you. -->`,
    ...(captcha
      ? [
          `<!-- ${captcha.label}: load it once per page. -->`,
          `<script src="${escapeHtml(captcha.script)}" async defer></script>`,
        ]
      : []),
    `<form${id ? ` id="${escapeHtml(id)}"` : ''} action="${escapeHtml(formEndpoint(supabaseUrl, form.id))}" method="POST"${form.form_uploads?.enabled ? ' enctype="multipart/form-data"' : ''}>`,
    `  <input type="hidden" name="userId" value="${escapeHtml(form.user_id)}">`,
    ...(withKeyField ? idempotencyField(prefix) : []),
    ``,
    `  <label for="${prefix}-name">Name</label>`,
    `  <input id="${prefix}-name" name="name" type="text" autocomplete="name" required>`,
    ``,
    `  <label for="${prefix}-email">Email</label>`,
    `  <input id="${prefix}-email" name="email" type="email" autocomplete="email" required>`,
    ``,
    `  <label for="${prefix}-message">Message</label>`,
    `  <textarea id="${prefix}-message" name="message" rows="5" required></textarea>`,
    ``,
    ...fileInput(form, prefix),
    `  <!-- Spam trap: hidden from people, filled in by bots. Leave it empty. -->`,
    `  <div aria-hidden="true" style="position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden">`,
    `    <label for="${prefix}-${honeypot}">Leave this field empty</label>`,
    `    <input id="${prefix}-${honeypot}" type="text" name="${honeypot}" tabindex="-1" autocomplete="off">`,
    `  </div>`,
    ``,
    `  <!-- Optional: the page to show after sending (it must be on ${escapeComment(form.allowed_origin)}).`,
    `       Without it, visitors land on ${landingPage(form)}.`,
    `  <input type="hidden" name="${SPECIAL_FIELDS.next}" value="${escapeHtml(example)}">`, // no < or >: safe in the comment too
    `  -->`,
    ``,
    ...(captcha
      ? [
          `  <!-- CAPTCHA: posts without a solved challenge are refused. -->`,
          `  <div class="${escapeHtml(captcha.className)}" data-sitekey="${escapeHtml(captcha.siteKey)}"></div>`,
          ``,
        ]
      : []),
    `  <button type="submit">Send</button>`,
  ];
}

/** A plain HTML form: works without JavaScript; the browser follows the endpoint's redirect. */
export function embedHtml(options: EmbedOptions): string {
  return [...formMarkup(options, '', { idempotencyField: true }), `</form>`].join('\n');
}

/**
 * The script part that sends a form's chosen files straight to Storage before the post: it asks
 * the endpoint's uploads route for one signed upload URL per file (`{ files: [{ name, size,
 * field }] }`), PUTs each file to its URL, then takes the files out of the post and names the
 * entry the route answered instead. Answers the failed request's response and JSON, or null.
 */
function directUploadFunction(): string[] {
  return [
    `    // Files go straight to storage through upload URLs the endpoint hands out for them; the`,
    `    // post then carries the text fields and names the uploaded files' entry.`,
    `    async function uploadFiles(data) {`,
    `      var chosen = [];`,
    `      Array.prototype.forEach.call(form.querySelectorAll('input[type="file"]'), function (input) {`,
    `        Array.prototype.forEach.call(input.files || [], function (file) {`,
    `          chosen.push({ field: input.name, file: file });`,
    `        });`,
    `        data.delete(input.name);`,
    `      });`,
    `      if (!chosen.length) return null;`,
    `      status.textContent = 'Uploading…';`,
    `      var asked = await fetch(form.action + '/uploads', {`,
    `        method: 'POST',`,
    `        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },`,
    `        body: JSON.stringify({ files: chosen.map(function (c) { return { name: c.file.name, size: c.file.size, field: c.field }; }) }),`,
    `      });`,
    `      var granted = await asked.json().catch(function () { return {}; });`,
    `      if (!asked.ok || !granted.ok) return { response: asked, result: granted };`,
    `      for (var i = 0; i < chosen.length; i++) {`,
    `        var put = await fetch(granted.uploads[i].url, {`,
    `          method: 'PUT',`,
    `          headers: { 'Content-Type': chosen[i].file.type || 'application/octet-stream' },`,
    `          body: chosen[i].file,`,
    `        });`,
    `        if (!put.ok) return { response: put, result: { error: 'A file could not be uploaded: please try again.' } };`,
    `      }`,
    `      data.append(${jsString(SPECIAL_FIELDS.uploadsEntry)}, granted.entry);`,
    `      status.textContent = 'Sending…';`,
    `      return null;`,
    `    }`,
  ];
}

/**
 * The form posted with fetch and `Accept: application/json`: the visitor stays on the page and
 * sees success or the endpoint's error message in a live region. Each message carries an
 * `Idempotency-Key`, kept while it is retried and drawn afresh once it has been sent. A form
 * that takes files uploads them straight to Storage first (directUploadFunction) and posts its
 * text fields without them.
 */
export function embedFetch(options: EmbedOptions): string {
  const prefix = idPrefix(options.form.id);
  const formId = prefix;
  const statusId = `${prefix}-status`;
  const captcha = captchaOf(options.form);
  const uploads = options.form.form_uploads?.enabled === true;
  return [
    ...formMarkup(options, formId, { idempotencyField: false }),
    `  <p id="${statusId}" role="status"></p>`,
    `</form>`,
    ``,
    `<script>`,
    `  (function () {`,
    `    var form = document.getElementById(${jsString(formId)});`,
    `    var status = document.getElementById(${jsString(statusId)});`,
    `    var newKey = ${newKeyFunction('    ').join('\n')};`,
    `    // One key per message: a double click or a retry after an error is stored once.`,
    `    var key = newKey();`,
    ...(uploads ? directUploadFunction() : []),
    `    form.addEventListener('submit', async function (event) {`,
    `      event.preventDefault();`,
    `      var button = form.querySelector('button[type="submit"]');`,
    `      button.disabled = true;`,
    `      status.textContent = 'Sending…';`,
    `      try {`,
    ...(uploads
      ? [
          `        var data = new FormData(form);`,
          `        var failed = await uploadFiles(data);`,
          `        var response = failed ? failed.response : await fetch(form.action, {`,
          `          method: 'POST',`,
          `          headers: { Accept: 'application/json', ${jsString(IDEMPOTENCY.header)}: key },`,
          `          body: new URLSearchParams(data),`,
          `        });`,
          `        var result = failed ? failed.result : await response.json().catch(function () { return {}; });`,
        ]
      : [
          `        var response = await fetch(form.action, {`,
          `          method: 'POST',`,
          `          headers: { Accept: 'application/json', ${jsString(IDEMPOTENCY.header)}: key },`,
          `          body: new FormData(form),`,
          `        });`,
          `        var result = await response.json().catch(function () { return {}; });`,
        ]),
    `        if (response.ok && result.ok) {`,
    `          form.reset();`,
    `          key = newKey(); // the next message is a new one`,
    `          status.textContent = 'Thank you! Your message has been sent.';`,
    `        } else if ((response.status === 429 && result.code !== 'quota_exceeded') || response.status >= 500) {`,
    `          // A moment's wait helps here; a form over its owner's monthly quota says so below.`,
    `          var wait = response.headers.get('Retry-After');`,
    `          status.textContent = 'Please try again in ' + (wait || 'a few') + ' seconds.';`,
    `        } else {`,
    `          // result.error is a sentence for people; result.fields names each invalid field.`,
    `          status.textContent = result.error || 'Your message could not be sent.';`,
    `        }`,
    `      } catch (error) {`,
    `        status.textContent = 'Network error: please try again.';`,
    `      } finally {`,
    `        button.disabled = false;`,
    ...(captcha
      ? [
          `        // A CAPTCHA token works once: a fresh challenge for the next send.`,
          `        if (window[${jsString(captcha.global)}]) window[${jsString(captcha.global)}].reset();`,
        ]
      : []),
    `      }`,
    `    });`,
    `  })();`,
    `</script>`,
  ].join('\n');
}

export function embedCode(variant: EmbedVariant, options: EmbedOptions): string {
  return variant === 'html' ? embedHtml(options) : embedFetch(options);
}
