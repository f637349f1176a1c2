// Auth's templates as the stand-in renders them: Go html/template's escaping in each place a value
// may stand, config.toml's paths as the CLI resolves them, and a clear refusal at start-up of
// what it does not render.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig, SUPABASE_DIR } from '../config.ts';
import { composeAuthMail, goQueryEscape, verifyLink } from './auth-mails.ts';
import {
  compileTemplate,
  goHtmlEscape,
  goUrlEscape,
  goUrlFilter,
  goUrlNormalize,
  loadAuthMailTemplates,
  TemplateError,
  VARIABLES,
} from './mail-templates.ts';

const compile = (source: string, mail: keyof typeof VARIABLES = 'confirmation') =>
  compileTemplate(source, { where: 'test.html', mail, allowed: VARIABLES[mail] });

describe("Go html/template's escapers", () => {
  it('escape HTML text and attributes with its table', () => {
    expect(goHtmlEscape(`a+b@x.co <i>"O'Neil" & co</i>\0`)).toBe(
      'a&#43;b@x.co &lt;i&gt;&#34;O&#39;Neil&#34; &amp; co&lt;/i&gt;\uFFFD',
    );
  });

  it('filter unsafe URL schemes, normalise and escape URLs byte by byte in lower-case hex', () => {
    expect(goUrlFilter('javascript:alert(1)')).toBe('#ZgotmplZ');
    expect(goUrlFilter('JavaScript:x')).toBe('#ZgotmplZ');
    expect(goUrlFilter('data:text/html,x')).toBe('#ZgotmplZ');
    for (const ok of ['http://a', 'HTTPS://a', 'mailto:a@b.co', '/path:x', 'a/b:c'])
      expect(goUrlFilter(ok)).toBe(ok);
    expect(goUrlNormalize("http://a/ä b?q=1&r='x'#f%41%zz")).toBe(
      'http://a/%c3%a4%20b?q=1&r=%27x%27#f%41%25zz',
    );
    expect(goUrlEscape('a b&c=d/é')).toBe('a%20b%26c%3dd%2f%c3%a9');
  });
});

describe('templates as GoTrue renders them', () => {
  const data = {
    SiteURL: 'http://127.0.0.1:5173',
    ConfirmationURL:
      'http://127.0.0.1:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http://127.0.0.1:5173/dashboard',
    Email: 'ada+1@example.com',
    Token: '012345',
    TokenHash: 'abc',
    RedirectTo: 'http://127.0.0.1:5173/dashboard',
  };

  it('escapes each value for where it stands: text, a URL attribute, a query, a plain attribute', () => {
    const t = compile(
      '<p title="{{ .Email }}">Hi {{ .Email }}</p>' +
        '<a href="{{ .ConfirmationURL }}">go</a>' +
        '<a href="{{ .SiteURL }}/x?to={{ .Email }}">q</a>' +
        '<img src="{{ .RedirectTo }}"><a href=\'{{ .Email }}\'>s</a>',
    );
    expect(t.render(data)).toBe(
      '<p title="ada&#43;1@example.com">Hi ada&#43;1@example.com</p>' +
        '<a href="http://127.0.0.1:54321/auth/v1/verify?token=abc&amp;type=signup&amp;redirect_to=http://127.0.0.1:5173/dashboard">go</a>' +
        '<a href="http://127.0.0.1:5173/x?to=ada%2b1%40example.com">q</a>' +
        '<img src="http://127.0.0.1:5173/dashboard"><a href=\'ada&#43;1@example.com\'>s</a>',
    );
    expect(t.variables).toEqual(['Email', 'ConfirmationURL', 'SiteURL', 'RedirectTo']);
    expect(
      compile('<a href="{{ .RedirectTo }}">x</a>').render({ RedirectTo: 'javascript:alert(1)' }),
    ).toBe('<a href="#ZgotmplZ">x</a>');
  });

  it('drops HTML comments and template comments, and trims around {{- and -}}', () => {
    const t = compile('<!-- note {{ .Token }} -->A  {{- .Token -}}  B{{/* gone */}}<!--x-->C');
    expect(t.render(data)).toBe('A012345BC');
  });

  it('keeps the text as it is, entities and all', () => {
    expect(compile('<p>Tom &amp; Jerry &lt;3 {{ .Token }}</p>').render(data)).toBe(
      '<p>Tom &amp; Jerry &lt;3 012345</p>',
    );
  });

  it('renders a subject like a body (values HTML-escaped)', () => {
    expect(compile('{{ .Token }} is your code for {{ .Email }}').render(data)).toBe(
      '012345 is your code for ada&#43;1@example.com',
    );
  });
});

describe('what the stand-in refuses, with the place', () => {
  type Mail = keyof typeof VARIABLES;
  const refusals: [string, RegExp, Mail?][] = [
    ['{{ .Nope }}', /line 1: unknown variable \{\{ \.Nope \}\}/],
    ['x\n{{ .NewEmail }}', /line 2: \{\{ \.NewEmail \}\} is not given to the "confirmation" mail/],
    [
      '{{ .Token }}',
      /\.Token \}\} is not given to the "password_changed" mail/,
      'password_changed',
    ],
    ['{{ .Data.name }}', /\.Data \(the user's metadata\) is not rendered/],
    ['{{ .Data }}', /the user's metadata\) is not rendered/],
    [
      '{{ if .Email }}x{{ end }}',
      /\{\{ if \.Email \}\} is not rendered .* only \{\{ \.Variable \}\}/,
    ],
    ['{{ .Email | html }}', /is not rendered by the local stack's Auth/],
    ['<p>{{ .Email', /unclosed action/],
    ['<script>var e = "{{ .Email }}"</script>', /stands inside <script>/],
    ['<style>{{ .Email }}</style>', /stands inside <style>/],
    ['<a onclick="{{ .Email }}">', /stands in the onclick attribute \(script\)/],
    ['<a style="{{ .Email }}">', /stands in the style attribute \(css\)/],
    ['<a href={{ .Email }}>', /stands in an unquoted attribute value/],
    ['<a {{ .Email }}>', /stands inside a tag, outside an attribute value/],
    ['<p title="x', /ends inside a tag/],
  ];
  for (const [source, message, mail] of refusals) {
    it(`refuses ${JSON.stringify(source)}`, () => {
      expect(() => compile(source, mail)).toThrow(TemplateError);
      expect(() => compile(source, mail)).toThrow(message);
    });
  }
});

describe('config.toml', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function project(toml: string, files: Record<string, string> = {}) {
    dir = await mkdtemp(path.join(tmpdir(), 'auth-templates-'));
    const supabaseDir = path.join(dir, 'supabase');
    await mkdir(path.join(supabaseDir, 'templates'), { recursive: true });
    await writeFile(path.join(supabaseDir, 'config.toml'), toml);
    for (const [name, content] of Object.entries(files))
      await writeFile(path.join(dir, name), content);
    return supabaseDir;
  }

  it('reads a template from the project folder and a notification from supabase/, as the CLI', async () => {
    const supabaseDir = await project(
      [
        '[auth.email.template.recovery]',
        'subject = "Reset {{ .Email }}"',
        'content_path = "./supabase/templates/recovery.html"',
        '[auth.email.notification.password_changed]',
        'enabled = true',
        'content_path = "./templates/changed.html"',
        '[auth.email.notification.email_changed]',
        'enabled = false',
      ].join('\n'),
      {
        'supabase/templates/recovery.html': '<a href="{{ .ConfirmationURL }}">Reset</a>',
        'supabase/templates/changed.html': 'Changed: {{ .Email }}',
      },
    );
    const config = loadProjectConfig(supabaseDir);
    const { templates, notifications } = config.auth.mailTemplates;
    expect(templates.recovery?.subject?.render({ Email: 'a@b.co' })).toBe('Reset a@b.co');
    expect(notifications.password_changed?.subject).toBeNull();
    expect(notifications.password_changed?.body?.render({ Email: 'a@b.co' })).toBe(
      'Changed: a@b.co',
    );
    expect(notifications.email_changed).toBeUndefined();
  });

  it('refuses, when the stack starts, what it cannot serve as Supabase would', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        '[auth.email.template.confirmation]\ncontent_path = "./supabase/templates/c.html"',
        { 'supabase/templates/c.html': '<p>{{ .Code }}</p>' },
        /supabase\/config\.toml: \[auth\.email\.template\.confirmation\]\.content_path \.\/supabase\/templates\/c\.html, line 1: unknown variable \{\{ \.Code \}\}/,
      ],
      [
        '[auth.email.template.confirmation]\ncontent_path = "./missing.html"',
        {},
        /\[auth\.email\.template\.confirmation\]\.content_path: ENOENT/,
      ],
      [
        '[auth.email.template.welcome]\nsubject = "Hi"',
        {},
        /\[auth\.email\.template\.welcome\] is not a mail of Supabase Auth/,
      ],
      [
        '[auth.email.template.recovery]\ncontent = "<p>x</p>"',
        {},
        /\[auth\.email\.template\.recovery\]\.content: please use content_path instead/,
      ],
      [
        '[auth.email.notification.mfa_factor_enrolled]\nenabled = true',
        {},
        /mfa_factor_enrolled\] enabled = true is not supported by the local stack/,
      ],
    ];
    for (const [toml, files, message] of cases) {
      const supabaseDir = await project(toml, files);
      expect(() => loadProjectConfig(supabaseDir), toml).toThrow(message);
      await rm(dir!, { recursive: true, force: true });
    }
  });

  it("loads this project's own templates, which use only what GoTrue gives each mail", () => {
    const { templates, notifications } = loadProjectConfig(SUPABASE_DIR).auth.mailTemplates;
    expect(Object.keys(templates).sort()).toEqual(['confirmation', 'email_change', 'recovery']);
    expect(Object.keys(notifications)).toEqual(['password_changed']);
    expect(templates.confirmation?.body?.variables).toEqual(
      expect.arrayContaining(['ConfirmationURL', 'Email', 'SiteURL']),
    );
    expect(templates.email_change?.body?.variables).toEqual(
      expect.arrayContaining(['Email', 'NewEmail', 'SendingTo', 'ConfirmationURL']),
    );
    const direct = loadAuthMailTemplates({}, SUPABASE_DIR);
    expect(direct).toEqual({ templates: {}, notifications: {} });
  });
});

describe('the mails composed', () => {
  it("links as GoTrue does: the redirect escaped only when it holds '&', '=' or '#'", () => {
    expect(verifyLink('http://h/auth/v1', 'ab c', 'signup', 'http://s/dashboard')).toBe(
      'http://h/auth/v1/verify?token=ab+c&type=signup&redirect_to=http://s/dashboard',
    );
    expect(verifyLink('http://h/auth/v1', 't', 'recovery', 'http://s/a?b=c')).toBe(
      'http://h/auth/v1/verify?token=t&type=recovery&redirect_to=http%3A%2F%2Fs%2Fa%3Fb%3Dc',
    );
    expect(goQueryEscape('é~')).toBe('%C3%A9~');
  });

  it('uses the template (HTML only) when there is one, else the default with its text part', () => {
    const fallback = { subject: 'Default', html: '<p>d</p>', text: 'd' };
    const templates = loadAuthMailTemplates({}, SUPABASE_DIR);
    expect(composeAuthMail(templates, 'recovery', {}, fallback)).toBe(fallback);
    templates.templates.recovery = {
      subject: null,
      body: compile('<p>{{ .Token }}</p>', 'recovery'),
    };
    expect(composeAuthMail(templates, 'recovery', { Token: '1' }, fallback)).toEqual({
      subject: 'Default',
      html: '<p>1</p>',
    });
  });
});
