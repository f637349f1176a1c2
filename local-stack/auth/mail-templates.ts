// Auth's own e-mail templates, as Supabase Auth (GoTrue) uses them: `[auth.email.template.<name>]`
// and `[auth.email.notification.<name>]` in supabase/config.toml give a `subject` and a
// `content_path` (an HTML file); both are Go `html/template`s, executed with the mail's variables
// (`{{ .ConfirmationURL }}`, `{{ .Email }}` …). GoTrue sends the rendered HTML alone, as the only
// part of the mail.
//
// The stand-in renders the subset of Go templates that plain mail templates use — text and
// `{{ .Variable }}` actions (with `{{-`/`-}}` trimming and `{{/* comments */}}`) — escaping each
// value as html/template does in its place: HTML text, a quoted attribute, or a URL attribute
// (`href`, `src` …: an unsafe scheme becomes `#ZgotmplZ`, the URL is normalised, and in a query
// it is escaped). HTML comments are dropped with any value in them, as html/template drops them.
// Anything else — other
// actions (`if`, `range`, pipelines, functions), `.Data`, a variable GoTrue does not give that
// mail, a value inside a script, a style, an event handler or an unquoted attribute, a template
// that ends inside a tag — is refused when the stack starts, with the file and the line, instead
// of being rendered differently from Supabase.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The mails GoTrue composes from `[auth.email.template.<name>]`. */
const TEMPLATE_NAMES = [
  'invite',
  'confirmation',
  'recovery',
  'magic_link',
  'email_change',
  'reauthentication',
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** The notifications GoTrue sends when `[auth.email.notification.<name>] enabled = true`. */
const NOTIFICATION_NAMES = [
  'password_changed',
  'email_changed',
  'phone_changed',
  'identity_linked',
  'identity_unlinked',
  'mfa_factor_enrolled',
  'mfa_factor_unenrolled',
] as const;
export type NotificationName = (typeof NOTIFICATION_NAMES)[number];

/** The notifications the stand-in sends (the others are refused when enabled). */
const SERVED_NOTIFICATIONS: readonly NotificationName[] = ['password_changed'];

const LINK_MAIL = [
  'SiteURL',
  'ConfirmationURL',
  'Email',
  'Token',
  'TokenHash',
  'Data',
  'RedirectTo',
];

/** The variables GoTrue passes to each mail (internal/mailer/templatemailer). */
export const VARIABLES: Record<TemplateName | NotificationName, readonly string[]> = {
  invite: LINK_MAIL,
  confirmation: LINK_MAIL,
  recovery: LINK_MAIL,
  magic_link: LINK_MAIL,
  email_change: [...LINK_MAIL, 'NewEmail', 'SendingTo'],
  reauthentication: ['SiteURL', 'Email', 'Token', 'Data'],
  password_changed: ['SiteURL', 'Email', 'Data'],
  email_changed: ['SiteURL', 'Email', 'OldEmail', 'Data'],
  phone_changed: ['SiteURL', 'Email', 'Phone', 'OldPhone', 'Data'],
  identity_linked: ['SiteURL', 'Email', 'Provider', 'Data'],
  identity_unlinked: ['SiteURL', 'Email', 'Provider', 'Data'],
  mfa_factor_enrolled: ['SiteURL', 'Email', 'FactorType', 'Data'],
  mfa_factor_unenrolled: ['SiteURL', 'Email', 'FactorType', 'Data'],
};

/** Variables GoTrue has but the stand-in does not render (a map of the user's metadata). */
const UNRENDERED = new Set(['Data']);

// ------------------------------------------------------------------------------------------------
// Escapers: Go's html/template, byte for byte
// ------------------------------------------------------------------------------------------------

/** htmlEscaper / attrEscaper (html/template's htmlReplacementTable). */
export function goHtmlEscape(value: string): string {
  return value.replace(/[\0"&'+<>]/g, (c) => HTML_TABLE[c]!);
}
const HTML_TABLE: Record<string, string> = {
  '\0': '\uFFFD',
  '"': '&#34;',
  '&': '&amp;',
  "'": '&#39;',
  '+': '&#43;',
  '<': '&lt;',
  '>': '&gt;',
};

/** urlFilter: a URL whose scheme is not http, https or mailto becomes `#ZgotmplZ`. */
export function goUrlFilter(value: string): string {
  const colon = value.indexOf(':');
  if (colon >= 0) {
    const scheme = value.slice(0, colon);
    if (!scheme.includes('/') && !/^(https?|mailto)$/i.test(scheme)) return '#ZgotmplZ';
  }
  return value;
}

const RESERVED = new Set('!#$&*+,/:;=?@[]'.split('').map((c) => c.charCodeAt(0)));
const isHex = (byte: number | undefined) =>
  byte !== undefined &&
  ((byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x46) ||
    (byte >= 0x61 && byte <= 0x66));

/**
 * processURLOnto: percent-encodes every byte of the UTF-8 text that is not unreserved (with
 * `norm`, reserved characters and valid `%XX` escapes stay), in lower-case hex as Go writes it.
 */
function processUrl(value: string, norm: boolean): string {
  const bytes = new TextEncoder().encode(value);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    const keep =
      (norm && RESERVED.has(c)) ||
      c === 0x2d || // -
      c === 0x2e || // .
      c === 0x5f || // _
      c === 0x7e || // ~
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      // Go's check is `i+2 < len(s)`: a valid escape at the very end is encoded again.
      (norm && c === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2]));
    out += keep ? String.fromCharCode(c) : `%${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** urlNormalizer: the URL's path part, reserved characters kept. */
export const goUrlNormalize = (value: string) => processUrl(value, true);
/** urlEscaper: a value inside a URL's query or fragment, everything but unreserved escaped. */
export const goUrlEscape = (value: string) => processUrl(value, false);

// ------------------------------------------------------------------------------------------------
// Where an action stands: a small HTML tokenizer over the template's text
// ------------------------------------------------------------------------------------------------

type UrlPart = 'none' | 'pre' | 'query';
type State =
  | { kind: 'text' }
  | { kind: 'tag'; element: string }
  | { kind: 'attrName'; element: string; attr: string }
  | { kind: 'afterAttrName'; element: string; attr: string }
  | { kind: 'beforeValue'; element: string; attr: string }
  | { kind: 'value'; element: string; attr: string; quote: '"' | "'" | ''; urlPart: UrlPart }
  | { kind: 'comment' }
  | { kind: 'raw'; element: string };

type AttrType = 'url' | 'plain' | 'script' | 'css' | 'srcset' | 'unsafe';

const URL_ATTRS = new Set([
  'action',
  'archive',
  'background',
  'cite',
  'classid',
  'codebase',
  'data',
  'formaction',
  'href',
  'icon',
  'longdesc',
  'manifest',
  'poster',
  'profile',
  'src',
  'usemap',
]);

/** html/template's attrType, for the attributes a mail template has. */
function attrType(rawName: string): AttrType {
  let name = rawName.toLowerCase();
  if (name.startsWith('data-')) name = name.slice(5);
  else if (name.includes(':')) {
    const [prefix, short] = name.split(':', 2) as [string, string];
    if (prefix === 'xmlns') return 'url';
    name = short;
  }
  if (URL_ATTRS.has(name)) return 'url';
  if (name === 'style') return 'css';
  if (name === 'srcset') return 'srcset';
  if (name === 'content' || name === 'http-equiv') return 'unsafe';
  if (name.startsWith('on')) return 'script';
  if (name.includes('src') || name.includes('uri') || name.includes('url')) return 'url';
  return 'plain';
}

const RAW_ELEMENTS = new Set(['script', 'style', 'textarea', 'title']);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/**
 * Runs the tokenizer over `text` from `state`; returns the text as html/template outputs it (HTML
 * comments dropped) and the state after it.
 */
function scan(state: State, text: string): { out: string; state: State } {
  let out = '';
  let s = state;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    switch (s.kind) {
      case 'text': {
        if (text.startsWith('<!--', i)) {
          s = { kind: 'comment' };
          i += 4;
          continue;
        }
        const tag = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)/.exec(text.slice(i));
        if (tag) {
          s = { kind: 'tag', element: tag[1] ? '' : tag[2]!.toLowerCase() };
          out += tag[0];
          i += tag[0].length;
          continue;
        }
        out += c;
        i++;
        continue;
      }
      case 'comment': {
        const end = text.indexOf('-->', i);
        if (end < 0) return { out, state: s };
        i = end + 3;
        s = { kind: 'text' };
        continue;
      }
      case 'raw': {
        const close = new RegExp(`</${s.element}(?=[\\s/>])`, 'i').exec(text.slice(i));
        if (!close) {
          out += text.slice(i);
          return { out, state: s };
        }
        out += text.slice(i, i + close.index + close[0].length);
        i += close.index + close[0].length;
        s = { kind: 'tag', element: '' };
        continue;
      }
      case 'tag':
      case 'afterAttrName': {
        out += c;
        i++;
        if (c === '>') {
          s = RAW_ELEMENTS.has(s.element) ? { kind: 'raw', element: s.element } : { kind: 'text' };
        } else if (c === '=' && s.kind === 'afterAttrName') {
          s = { kind: 'beforeValue', element: s.element, attr: s.attr };
        } else if (!isSpace(c) && c !== '/') {
          s = { kind: 'attrName', element: s.element, attr: c };
        }
        continue;
      }
      case 'attrName': {
        if (isSpace(c) || c === '=' || c === '>' || c === '/') {
          s = { kind: 'afterAttrName', element: s.element, attr: s.attr };
          continue;
        }
        s = { ...s, attr: s.attr + c };
        out += c;
        i++;
        continue;
      }
      case 'beforeValue': {
        if (isSpace(c)) {
          out += c;
          i++;
          continue;
        }
        if (c === '>') {
          s = { kind: 'tag', element: s.element };
          continue;
        }
        const quote = c === '"' || c === "'" ? c : '';
        if (quote) {
          out += c;
          i++;
        }
        s = { kind: 'value', element: s.element, attr: s.attr, quote, urlPart: 'none' };
        continue;
      }
      case 'value': {
        const ends = s.quote ? c === s.quote : isSpace(c) || c === '>';
        if (ends) {
          if (s.quote) {
            out += c;
            i++;
          }
          s = { kind: 'tag', element: s.element };
          continue;
        }
        if (attrType(s.attr) === 'url') {
          if (c === '#' || c === '?') s = { ...s, urlPart: 'query' };
          else if (!isSpace(c) && s.urlPart === 'none') s = { ...s, urlPart: 'pre' };
        }
        out += c;
        i++;
        continue;
      }
    }
  }
  return { out, state: s };
}

/** How a value is escaped where the action stands, or why the stand-in refuses it there. */
function escaperAt(state: State): ((value: string) => string) | string {
  switch (state.kind) {
    case 'text':
      return goHtmlEscape;
    case 'value': {
      if (!state.quote) return 'in an unquoted attribute value';
      const type = attrType(state.attr);
      if (type === 'plain') return goHtmlEscape;
      if (type !== 'url') return `in the ${state.attr} attribute (${type})`;
      if (state.urlPart === 'none') return (v) => goHtmlEscape(goUrlNormalize(goUrlFilter(v)));
      if (state.urlPart === 'pre') return (v) => goHtmlEscape(goUrlNormalize(v));
      return (v) => goHtmlEscape(goUrlEscape(v));
    }
    case 'beforeValue':
      return 'in an unquoted attribute value';
    case 'raw':
      return `inside <${state.element}>`;
    case 'comment':
      // html/template's commentEscaper: nothing (the comment itself is dropped).
      return () => '';
    default:
      return 'inside a tag, outside an attribute value';
  }
}

// ------------------------------------------------------------------------------------------------
// Templates
// ------------------------------------------------------------------------------------------------

type Part = { text: string } | { variable: string; escape: (value: string) => string };

export interface CompiledTemplate {
  /** The variables it uses, in order of first use. */
  readonly variables: string[];
  render(data: Readonly<Record<string, string>>): string;
}

export class TemplateError extends Error {}

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/**
 * Compiles a Go html/template source as GoTrue executes it for the mail `mail` (whose variables
 * are `allowed`); throws a TemplateError saying what and where (`where`: the file or setting).
 */
export function compileTemplate(
  source: string,
  options: { where: string; mail: string; allowed: readonly string[] },
): CompiledTemplate {
  const fail = (index: number, message: string): never => {
    throw new TemplateError(`${options.where}, line ${lineOf(source, index)}: ${message}`);
  };
  const parts: Part[] = [];
  const variables: string[] = [];
  let state: State = { kind: 'text' };
  let pendingText = '';
  const pushText = (text: string) => {
    const scanned = scan(state, text);
    state = scanned.state;
    pendingText += scanned.out;
  };
  let i = 0;
  let trimNext = false;
  while (i <= source.length) {
    const open = source.indexOf('{{', i);
    let text = source.slice(i, open < 0 ? source.length : open);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, '');
    trimNext = false;
    if (open < 0) {
      pushText(text);
      break;
    }
    const close = source.indexOf('}}', open + 2);
    if (close < 0) fail(open, 'unclosed action: "{{" without "}}"');
    let inner = source.slice(open + 2, close);
    if (/^-[ \t\r\n]/.test(inner)) {
      text = text.replace(/[ \t\r\n]+$/, '');
      inner = inner.slice(1);
    }
    if (/[ \t\r\n]-$/.test(inner)) {
      trimNext = true;
      inner = inner.slice(0, -1);
    }
    pushText(text);
    i = close + 2;
    const action = inner.trim();
    if (/^\/\*[\s\S]*\*\/$/.test(action)) continue;
    const variable = /^\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(action)?.[1];
    if (!variable) {
      if (/^\.Data(\.|$)/.test(action))
        fail(
          open,
          `{{ ${action} }}: .Data (the user's metadata) is not rendered by the local stack's Auth`,
        );
      fail(
        open,
        `{{ ${action} }} is not rendered by the local stack's Auth, which renders only ` +
          `{{ .Variable }} actions (${options.allowed.filter((v) => !UNRENDERED.has(v)).join(', ')})`,
      );
    }
    if (UNRENDERED.has(variable!))
      fail(
        open,
        `{{ .${variable} }} (the user's metadata) is not rendered by the local stack's Auth`,
      );
    if (!options.allowed.includes(variable!)) {
      const known = Object.values(VARIABLES).some((list) => list.includes(variable!));
      fail(
        open,
        known
          ? `{{ .${variable} }} is not given to the "${options.mail}" mail by Supabase Auth (it would render empty); ` +
              `it has ${options.allowed.join(', ')}`
          : `unknown variable {{ .${variable} }}: the "${options.mail}" mail has ${options.allowed.join(', ')}`,
      );
    }
    const escape = escaperAt(state);
    if (typeof escape === 'string')
      fail(
        open,
        `{{ .${variable} }} stands ${escape}, where the local stack's Auth does not render values`,
      );
    if (pendingText) parts.push({ text: pendingText });
    pendingText = '';
    parts.push({ variable: variable!, escape: escape as (value: string) => string });
    if (!variables.includes(variable!)) variables.push(variable!);
  }
  if (pendingText) parts.push({ text: pendingText });
  // (Changed by pushText: not narrowed.)
  const end = state as State;
  if (end.kind !== 'text' && end.kind !== 'comment' && end.kind !== 'raw')
    fail(source.length, 'the template ends inside a tag (html/template refuses to execute it)');
  return {
    variables,
    render(data) {
      return parts
        .map((part) => ('text' in part ? part.text : part.escape(data[part.variable] ?? '')))
        .join('');
    },
  };
}

// ------------------------------------------------------------------------------------------------
// config.toml
// ------------------------------------------------------------------------------------------------

interface MailTemplate {
  /** The subject (a template too); null: GoTrue's default subject. */
  subject: CompiledTemplate | null;
  /** The HTML body; null: GoTrue's default mail. */
  body: CompiledTemplate | null;
}

export interface AuthMailTemplates {
  templates: Partial<Record<TemplateName, MailTemplate>>;
  /** Notifications switched on; absent: not sent. */
  notifications: Partial<Record<NotificationName, MailTemplate>>;
}

type Table = Record<string, unknown>;
const table = (v: unknown): Table => (v && typeof v === 'object' ? (v as Table) : {});

function loadOne(
  raw: unknown,
  section: string,
  mail: TemplateName | NotificationName,
  baseDir: string,
): MailTemplate {
  const t = table(raw);
  if (t.content !== undefined && t.content_path === undefined)
    throw new TemplateError(`${section}.content: please use content_path instead`);
  const allowed = VARIABLES[mail];
  let subject: CompiledTemplate | null = null;
  if (t.subject !== undefined) {
    if (typeof t.subject !== 'string') throw new TemplateError(`${section}.subject must be text`);
    subject = compileTemplate(t.subject, { where: `${section}.subject`, mail, allowed });
  }
  let body: CompiledTemplate | null = null;
  if (t.content_path !== undefined && t.content_path !== '') {
    if (typeof t.content_path !== 'string')
      throw new TemplateError(`${section}.content_path must be a path`);
    const file = path.resolve(baseDir, t.content_path);
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch (err) {
      throw new TemplateError(`${section}.content_path: ${(err as Error).message}`);
    }
    body = compileTemplate(source, {
      where: `${section}.content_path ${t.content_path}`,
      mail,
      allowed,
    });
  }
  return { subject, body };
}

/**
 * Reads `[auth.email.template.*]` and `[auth.email.notification.*]`. Paths resolve as the Supabase
 * CLI resolves them: a template's `content_path` from the project folder (the one holding
 * `supabase/`), a notification's from the `supabase/` folder itself.
 */
export function loadAuthMailTemplates(email: Table, supabaseDir: string): AuthMailTemplates {
  const result: AuthMailTemplates = { templates: {}, notifications: {} };
  for (const [name, raw] of Object.entries(table(email.template))) {
    const section = `[auth.email.template.${name}]`;
    if (!(TEMPLATE_NAMES as readonly string[]).includes(name))
      throw new TemplateError(
        `${section} is not a mail of Supabase Auth (its templates: ${TEMPLATE_NAMES.join(', ')})`,
      );
    result.templates[name as TemplateName] = loadOne(
      raw,
      section,
      name as TemplateName,
      path.dirname(supabaseDir),
    );
  }
  for (const [name, raw] of Object.entries(table(email.notification))) {
    const section = `[auth.email.notification.${name}]`;
    if (!(NOTIFICATION_NAMES as readonly string[]).includes(name))
      throw new TemplateError(
        `${section} is not a notification of Supabase Auth (${NOTIFICATION_NAMES.join(', ')})`,
      );
    if (table(raw).enabled !== true) continue;
    if (!SERVED_NOTIFICATIONS.includes(name as NotificationName))
      throw new TemplateError(
        `${section} enabled = true is not supported by the local stack (it sends ${SERVED_NOTIFICATIONS.join(', ')})`,
      );
    result.notifications[name as NotificationName] = loadOne(
      raw,
      section,
      name as NotificationName,
      supabaseDir,
    );
  }
  return result;
}
