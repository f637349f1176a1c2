import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedFetch, embedHtml, formEndpoint, jsString, type EmbedForm } from './embed-code';
import { escapeComment } from '../../lib/escape-html';

const SUPABASE_URL = 'https://abc.supabase.co/';
const form: EmbedForm = {
  id: '0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60',
  name: 'Contact',
  user_id: '7d1f3c2a-1111-4222-8333-944445555666',
  allowed_origin: 'https://your-site.com',
  redirect_url: null,
};
const ACTION = 'https://abc.supabase.co/functions/v1/forms/0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const comments = (doc: Document) => {
  const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_COMMENT);
  const out: string[] = [];
  while (walker.nextNode()) out.push(walker.currentNode.textContent ?? '');
  return out;
};

describe('formEndpoint', () => {
  it('is the function URL of the form, without a doubled slash', () => {
    expect(formEndpoint(SUPABASE_URL, form.id)).toBe(ACTION);
    expect(formEndpoint('http://127.0.0.1:54321', 'a/b')).toBe(
      'http://127.0.0.1:54321/functions/v1/forms/a%2Fb',
    );
  });
});

describe('embedHtml', () => {
  const doc = parse(embedHtml({ supabaseUrl: SUPABASE_URL, form }));
  const el = doc.querySelector('form')!;

  it('posts to the form endpoint', () => {
    expect(doc.querySelectorAll('form')).toHaveLength(1);
    expect(el.getAttribute('action')).toBe(ACTION);
    expect(el.getAttribute('method')).toBe('POST');
  });

  it('carries the owner id as the hidden userId', () => {
    const userId = el.querySelector<HTMLInputElement>('input[name="userId"]')!;
    expect(userId.type).toBe('hidden');
    expect(userId.value).toBe(form.user_id);
  });

  it('has labelled name, email and message fields and a submit button', () => {
    for (const [name, tag, type] of [
      ['name', 'input', 'text'],
      ['email', 'input', 'email'],
      ['message', 'textarea', 'textarea'],
    ]) {
      const field = el.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
      expect(field.tagName.toLowerCase(), name).toBe(tag);
      expect(field.type, name).toBe(type);
      const label = doc.querySelector(`label[for="${field.id}"]`);
      expect(label?.textContent, name).toBeTruthy();
    }
    expect(el.querySelector('button[type="submit"]')?.textContent).toBe('Send');
  });

  it('hides a _gotcha honeypot from people, the keyboard and autofill', () => {
    const trap = el.querySelector<HTMLInputElement>('input[name="_gotcha"]')!;
    expect(trap.type).toBe('text');
    expect(trap.getAttribute('tabindex')).toBe('-1');
    expect(trap.getAttribute('autocomplete')).toBe('off');
    const box = trap.closest('div')!;
    expect(box.getAttribute('aria-hidden')).toBe('true');
    expect(box.getAttribute('style')).toContain('left:-10000px');
  });

  it('offers _next only as an explained, commented-out example on the allowed origin', () => {
    expect(el.querySelector('[name="_next"]')).toBeNull();
    const note = comments(doc).find((c) => c.includes('_next'))!;
    expect(note).toContain('https://your-site.com/thank-you');
    expect(note).toContain("tinyback's thank-you page");
    const withRedirect = embedHtml({
      supabaseUrl: SUPABASE_URL,
      form: { ...form, redirect_url: 'https://your-site.com/merci' },
    });
    expect(withRedirect).toContain('your thank-you page (https://your-site.com/merci)');
  });

  it('escapes the form name and every other value', () => {
    const hostile: EmbedForm = {
      id: '"><script>alert(1)</script>',
      name: 'Évé "quotes" <b>bold</b> --> <script>alert(2)</script> & \'apos\'',
      user_id: '"><img src=x onerror=alert(3)>',
      allowed_origin: 'https://x.test"><b>',
      redirect_url: 'https://x.test/?a=--><script>alert(4)</script>',
    };
    const html = embedHtml({ supabaseUrl: SUPABASE_URL, form: hostile });
    const parsed = parse(html);
    expect(parsed.querySelectorAll('img, b')).toHaveLength(0);
    // The one script is the snippet's own idempotency key, naming only its own field.
    const scripts = parsed.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.textContent).toContain('document.getElementById("tb-scriptal-idempotency")');
    expect(parsed.querySelectorAll('form')).toHaveLength(1);
    expect(parsed.querySelector<HTMLInputElement>('input[name="userId"]')!.value).toBe(
      hostile.user_id,
    );
    expect(parsed.querySelector('form')!.getAttribute('action')).toBe(
      `https://abc.supabase.co/functions/v1/forms/${encodeURIComponent(hostile.id)}`,
    );
    expect(comments(parsed)[0]).toContain(escapeComment(hostile.name));
    expect(comments(parsed)[0]).toContain('Évé "quotes"');
    expect(html).not.toContain('<script>alert');
  });
});

/** The inline script of a snippet, run against `document` with the given browser parts. */
function runInline(code: string, globals: Record<string, unknown>) {
  const script = [...parse(code).querySelectorAll('script:not([src])')]
    .map((s) => s.textContent!)
    .join('\n');
  new Function(...Object.keys(globals), script)(...Object.values(globals));
}

describe('the idempotency key', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  const html = embedHtml({ supabaseUrl: SUPABASE_URL, form });
  const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

  it('is a hidden _idempotency field, empty until the page’s script fills it', () => {
    const field = parse(html).querySelector<HTMLInputElement>('input[name="_idempotency"]')!;
    expect(field.type).toBe('hidden');
    // Without JavaScript the field is sent empty, and the endpoint ignores it.
    expect(field.value).toBe('');
    expect(comments(parse(html)).join('\n')).toContain(
      'within 24 hours is stored and e-mailed once',
    );
  });

  it('is filled once per page load with crypto.randomUUID(), and anew when the page comes back', () => {
    document.body.innerHTML = html;
    let n = 0;
    const listeners: ((event: { persisted: boolean }) => void)[] = [];
    runInline(html, {
      window: {
        crypto: { randomUUID: () => `3b241101-e2bb-4255-8caf-4136c566a96${++n}` },
        addEventListener: (type: string, listener: (typeof listeners)[number]) =>
          type === 'pageshow' && listeners.push(listener),
      },
    });
    const field = document.querySelector<HTMLInputElement>('input[name="_idempotency"]')!;
    expect(field.value).toBe('3b241101-e2bb-4255-8caf-4136c566a961');
    // A first load's pageshow keeps the key; a page restored by the back button gets a new one.
    listeners.forEach((listener) => listener({ persisted: false }));
    expect(field.value).toBe('3b241101-e2bb-4255-8caf-4136c566a961');
    listeners.forEach((listener) => listener({ persisted: true }));
    expect(field.value).toBe('3b241101-e2bb-4255-8caf-4136c566a962');
  });

  it.each([
    ['crypto.getRandomValues', { getRandomValues: (b: Uint8Array) => b.fill(171) }],
    ['Math.random', undefined],
  ])('falls back to 32 random hex digits with %s', (_name, crypto) => {
    document.body.innerHTML = html;
    runInline(html, { window: { crypto, addEventListener: () => undefined } });
    const key = document.querySelector<HTMLInputElement>('input[name="_idempotency"]')!.value;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).toMatch(VALID_KEY);
    if (crypto) expect(key).toBe('ab'.repeat(16));
  });

  it('is an Idempotency-Key header in the fetch variant: kept on a retry, new after a success', async () => {
    const code = embedFetch({ supabaseUrl: SUPABASE_URL, form });
    document.body.innerHTML = code;
    expect(document.querySelector('input[name="_idempotency"]')).toBeNull();
    const answers = [
      { status: 503, body: { ok: false, error: 'Try again.' } },
      { status: 200, body: { ok: true, id: 'e1' } },
      { status: 200, body: { ok: true, id: 'e2' } },
    ];
    const fetch = vi.fn(async (_url: string, _init: { headers: Record<string, string> }) => {
      const answer = answers.shift()!;
      return {
        ok: answer.status < 300,
        status: answer.status,
        headers: new Headers(),
        json: async () => answer.body,
      };
    });
    let n = 0;
    runInline(code, { window: { crypto: { randomUUID: () => `key-${++n}` } }, fetch });
    const el = document.querySelector('form')!;
    const status = document.querySelector('[role="status"]')!;
    for (const expected of ['Please try again', 'Thank you!', 'Thank you!']) {
      status.textContent = '';
      el.dispatchEvent(new Event('submit', { cancelable: true }));
      await vi.waitFor(() => expect(status.textContent).toContain(expected));
    }
    expect(fetch.mock.calls.map(([, init]) => init.headers['Idempotency-Key'])).toEqual([
      'key-1',
      'key-1',
      'key-2',
    ]);
    expect(fetch.mock.calls[0]![1].headers.Accept).toBe('application/json');
  });
});

describe('the fetch variant over the monthly quota', () => {
  it("shows the endpoint's sentence instead of asking to wait weeks, and still waits on a rate limit", async () => {
    const code = embedFetch({ supabaseUrl: SUPABASE_URL, form });
    document.body.innerHTML = code;
    const quota =
      "This form has received all the messages its owner's plan allows this month, so yours was not stored.";
    const answers = [
      {
        status: 429,
        retryAfter: '1209600',
        body: { ok: false, code: 'quota_exceeded', error: quota },
      },
      {
        status: 429,
        retryAfter: '30',
        body: { ok: false, code: 'rate_limited', error: 'Too many.' },
      },
    ];
    const fetch = vi.fn(async () => {
      const answer = answers.shift()!;
      return {
        ok: false,
        status: answer.status,
        headers: new Headers({ 'Retry-After': answer.retryAfter }),
        json: async () => answer.body,
      };
    });
    runInline(code, { window: { crypto: { randomUUID: () => 'key-1' } }, fetch });
    const el = document.querySelector('form')!;
    const status = document.querySelector('[role="status"]')!;
    for (const expected of [quota, 'Please try again in 30 seconds.']) {
      status.textContent = '';
      el.dispatchEvent(new Event('submit', { cancelable: true }));
      await vi.waitFor(() => expect(status.textContent).toBe(expected));
    }
  });
});

describe('embedFetch', () => {
  const code = embedFetch({ supabaseUrl: SUPABASE_URL, form });
  const doc = parse(code);

  it('is the same form plus a status line and a script posting with Accept: application/json', () => {
    const el = doc.querySelector('form')!;
    expect(el.getAttribute('action')).toBe(ACTION);
    expect(el.querySelector('input[name="_gotcha"]')).not.toBeNull();
    expect(el.querySelector('input[name="userId"]')).not.toBeNull();
    const status = doc.querySelector('[role="status"]')!;
    const script = doc.querySelector('script')!.textContent!;
    expect(script).toContain(`document.getElementById(${JSON.stringify(el.id)})`);
    expect(script).toContain(`document.getElementById(${JSON.stringify(status.id)})`);
    expect(script).toContain(`headers: { Accept: 'application/json', "Idempotency-Key": key }`);
    expect(script).toContain('body: new FormData(form)');
    expect(script).toContain('Thank you! Your message has been sent.');
    expect(script).toContain('result.error');
    // Valid JavaScript (compiled, not run).
    expect(() => new Function(script)).not.toThrow();
  });

  it('keeps ids distinct per form, so two forms can share a page', () => {
    const other = parse(
      embedFetch({
        supabaseUrl: SUPABASE_URL,
        form: { ...form, id: 'ffffffff-0000-4000-8000-000000000000' },
      }),
    );
    expect(other.querySelector('form')!.id).not.toBe(doc.querySelector('form')!.id);
  });
});

describe('the CAPTCHA widget', () => {
  const on: EmbedForm = { ...form, captcha_provider: 'turnstile', captcha_site_key: '0x4AAA_b-1' };

  it('is left out while the form has no CAPTCHA', () => {
    for (const code of [
      embedHtml({ supabaseUrl: SUPABASE_URL, form }),
      embedFetch({ supabaseUrl: SUPABASE_URL, form }),
    ]) {
      expect(code).not.toMatch(/turnstile|hcaptcha|recaptcha|data-sitekey/i);
    }
    // A provider without a site key cannot render a widget: nothing half-made.
    const partial = embedHtml({
      supabaseUrl: SUPABASE_URL,
      form: { ...form, captcha_provider: 'hcaptcha' },
    });
    expect(partial).not.toContain('data-sitekey');
  });

  it.each([
    ['turnstile', 'https://challenges.cloudflare.com/turnstile/v0/api.js', 'cf-turnstile'],
    ['hcaptcha', 'https://js.hcaptcha.com/1/api.js', 'h-captcha'],
    ['recaptcha', 'https://www.google.com/recaptcha/api.js', 'g-recaptcha'],
  ] as const)(
    '%s: its script before the form and its widget inside, above the button',
    (provider, script, className) => {
      const doc = parse(
        embedHtml({ supabaseUrl: SUPABASE_URL, form: { ...on, captcha_provider: provider } }),
      );
      const loader = doc.querySelector(`script[src="${script}"]`)!;
      expect(loader.hasAttribute('async')).toBe(true);
      const widget = doc.querySelector('form')!.querySelector(`div.${className}`)!;
      expect(widget.getAttribute('data-sitekey')).toBe('0x4AAA_b-1');
      expect(widget.nextElementSibling?.tagName).toBe('BUTTON');
    },
  );

  it('resets the widget after each fetch send (a token works once), in valid JavaScript', () => {
    const doc = parse(embedFetch({ supabaseUrl: SUPABASE_URL, form: on }));
    expect(doc.querySelector('form div.cf-turnstile')).not.toBeNull();
    const inline = [...doc.querySelectorAll('script:not([src])')]
      .map((s) => s.textContent!)
      .join('\n');
    expect(inline).toContain('window["turnstile"].reset()');
    expect(() => new Function(inline)).not.toThrow();
  });

  it('escapes the site key', () => {
    const hostile = embedHtml({
      supabaseUrl: SUPABASE_URL,
      form: { ...on, captcha_site_key: '"><script>alert(1)</script>' },
    });
    const doc = parse(hostile);
    // The provider's script and the snippet's own idempotency key, nothing else.
    expect(doc.querySelectorAll('script')).toHaveLength(2);
    expect(doc.querySelectorAll('script[src]')).toHaveLength(1);
    expect(doc.querySelector('div.cf-turnstile')!.getAttribute('data-sitekey')).toBe(
      '"><script>alert(1)</script>',
    );
  });
});

describe('jsString', () => {
  it('cannot end a script element or a string', () => {
    const literal = jsString('</script><!-- "\'\u2028\\');
    expect(literal).not.toMatch(/[<>\u2028]/);
    expect(new Function(`return ${literal};`)()).toBe('</script><!-- "\'\u2028\\');
  });
});

describe('the file input', () => {
  const withFiles = (uploads: EmbedForm['form_uploads']) =>
    parse(embedHtml({ supabaseUrl: SUPABASE_URL, form: { ...form, form_uploads: uploads } }));

  it('is left out, and the form posts as before, while uploads are off', () => {
    for (const uploads of [undefined, null, { enabled: false, kinds: ['pdf'], max_files: 3 }]) {
      const doc = withFiles(uploads);
      expect(doc.querySelector('input[type="file"]')).toBeNull();
      expect(doc.querySelector('form')!.hasAttribute('enctype')).toBe(false);
    }
  });

  it('is a labelled file input accepting the kinds the form takes, in a multipart form', () => {
    const doc = withFiles({ enabled: true, kinds: ['image', 'pdf'], max_files: 3 });
    expect(doc.querySelector('form')!.getAttribute('enctype')).toBe('multipart/form-data');
    const input = doc.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.name).toBe('attachment');
    expect(input.accept).toBe('image/*,.pdf,application/pdf');
    expect(input.multiple).toBe(true);
    expect(doc.querySelector(`label[for="${input.id}"]`)!.textContent).toBe(
      'Attachments (up to 3)',
    );
  });

  it('takes one file when the form takes one', () => {
    const input = withFiles({
      enabled: true,
      kinds: ['pdf'],
      max_files: 1,
    }).querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.multiple).toBe(false);
  });

  it('is in the fetch variant too, which uploads files before a post without them', () => {
    const code = embedFetch({
      supabaseUrl: SUPABASE_URL,
      form: { ...form, form_uploads: { enabled: true, kinds: ['image'], max_files: 2 } },
    });
    expect(parse(code).querySelector('input[type="file"]')).not.toBeNull();
    expect(code).toContain("form.action + '/uploads'");
    expect(code).toContain('body: new URLSearchParams(data)');
    // A form without files posts FormData as before.
    expect(embedFetch({ supabaseUrl: SUPABASE_URL, form })).not.toContain('uploadFiles');
  });
});

describe('the fetch variant with files', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  const withFiles: EmbedForm = {
    ...form,
    form_uploads: { enabled: true, kinds: ['image', 'pdf'], max_files: 2 },
  };
  type Call = [string, { method: string; headers: Record<string, string>; body: unknown }];

  /** The embed on a page, with `files` chosen in its file input and fetch answering `answers`. */
  function page(files: File[], answers: { status: number; body: unknown }[]) {
    const code = embedFetch({ supabaseUrl: SUPABASE_URL, form: withFiles });
    document.body.innerHTML = code;
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    Object.defineProperty(input, 'files', { value: files });
    document.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'ada@example.test';
    document.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!.value = 'Hello';
    const fetch = vi.fn(async (..._call: Call) => {
      const answer = answers.shift()!;
      return {
        ok: answer.status < 300,
        status: answer.status,
        headers: new Headers(),
        json: async () => answer.body,
      };
    });
    runInline(code, { window: { crypto: { randomUUID: () => 'key-1' } }, fetch });
    const status = document.querySelector('[role="status"]')!;
    const send = async (expected: string) => {
      status.textContent = '';
      document.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
      await vi.waitFor(() => expect(status.textContent).toContain(expected));
    };
    return { fetch, send };
  }

  const photo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', {
    type: 'image/png',
  });
  const cv = new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' });

  it('asks for upload URLs, PUTs each file, then posts the text fields naming the entry', async () => {
    const { fetch, send } = page(
      [photo, cv],
      [
        {
          status: 200,
          body: {
            ok: true,
            entry: 'entry-1',
            uploads: [
              { name: 'photo.png', path: 'u/f/entry-1/1-photo.png', url: 'https://s.test/1' },
              { name: 'cv.pdf', path: 'u/f/entry-1/2-cv.pdf', url: 'https://s.test/2' },
            ],
          },
        },
        { status: 200, body: { Key: '1' } },
        { status: 200, body: { Key: '2' } },
        { status: 200, body: { ok: true, id: 'entry-1' } },
      ],
    );
    await send('Thank you!');
    const calls = fetch.mock.calls as Call[];
    expect(calls.map(([url, init]) => [url, init.method])).toEqual([
      [`${ACTION}/uploads`, 'POST'],
      ['https://s.test/1', 'PUT'],
      ['https://s.test/2', 'PUT'],
      [ACTION, 'POST'],
    ]);
    expect(JSON.parse(calls[0]![1].body as string)).toEqual({
      files: [
        { name: 'photo.png', size: 4, field: 'attachment' },
        { name: 'cv.pdf', size: 8, field: 'attachment' },
      ],
    });
    expect(calls[1]![1].body).toBe(photo);
    expect(calls[1]![1].headers['Content-Type']).toBe('image/png');
    expect(calls[2]![1].body).toBe(cv);
    const posted = new URLSearchParams(calls[3]![1].body as URLSearchParams);
    expect(posted.get('_uploads_entry')).toBe('entry-1');
    expect(posted.get('email')).toBe('ada@example.test');
    expect(posted.has('attachment')).toBe(false);
    expect(calls[3]![1].headers['Idempotency-Key']).toBe('key-1');
  });

  it("shows the uploads route's refusal and sends nothing more", async () => {
    const { fetch, send } = page(
      [photo],
      [
        {
          status: 413,
          body: { ok: false, code: 'file_too_large', error: 'Each file may be at most 5 MB.' },
        },
      ],
    );
    await send('Each file may be at most 5 MB.');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('says so when an upload fails, and does not post', async () => {
    const { fetch, send } = page(
      [photo],
      [
        {
          status: 200,
          body: {
            ok: true,
            entry: 'e',
            uploads: [{ name: 'photo.png', path: 'p', url: 'https://s.test/1' }],
          },
        },
        { status: 400, body: { statusCode: '409', error: 'Duplicate' } },
      ],
    );
    await send('A file could not be uploaded');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('posts straight away when no file is chosen', async () => {
    const { fetch, send } = page([], [{ status: 200, body: { ok: true, id: 'e' } }]);
    await send('Thank you!');
    const calls = fetch.mock.calls as Call[];
    expect(calls.map(([url]) => url)).toEqual([ACTION]);
    expect(new URLSearchParams(calls[0]![1].body as URLSearchParams).has('_uploads_entry')).toBe(
      false,
    );
  });
});
