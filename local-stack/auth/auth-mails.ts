// The mails Auth sends, composed as GoTrue composes them: with the project's template for that
// mail when config.toml names one (mail-templates.ts: the rendered HTML is the whole mail, no
// plain-text part), else the stand-in's default (GoTrue's wording, plus a plain-text part with
// the link and the code). The links are GoTrue's: `<API_EXTERNAL_URL>/verify?token=<hash>&type=
// <type>&redirect_to=<redirect>`, the redirect query-escaped only when it holds `&`, `=` or `#`.
import type { AuthMailTemplates, NotificationName, TemplateName } from './mail-templates.ts';

export interface ComposedMail {
  subject: string;
  html: string;
  /** Absent when a template made the mail: GoTrue sends the HTML alone. */
  text?: string;
}

/** Go's url.QueryEscape: unreserved characters stay, space is `+`, the rest `%XX`. */
export function goQueryEscape(value: string): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) return c;
    if (c === ' ') return '+';
    return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/** GoTrue's link of a mail (templatemailer getPath, with the CLI's `/auth/v1/verify` path). */
export function verifyLink(
  externalUrl: string,
  hash: string,
  type: 'signup' | 'recovery' | 'email_change',
  redirectTo: string,
): string {
  const redirect = /[&=#]/.test(redirectTo) ? goQueryEscape(redirectTo) : redirectTo;
  return `${externalUrl}/verify?token=${goQueryEscape(hash)}&type=${goQueryEscape(type)}&redirect_to=${redirect}`;
}

/**
 * The mail `name` from its template (`data`: the variables GoTrue gives it), or `fallback` when
 * config.toml has none. A template without `content_path` keeps the default body; one without
 * `subject` keeps the default subject.
 */
export function composeAuthMail(
  templates: AuthMailTemplates | undefined,
  name: TemplateName,
  data: Record<string, string>,
  fallback: ComposedMail,
): ComposedMail {
  const template = templates?.templates[name];
  if (!template) return fallback;
  return {
    subject: template.subject ? template.subject.render(data) : fallback.subject,
    ...(template.body
      ? { html: template.body.render(data) }
      : { html: fallback.html, text: fallback.text }),
  };
}

/** GoTrue's "Your password was changed" notification (default wording). */
const PASSWORD_CHANGED_DEFAULT: ComposedMail = {
  subject: 'Your password was changed',
  html: [
    '<h2>Your password was changed</h2>',
    '',
    '<p>The password for your account was recently changed.</p>',
    "<p>If you didn't make this change, reset your password and contact support immediately.</p>",
    '',
  ].join('\n'),
};

/**
 * A notification that config.toml switches on (`[auth.email.notification.<name>] enabled = true`),
 * or null when it is off.
 */
export function composeNotification(
  templates: AuthMailTemplates | undefined,
  name: NotificationName,
  data: Record<string, string>,
): ComposedMail | null {
  const template = templates?.notifications[name];
  if (!template) return null;
  const fallback = name === 'password_changed' ? PASSWORD_CHANGED_DEFAULT : null;
  if (!fallback) return null;
  return {
    subject: template.subject ? template.subject.render(data) : fallback.subject,
    html: template.body ? template.body.render(data) : fallback.html,
  };
}
