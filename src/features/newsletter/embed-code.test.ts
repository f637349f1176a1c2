import { describe, expect, it, vi } from 'vitest';
import { listSignupEndpoint, signupCode, type SignupList } from './embed-code';

const list = { id: '00000000-0000-4000-a100-000000000001', name: 'News <& "updates">' };
const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const inlineScript = (doc: Document) =>
  [...doc.querySelectorAll('script:not([src])')].map((s) => s.textContent!).join('\n');

describe('signupCode', () => {
  it('posts a plain form to the list endpoint with email, name and the _gotcha honeypot', () => {
    const code = signupCode('html', 'https://api.example.com/', list);
    expect(code).toContain(
      `<form action="https://api.example.com/functions/v1/newsletter/lists/${list.id}" method="POST">`,
    );
    expect(code).toContain('name="email" required');
    expect(code).toContain('name="name"');
    expect(code).toContain('name="_gotcha"');
    // The list's name is escaped in the comment that names it.
    expect(code).toContain('News &lt;&amp; &quot;updates&quot;&gt;');
    expect(code).not.toContain('<script');
  });

  it('sends JSON with fetch in the other variant', () => {
    const code = signupCode('fetch', 'https://api.example.com', list);
    expect(code).toContain(
      `fetch("https://api.example.com/functions/v1/newsletter/lists/${list.id}"`,
    );
    expect(code).toContain("'Content-Type': 'application/json'");
    expect(code).toContain('JSON.stringify({ email:');
    expect(code).toContain("if (data.get('_gotcha')) return;");
  });

  it('builds the endpoint from the API address', () => {
    expect(listSignupEndpoint('http://127.0.0.1:54321', 'abc')).toBe(
      'http://127.0.0.1:54321/functions/v1/newsletter/lists/abc',
    );
  });
});

describe('the CAPTCHA widget', () => {
  const on: SignupList = { ...list, captcha_provider: 'turnstile', captcha_site_key: '0x4AAA_b-1' };

  it('is left out while the list has no CAPTCHA, or no site key to draw one with', () => {
    for (const variant of ['html', 'fetch'] as const) {
      expect(signupCode(variant, 'https://api.example.com', list)).not.toMatch(
        /turnstile|hcaptcha|recaptcha|data-sitekey/i,
      );
      expect(
        signupCode(variant, 'https://api.example.com', { ...list, captcha_provider: 'hcaptcha' }),
      ).not.toContain('data-sitekey');
    }
  });

  it.each([
    ['turnstile', 'https://challenges.cloudflare.com/turnstile/v0/api.js', 'cf-turnstile'],
    ['hcaptcha', 'https://js.hcaptcha.com/1/api.js', 'h-captcha'],
    ['recaptcha', 'https://www.google.com/recaptcha/api.js', 'g-recaptcha'],
  ] as const)(
    '%s: its script before the plain form and its widget inside, above the button',
    (provider, script, className) => {
      const doc = parse(
        signupCode('html', 'https://api.example.com', { ...on, captcha_provider: provider }),
      );
      const loader = doc.querySelector(`script[src="${script}"]`)!;
      expect(loader.hasAttribute('async')).toBe(true);
      expect(doc.querySelectorAll('script')).toHaveLength(1);
      const widget = doc.querySelector('form')!.querySelector(`div.${className}`)!;
      expect(widget.getAttribute('data-sitekey')).toBe('0x4AAA_b-1');
      expect(widget.nextElementSibling?.tagName).toBe('BUTTON');
    },
  );

  it.each([
    ['turnstile', 'cf-turnstile-response', 'turnstile'],
    ['hcaptcha', 'h-captcha-response', 'hcaptcha'],
    ['recaptcha', 'g-recaptcha-response', 'grecaptcha'],
  ] as const)(
    '%s with fetch: sends the token field from the form and resets the widget after each send',
    (provider, field, global) => {
      const doc = parse(
        signupCode('fetch', 'https://api.example.com', { ...on, captcha_provider: provider }),
      );
      expect(doc.querySelector('form div[data-sitekey="0x4AAA_b-1"]')).not.toBeNull();
      const inline = inlineScript(doc);
      expect(inline).toContain(`"${field}": data.get("${field}") || undefined`);
      expect(inline).toContain(`window["${global}"].reset()`);
      expect(() => new Function(inline)).not.toThrow();
    },
  );

  it('posts the widget token with the address, shows the refusal and gives a fresh challenge', async () => {
    const doc = document.implementation.createHTMLDocument('signup');
    doc.body.innerHTML = signupCode('fetch', 'https://api.example.com', on);
    const form = doc.querySelector('form')!;
    (form.querySelector('input[name="email"]') as HTMLInputElement).value = 'reader@example.com';
    // What the widget adds to the form once solved.
    const token = doc.createElement('input');
    token.type = 'hidden';
    token.name = 'cf-turnstile-response';
    token.value = 'token-1';
    form.append(token);

    const sent: { url: string; body: unknown }[] = [];
    const fetchStub = (url: string, init: { body: string }) => {
      sent.push({ url, body: JSON.parse(init.body) });
      return Promise.resolve(
        new Response(
          JSON.stringify({
            code: 'captcha',
            error: 'The CAPTCHA could not be verified. Please try it again.',
          }),
          { status: 403, headers: { 'Content-Type': 'application/json' } },
        ),
      );
    };
    let resets = 0;
    const run = new Function('document', 'fetch', 'window', inlineScript(doc));
    run(doc, fetchStub, { turnstile: { reset: () => (resets += 1) } });
    form.dispatchEvent(new Event('submit', { cancelable: true }));

    const status = doc.querySelector('p[role="status"]')!;
    await vi.waitFor(() => expect(resets).toBe(1));
    expect(sent).toEqual([
      {
        url: `https://api.example.com/functions/v1/newsletter/lists/${list.id}`,
        body: { email: 'reader@example.com', 'cf-turnstile-response': 'token-1' },
      },
    ]);
    expect(status.textContent).toBe('The CAPTCHA could not be verified. Please try it again.');
  });

  it('escapes the site key', () => {
    const doc = parse(
      signupCode('html', 'https://api.example.com', {
        ...on,
        captcha_site_key: '"><script>alert(1)</script>',
      }),
    );
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.querySelector('div.cf-turnstile')!.getAttribute('data-sitekey')).toBe(
      '"><script>alert(1)</script>',
    );
  });
});
