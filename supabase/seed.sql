-- Seed data for a new database: the blog posts shown on /blog, and the site's own tinyback form
-- that /custom's project enquiries post to. Runs once, right after the migrations, on a fresh
-- database (`npm run stack -- --reset` or `supabase db reset`).
-- Explicit ids keep the post URLs (/blog/1 …) stable across environments.

insert into public.blog_posts (id, title, category, excerpt, image_url, created_at, content) values
(
  1,
  'Add a contact form to a static site in 5 minutes',
  'guides',
  'Your site is plain HTML on a CDN and you need a contact form. Create a form in the dashboard, paste six lines of markup, and messages land in your inbox and your dashboard.',
  '/blog/contact-form-in-5-minutes.svg',
  '2025-07-15 09:30:00+00',
  $md$Static sites are fast, cheap and safe — until someone asks for a contact form. There is no server to receive the `POST`. tinyback is that server: a small endpoint that stores every submission, e-mails it to you and shows it in your dashboard.

This guide takes you from nothing to a working form in about five minutes.

## What you need

- A tinyback account (the free plan is enough).
- A page you can edit: plain HTML, Hugo, Jekyll, Eleventy, Astro, Next.js static export — anything that outputs a `<form>`.
- The address your site is served from, for example `https://www.example.com`.

## Step 1: create the form

In the dashboard, open **Forms** and click **+ New Form**. Fill in three fields:

| Field | Example | Why it matters |
|---|---|---|
| Form name | Contact page | Shown in your inbox and in the e-mail subject |
| Target e-mail | you@example.com | Where every submission is forwarded |
| Allowed origin | https://www.example.com | Only browsers on this origin may post |

The allowed origin is the scheme and host (plus a port if you use one) — no path. A trailing slash is removed for you, and upper-case letters are lower-cased, so `https://Example.com/` is stored as `https://example.com`.

> `https://example.com` and `https://www.example.com` are **different origins**. Use the one your visitors actually see in the address bar.

After you click **Create**, the form's id (a UUID) appears with the embed code.

## Step 2: paste the form

Point the form's `action` at the endpoint and keep the field names:

```html
<form action="https://<project>.supabase.co/functions/v1/forms/<form-id>" method="POST">
  <label>Name <input name="name" required></label>
  <label>E-mail <input name="email" type="email" required></label>
  <label>Message <textarea name="message" required></textarea></label>
  <button type="submit">Send</button>
</form>
```

If your host supports rewrites you can use the shorter path `/api/forms/<form-id>` on your own domain instead.

`name`, `email` and `message` get their own columns. Any other field you add — `company`, `phone`, `budget` — is stored too and shown with the message, in the order it was sent.

## Step 3: send a test message

Open your page, fill in the form and submit. Three things happen:

1. The submission is stored and appears in **Dashboard → Forms → Messages** straight away, without a reload.
2. An e-mail goes to the target address, with `Reply-To` set to the visitor's e-mail so you can simply answer it.
3. The browser is redirected (`303 See Other`) to a thank-you page.

Want your own thank-you page? Add a hidden `_next` field — see the post on special fields.

## Limits worth knowing

- The request body may be at most **64 KiB**, with at most **50 fields**.
- `name` up to **200** characters, `email` up to **320**, `message` up to **10 000**.
- Each visitor may submit **5 times per minute** and **50 times per day** to the same form.

These are generous for humans and tight for bots. Larger or faster posts get a clear error instead of a silent failure.

## Troubleshooting

- **403 Forbidden** — the page's origin does not match the form's allowed origin. Compare them character by character, including `www.` and the port.
- **404 Not Found** — the form id in the URL is wrong, or the form was deleted.
- **Nothing in your inbox** — check the Messages tab first. If the message is there, the e-mail may be in your spam folder; mark it as "not spam" once.
$md$
),
(
  2,
  'Stop form spam without CAPTCHAs: honeypots and rate limits',
  'tips',
  'CAPTCHAs cost you real visitors. A hidden honeypot field and a per-visitor rate limit stop most bots without asking humans to click on traffic lights.',
  '/blog/stop-form-spam-without-captchas.svg',
  '2025-08-05 14:00:00+00',
  $md$Every public form gets spam, usually within days of going live. The reflex is to add a CAPTCHA — and to lose a share of real visitors who give up on the puzzle, use a screen reader, or block third-party scripts.

tinyback stops most spam with two quiet defences that humans never notice.

## Defence 1: the honeypot

Bots fill in every field they find. A honeypot is a field that people cannot see, so only bots fill it in.

```html
<form action="https://<project>.supabase.co/functions/v1/forms/<form-id>" method="POST">
  <input name="name" required>
  <input name="email" type="email" required>
  <textarea name="message" required></textarea>

  <!-- Hidden from people, tempting for bots -->
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off"
         style="position:absolute; left:-5000px" aria-hidden="true">

  <button type="submit">Send</button>
</form>
```

A few details make it work well:

- Move the field off-screen rather than using `type="hidden"`; many bots skip hidden inputs.
- `tabindex="-1"` keeps keyboard users out of it, `aria-hidden="true"` keeps screen readers quiet, and `autocomplete="off"` stops password managers from filling it.
- `_honey` works as well as `_gotcha`, so forms copied from FormSubmit keep working.

When the honeypot is filled, tinyback answers **exactly as if the submission succeeded**. The bot learns nothing. The entry is kept, flagged as spam, and no e-mail is sent — so you can still check for the rare false positive in the dashboard.

## Defence 2: rate limits

Some bots are smarter and leave the honeypot alone, but they are impatient. tinyback limits each client per form:

| Window | Submissions allowed |
|---|---|
| 1 minute | 5 |
| 1 day | 50 |

Over the limit, the endpoint answers `429 Too Many Requests` with a `Retry-After` header, and nothing is stored. The counters live in Postgres, so they hold no matter how many function instances are running. Client addresses are never stored in the clear: the counters use a salted hash.

## Defence 3: the allowed origin

Every form accepts posts only from its allowed origin. A script on another site — or a bot replaying your form from its own server with a forged origin — gets `403 Forbidden`. It is not a complete defence on its own (a determined bot can fake headers), but it removes a whole class of drive-by abuse.

## What we deliberately do not do

- No fingerprinting and no third-party scripts on your page.
- No "invisible" scoring that silently drops real messages.
- Nothing is deleted: spam is flagged, not destroyed, and you can un-flag it.

## Checklist

1. Add a `_gotcha` field as shown above.
2. Keep the allowed origin exact.
3. Check the spam flag in your Messages tab once a week for the first month.

If a form still attracts targeted spam after that, tell us — optional CAPTCHA support is on the roadmap for exactly that case, and it will stay optional.
$md$
),
(
  3,
  'Self-hosting tinyback on your own Supabase',
  'guides',
  'tinyback is open source and runs on any Supabase project, hosted or self-hosted. Push the migrations, deploy one Edge Function, set a few secrets, and your data never leaves your infrastructure.',
  '/blog/self-hosting-on-supabase.svg',
  '2025-09-10 08:15:00+00',
  $md$tinyback is a small app on top of Supabase: Postgres with row level security, Auth, Realtime and one Edge Function. Everything it needs lives in the repository's `supabase/` folder, so running your own copy is a matter of pointing the Supabase CLI at your project.

## What gets deployed

| Part | Where it lives | What it does |
|---|---|---|
| Migrations | `supabase/migrations/` | Tables, row level security policies, grants and Realtime publication |
| Seed | `supabase/seed.sql` | The blog posts (optional in production) |
| Edge Function `forms` | `supabase/functions/forms/` | The public form endpoint |
| Web app | `src/`, built with Vite | Dashboard, docs and blog; any static host |

Every table has row level security enabled. Each user sees only their own forms and messages, and messages can only be written by the form endpoint itself, never by a browser.

## 1. Create or pick a project

Use a project on supabase.com or your own self-hosted Supabase. Note its URL, anon key and service role key.

## 2. Push the database

```bash
npx supabase login
npx supabase link --project-ref <project-ref>
npx supabase db push
```

`db push` applies the migrations in order and records them, so running it again after an upgrade only applies what is new.

## 3. Deploy the form endpoint

```bash
npx supabase functions deploy forms --no-verify-jwt
```

The endpoint must be public — plain HTML forms cannot send an `Authorization` header — which is why `verify_jwt` is off for this one function. It still checks the form id, the allowed origin, the size limits and the rate limit on every request.

## 4. Set the secrets

The function sends notification e-mails. Hosted Supabase blocks outgoing SMTP ports, so use an HTTP provider there; on a self-hosted stack, SMTP is fine.

```bash
# Hosted Supabase: Resend over HTTPS
npx supabase secrets set MAIL_PROVIDER=resend RESEND_API_KEY=re_xxx \
  MAIL_FROM="tinyback <forms@example.com>" SITE_URL=https://forms.example.com

# Self-hosted: any SMTP server
npx supabase secrets set MAIL_PROVIDER=smtp SMTP_HOST=smtp.example.com SMTP_PORT=587 \
  SMTP_USER=forms SMTP_PASS=secret MAIL_FROM="tinyback <forms@example.com>"
```

`SUPABASE_URL`, `SUPABASE_ANON_KEY` and `SUPABASE_SERVICE_ROLE_KEY` are provided to functions automatically.

## 5. Build and host the web app

```bash
VITE_SUPABASE_URL=https://<project-ref>.supabase.co \
VITE_SUPABASE_ANON_KEY=<anon-key> \
npm run build
```

Upload `dist/` to any static host. If the host supports rewrites, send `/api/forms/*` to `https://<project-ref>.supabase.co/functions/v1/forms/*` so your forms can post to your own domain.

## Developing locally without Docker

`supabase start` needs Docker. The repository ships a small Docker-free stand-in instead:

```bash
npm install
npm start
```

This starts PostgreSQL, the Auth, REST and Realtime stand-ins, the function runner on real Deno, and a mail catcher, then serves the app on `http://127.0.0.1:5173`. It is meant for development and tests only — production always runs on real Supabase.

## Upgrading

Pull the new version, then run `supabase db push` and `supabase functions deploy forms --no-verify-jwt` again. Migrations are never edited after release; changes always arrive as new files.
$md$
),
(
  4,
  'AJAX form submissions with fetch and JSON errors',
  'guides',
  'Keep visitors on the page: submit with fetch, show a success message, and turn tinyback''s JSON errors into helpful messages next to the right field.',
  '/blog/ajax-forms-with-fetch.svg',
  '2025-10-21 16:45:00+00',
  $md$A classic form post reloads the page and redirects. That is robust and works without JavaScript, but many sites prefer to stay on the page and show the result inline. tinyback supports both: ask for JSON and you get JSON.

## The request

Send the form with `fetch` and an `Accept: application/json` header. The body can stay a `FormData` — no need to build JSON yourself.

```js
const form = document.querySelector('#contact');
const status = document.querySelector('#status');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  status.textContent = 'Sending…';
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      body: new FormData(form),
      headers: { Accept: 'application/json' },
    });
    const result = await response.json();
    if (result.ok) {
      form.reset();
      status.textContent = 'Thanks! We will get back to you soon.';
    } else {
      showErrors(result);
    }
  } catch {
    status.textContent = 'Network problem — please try again.';
  }
});
```

You can also send `Content-Type: application/json` with `JSON.stringify(...)`; the endpoint accepts URL-encoded, multipart and JSON bodies alike.

## The responses

Every JSON response has an `ok` flag. Success looks like this:

```json
{ "ok": true, "id": "0b8f3c1e-6a2d-4a7e-9f51-2d1c7e0a9b44" }
```

A failure tells you what went wrong in words, as a stable code, and — for invalid input — per field:

```json
{
  "ok": false,
  "error": "Some fields are invalid.",
  "code": "invalid_fields",
  "fields": { "email": "Enter a valid e-mail address." }
}
```

| Status | Code | What to tell the visitor |
|---|---|---|
| 400 | `invalid_body` | Something went wrong sending the form; try again |
| 403 | `origin_not_allowed` | Nothing — fix the allowed origin in the dashboard |
| 404 | `form_not_found` | Nothing — the form id in your page is wrong |
| 405 | `method_not_allowed` | Nothing — use `POST` |
| 413 | `payload_too_large` | The message is too long |
| 415 | `unsupported_media_type` | Nothing — send form data or JSON |
| 422 | `invalid_fields` | Show `fields[name]` next to each input |
| 429 | `rate_limited` | Too many messages; try again later |

Only 422 and 429 are really about the visitor. The others mean the page or the form settings need fixing, so log them where you will see them.

## Showing field errors

```js
function showErrors(result) {
  for (const [name, message] of Object.entries(result.fields ?? {})) {
    const input = form.elements.namedItem(name);
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.insertAdjacentText('afterend', ` ${message}`);
    }
  }
  status.textContent = result.error;
}
```

## CORS, briefly

The browser only lets your script read the response if the endpoint allows your origin. tinyback answers with `Access-Control-Allow-Origin` set to the form's allowed origin — and only that one — and handles the `OPTIONS` preflight for JSON requests. If `fetch` fails with a CORS error, the allowed origin does not match the page.

## Progressive enhancement

Keep `action` and `method` on the `<form>` element. Without JavaScript the same form still posts normally and redirects; with JavaScript you get the inline experience. One form, both paths.
$md$
),
(
  5,
  'Redirects, subject lines and reply-to: the special fields',
  'tips',
  'Four field names starting with an underscore control what happens after a submission: where the visitor goes, what your e-mail subject says, who you reply to, and how bots are caught.',
  '/blog/special-fields.svg',
  '2025-12-02 10:00:00+00',
  $md$Most fields you add to a form are data: tinyback stores them and lists them in the notification e-mail. A few names are different. They start with an underscore, they are never stored as data, and they change how the submission is handled.

They use the same names as Formspree and FormSubmit, so moving a form over is usually a one-line change to `action`.

## The fields at a glance

| Field | Example value | Effect |
|---|---|---|
| `_next` | `https://www.example.com/thanks` | Where the browser goes after a successful post |
| `_subject` | `New project enquiry` | Subject of the notification e-mail |
| `_replyto` | `jane@example.org` | `Reply-To` of the e-mail (defaults to the `email` field) |
| `_gotcha` | *(left empty)* | Honeypot: if filled, the entry is marked as spam |

## `_next`: your own thank-you page

```html
<input type="hidden" name="_next" value="https://www.example.com/thanks">
```

After a plain (non-JavaScript) post, the visitor is redirected with `303 See Other`. Without `_next` they land on a simple tinyback thank-you page.

For safety, `_next` is honoured only when it points to the form's **allowed origin**. A link to any other site is ignored, so nobody can turn your form into an open redirect for phishing.

## `_subject`: e-mails you can sort

```html
<input type="hidden" name="_subject" value="Website: new quote request">
```

Without it the subject is `New submission: <form name>`. A custom subject makes mail filters easy: one rule per form, straight into the right folder.

## `_replyto`: answer with one click

By default the notification's `Reply-To` is the visitor's `email` field, so pressing **Reply** answers them directly. If your form asks for the address under another name, point `_replyto` at it:

```html
<label>Work e-mail <input name="_replyto" type="email" required></label>
```

Only a valid e-mail address is used; anything else is ignored rather than risking a broken or injected header.

## `_gotcha`: the honeypot

Leave it empty and hide it from people. Bots fill it in, and their submissions are quietly stored as spam without an e-mail. `_honey` is accepted too. See the post on stopping spam without CAPTCHAs for the markup.

## A complete example

```html
<form action="https://<project>.supabase.co/functions/v1/forms/<form-id>" method="POST">
  <input type="hidden" name="_next" value="https://www.example.com/thanks">
  <input type="hidden" name="_subject" value="Website: new quote request">
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off"
         style="position:absolute; left:-5000px" aria-hidden="true">

  <input name="name" placeholder="Your name" required>
  <input name="email" type="email" placeholder="you@example.org" required>
  <select name="budget">
    <option>Under 5k</option>
    <option>5k–20k</option>
    <option>Over 20k</option>
  </select>
  <textarea name="message" required></textarea>
  <button type="submit">Request a quote</button>
</form>
```

Here `budget` is ordinary data: it is stored with the message and listed in the e-mail.

## Things to keep in mind

- Special fields count towards the limit of 50 fields per submission.
- The hidden `userId` field from older embed snippets is accepted and ignored; you can remove it.
- Field names are case-sensitive: `_Next` is ordinary data.
$md$
),
(
  6,
  'What''s new: a live inbox, spam flags and clear limits',
  'updates',
  'Messages now appear the moment they arrive, spam is flagged instead of lost, every limit is documented, and the whole stack runs locally without Docker.',
  '/blog/whats-new-live-inbox.svg',
  '2026-01-20 12:00:00+00',
  $md$The past months were about making tinyback dependable: every honest message arrives, every rejected one gets a clear answer, and you can run the whole thing yourself. Here is what changed.

## Highlights

- **Live inbox.** New messages appear in the dashboard the moment they are stored — no reload. The forms list updates live too, across all your open tabs.
- **Spam is flagged, not lost.** Honeypot hits are stored with a spam flag and no e-mail, so you can still review them. Every message also carries a read flag.
- **Clear limits, clear errors.** Every limit is documented and enforced the same way in the endpoint and in the database.
- **Reliable e-mail.** Notifications go through an outbox: if the mail provider is down, the message is kept and e-mailed later — exactly once.
- **Docker-free development.** `npm install && npm start` runs a local stand-in for Supabase, good enough for development and the full test suite.

## The limits, in one place

| Limit | Value |
|---|---|
| Request body | 64 KiB |
| Fields per submission | 50 |
| `name` | 200 characters |
| `email` | 320 characters |
| `message` | 10 000 characters |
| Submissions per visitor and form | 5 per minute, 50 per day |

## Security, quietly

- Row level security on every table: you see your own forms and messages and nobody else's, enforced by Postgres itself rather than by the app.
- Messages can only be written by the form endpoint. A signed-in user cannot insert or rewrite them — only mark them read or spam, or delete them.
- Allowed origins are normalised (`https://Example.com/` becomes `https://example.com`) so a stray slash no longer breaks a form.
- Newsletter sign-ups are write-only: nobody can read the list through the API, and signing up twice is harmless.

## For developers

JSON responses now always have the same shape:

```json
{ "ok": false, "error": "Too many submissions. Try again in a minute.", "code": "rate_limited" }
```

See the AJAX guide for the full list of status codes and how to show field errors next to the right input.

## Coming next

1. Editing forms from the dashboard, including the allowed origin.
2. The copy-ready embed snippet right after you create a form.
3. Delivery status per message, so you can see when an e-mail was sent.

As always, tinyback is open source. If something gets in your way, open an issue — we read every one.
$md$
);

-- The posts above have explicit ids; new posts continue after the highest one.
select setval(
  pg_get_serial_sequence('public.blog_posts', 'id'),
  (select coalesce(max(id), 0) + 1 from public.blog_posts),
  false
);

-- The site's own account and form: /custom's enquiry form posts to this form
-- (CUSTOM_ENQUIRY_FORM_ID in src/config/site.ts) through the public endpoint, like any
-- customer's site. The account's e-mail is confirmed, so notifications to it need no confirmation
-- link; its password hash is of a discarded random value, so nobody signs in as it. The allowed
-- origin is the development site; a deployment sets its own (`update public.forms set
-- allowed_origin = 'https://your.site' where id = '7b1c2d3e-4f50-4a61-8b72-9c83d4e5f607'`).
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at
) values (
  '00000000-0000-0000-0000-000000000000',
  '5e1f0c2a-7d3b-4c8e-9a6f-1b2c3d4e5f60',
  'authenticated',
  'authenticated',
  'hello@tinyback.tools',
  '$2b$10$ToBcRCSodFBqP3kb8YyUnOAc5/slJaPvkZnjDXanX//BopKC0psHi',
  now(),
  '{"provider": "email", "providers": ["email"]}',
  '{"full_name": "tinyback.tools"}',
  now(),
  now()
);

insert into public.forms (id, user_id, name, target_email, allowed_origin) values (
  '7b1c2d3e-4f50-4a61-8b72-9c83d4e5f607',
  '5e1f0c2a-7d3b-4c8e-9a6f-1b2c3d4e5f60',
  'Custom web enquiries',
  'hello@tinyback.tools',
  'http://127.0.0.1:5173'
);

-- The site's own account takes enquiries without a quota (plans: 20261201100000_plans_and_quotas.sql).
update public.account_plans set plan_id = 'unlimited'
 where user_id = '5e1f0c2a-7d3b-4c8e-9a6f-1b2c3d4e5f60';

-- The site's own newsletter: a list of the site's account, marked as the one the footer signup
-- goes to (set_site_list()). A deployment marks a list of its own account instead, and sends the
-- newsletter from that account's dashboard like any owner's campaign.
insert into public.newsletter_lists (id, user_id, name, from_name, allowed_origin, confirm_message) values (
  '2c4e6a80-1b3d-4f5a-8c7e-9d0f1a2b3c4d',
  '5e1f0c2a-7d3b-4c8e-9a6f-1b2c3d4e5f60',
  'tinyback.tools newsletter',
  'tinyback.tools',
  'http://127.0.0.1:5173',
  'Thanks for signing up for the tinyback.tools newsletter: product news and guides, about once a month.'
);
select public.set_site_list('2c4e6a80-1b3d-4f5a-8c7e-9d0f1a2b3c4d');
