// The tracker as it ships (public/tb.js, which scripts/write-tracker.test.ts holds to this folder's
// source), run in a fresh jsdom page per test on a site of its own: what it sends, when, and that
// it leaves the visitor's device as it found it. sendBeacon and fetch are stubbed at the edge.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it, vi, type Mock } from 'vitest';
import {
  TRACKER_FILE,
  TRACKER_QUEUE_SNIPPET,
  collectUrl,
  trackerSnippet,
  type TrackerOption,
} from '../../../config/analytics-tracker';
import { formEndpoint } from '../../../config/site';

// Vitest runs from the project root (jsdom gives this module an http: URL, not a file path).
const TRACKER = readFileSync(path.join(process.cwd(), 'public', TRACKER_FILE), 'utf8');
const SUPABASE_URL = 'https://project.supabase.example';
const API = collectUrl(SUPABASE_URL);
const SITE_ID = 'site-1';

type PageWindow = Window & typeof globalThis & { tinyback: (name: string, props?: object) => void };
interface Page {
  window: PageWindow;
  document: Document;
  /** The bodies sent, parsed. */
  sent: () => Record<string, unknown>[];
  beacon: Mock;
}

// jsdom ships without type declarations; this is the part of it the tests use.
const { JSDOM } = createRequire(path.join(process.cwd(), 'package.json'))('jsdom') as {
  JSDOM: new (
    html: string,
    options: { url: string; referrer?: string; runScripts: 'outside-only' | 'dangerously' },
  ) => { window: PageWindow };
};

/**
 * A page at `url` with the owner's snippet (and `body`), the tracker not yet run. `before` runs
 * first in the page, as a site's own earlier script would.
 */
function page({
  url = 'https://www.example.com/pricing?utm_source=newsletter',
  referrer = 'https://news.example.org/item?id=1',
  options = [],
  body = '',
  beacon = () => true,
}: {
  url?: string;
  referrer?: string;
  options?: TrackerOption[];
  body?: string;
  beacon?: (url: string, body: string) => boolean;
} = {}): Page & { run: () => void } {
  const snippet = trackerSnippet({
    siteUrl: 'https://tinyback.example',
    siteId: SITE_ID,
    supabaseUrl: SUPABASE_URL,
    options,
  });
  const { window } = new JSDOM(`<!doctype html><head>${snippet}</head><body>${body}</body>`, {
    url,
    referrer: referrer || undefined,
    runScripts: 'outside-only',
  });
  const sendBeacon = vi.fn(beacon);
  Object.defineProperty(window.navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
  return {
    window,
    document: window.document,
    beacon: sendBeacon,
    sent: () =>
      sendBeacon.mock.calls.map(([to, data]) => {
        expect(to).toBe(API);
        // A string body: the browser sends it as text/plain, a request without a preflight.
        expect(typeof data).toBe('string');
        return JSON.parse(data as string) as Record<string, unknown>;
      }),
    run: () => window.eval(TRACKER),
  };
}

function started(options?: Parameters<typeof page>[0]): Page {
  const p = page(options);
  p.run();
  return p;
}

const names = (p: Page) => p.sent().map((event) => event.n);

describe('the tracker', () => {
  it('sends one page view on load with the site, page, referrer, screen width and time zone', () => {
    const p = started();
    expect(p.sent()).toEqual([
      {
        s: SITE_ID,
        n: 'pageview',
        u: 'https://www.example.com/pricing?utm_source=newsletter',
        r: 'https://news.example.org/item?id=1',
        w: p.window.screen.width,
        z: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    ]);
    expect(Number.isInteger(p.sent()[0].w)).toBe(true);
  });

  it('sends an empty referrer when there is none', () => {
    const p = started({ referrer: '' });
    expect(p.sent()[0].r).toBe('');
  });

  it('never sends the part after #, and cuts long addresses to what the endpoint reads', () => {
    const p = started({
      url: `https://www.example.com/welcome?utm_source=mail&q=${'x'.repeat(2000)}#access_token=secret`,
      referrer: `https://search.example.net/?q=${'y'.repeat(2000)}`,
    });
    const [event] = p.sent();
    expect(event.u).toMatch(/^https:\/\/www\.example\.com\/welcome\?utm_source=mail&q=x+$/);
    expect(String(event.u)).toHaveLength(800);
    expect(event.r).toMatch(/^https:\/\/search\.example\.net\/\?q=y+$/);
    expect(String(event.r)).toHaveLength(200);
    p.window.history.pushState({}, '', '/next#section');
    expect(p.sent()[1].u).toBe('https://www.example.com/next');
  });

  it('counts a pushState to a new path, not one to the same path', () => {
    const p = started();
    p.window.history.pushState({}, '', '/docs');
    expect(names(p)).toEqual(['pageview', 'pageview']);
    expect(p.sent()[1].u).toBe('https://www.example.com/docs');
    p.window.history.pushState({}, '', '/docs?tab=2');
    p.window.history.pushState({}, '', '/docs#usage');
    expect(names(p)).toEqual(['pageview', 'pageview']);
  });

  it('counts a replaceState only when it changes the path', () => {
    const p = started();
    p.window.history.replaceState({ scroll: 1 }, '');
    expect(names(p)).toEqual(['pageview']);
    p.window.history.replaceState({}, '', '/signup');
    expect(names(p)).toEqual(['pageview', 'pageview']);
    expect(p.sent()[1].u).toBe('https://www.example.com/signup');
  });

  it('counts going back to another path (popstate)', async () => {
    const p = started();
    p.window.history.pushState({}, '', '/docs');
    p.window.history.back();
    await vi.waitFor(() => expect(names(p)).toHaveLength(3));
    expect(p.sent()[2]).toMatchObject({
      n: 'pageview',
      u: 'https://www.example.com/pricing?utm_source=newsletter',
    });
  });

  it('does not count a popstate that stays on the path', () => {
    const p = started();
    p.window.dispatchEvent(new p.window.PopStateEvent('popstate'));
    expect(names(p)).toEqual(['pageview']);
  });

  it('counts a page shown again from the back/forward cache', () => {
    const p = started();
    p.window.dispatchEvent(new p.window.PageTransitionEvent('pageshow', { persisted: true }));
    p.window.dispatchEvent(new p.window.PageTransitionEvent('pageshow', { persisted: false }));
    expect(names(p)).toEqual(['pageview', 'pageview']);
  });

  it("sends a custom event with tinyback('signup') and its props", () => {
    const p = started();
    p.window.tinyback('signup');
    p.window.tinyback('download', { file: 'guide.pdf' });
    expect(p.sent().slice(1)).toEqual([
      expect.objectContaining({
        s: SITE_ID,
        n: 'signup',
        u: 'https://www.example.com/pricing?utm_source=newsletter',
      }),
      expect.objectContaining({ n: 'download', p: { file: 'guide.pdf' } }),
    ]);
    expect(p.sent()[1]).not.toHaveProperty('p');
  });

  it('sends the calls a page made before the tracker loaded, after the page view', () => {
    const p = page();
    const queue = /<script>(.*)<\/script>/.exec(TRACKER_QUEUE_SNIPPET)![1];
    p.window.eval(queue);
    p.window.tinyback('early');
    p.window.tinyback('plan', { plan: 'pro' });
    p.run();
    expect(p.sent().map(({ n, p: props }) => [n, props])).toEqual([
      ['pageview', undefined],
      ['early', undefined],
      ['plan', { plan: 'pro' }],
    ]);
    p.window.tinyback('later');
    expect(names(p).at(-1)).toBe('later');
  });

  describe('outbound links', () => {
    const LINKS = `<a id="out" href="https://other.example.net/page"><span>Other site</span></a>
      <a id="in" href="/about">About</a>
      <a id="mail" href="mailto:hi@example.com">Mail</a>`;

    it('are not counted unless the script tag has data-outbound', () => {
      const p = started({ body: LINKS });
      p.document.addEventListener('click', (event) => event.preventDefault());
      p.document.querySelector<HTMLElement>('#out span')!.click();
      expect(names(p)).toEqual(['pageview']);
    });

    it('with data-outbound, count clicks and middle clicks on links to other sites only', () => {
      const p = started({ body: LINKS, options: ['outbound'] });
      // Navigation is not part of jsdom; the click event is what matters.
      p.document.addEventListener('click', (event) => event.preventDefault());
      p.document.querySelector<HTMLElement>('#out span')!.click();
      p.document.querySelector<HTMLElement>('#in')!.click();
      p.document.querySelector<HTMLElement>('#mail')!.click();
      const out = p.document.querySelector('#out')!;
      out.dispatchEvent(new p.window.MouseEvent('auxclick', { bubbles: true, button: 1 }));
      out.dispatchEvent(new p.window.MouseEvent('auxclick', { bubbles: true, button: 2 }));
      expect(p.sent().slice(1)).toEqual([
        expect.objectContaining({ n: 'outbound', p: { url: 'https://other.example.net/page' } }),
        expect.objectContaining({ n: 'outbound', p: { url: 'https://other.example.net/page' } }),
      ]);
    });

    it('count a click whose event the page stops', () => {
      const p = started({ body: LINKS, options: ['outbound'] });
      p.document.querySelector('#out')!.addEventListener('click', (event) => {
        event.preventDefault();
        event.stopPropagation();
      });
      p.document.querySelector<HTMLElement>('#out')!.click();
      expect(names(p)).toEqual(['pageview', 'outbound']);
    });
  });

  describe('form submits', () => {
    const FORMS = `<form id="contact"><input name="name"><input name="id"></form>
      <form name="newsletter"></form>
      <form></form>`;

    const submitAll = (p: Page) => {
      for (const form of p.document.querySelectorAll('form')) {
        form.addEventListener('submit', (event) => event.preventDefault());
        form.requestSubmit();
      }
    };

    it('are not counted unless the script tag has data-forms', () => {
      const p = started({ body: FORMS });
      submitAll(p);
      expect(names(p)).toEqual(['pageview']);
    });

    it('with data-forms, are counted with the form’s id or name', () => {
      const p = started({ body: FORMS, options: ['forms'] });
      submitAll(p);
      expect(
        p
          .sent()
          .slice(1)
          .map(({ n, p: props }) => [n, props]),
      ).toEqual([
        ['form', { form: 'contact' }],
        ['form', { form: 'newsletter' }],
        ['form', undefined],
      ]);
    });
  });

  describe('forms posting to the form endpoint', () => {
    const ENDPOINT = formEndpoint(SUPABASE_URL, '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f');
    const FORMS = `<form id="ours" action="${ENDPOINT}" method="POST"><input name="message"></form>
      <form id="elsewhere" action="https://other.example.net/functions/v1/forms/x"></form>
      <form id="collect" action="${SUPABASE_URL}/functions/v1/analytics/collect"></form>
      <form id="plain"></form>`;
    const hidden = (form: HTMLFormElement) =>
      [...form.querySelectorAll('input[type=hidden]')].map((input) => [
        (input as HTMLInputElement).name,
        (input as HTMLInputElement).value,
      ]);
    /** Submits like a page whose own handler reads the form as the embed's script does. */
    const submit = (p: Page, id: string) => {
      const form = p.document.getElementById(id) as HTMLFormElement;
      let read: [string, unknown][] = [];
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        read = [...new p.window.FormData(form).entries()];
      });
      form.requestSubmit();
      return { form, read };
    };

    it('get the site, the page and the referrer host as hidden fields, before the page reads them', () => {
      const p = started({
        body: FORMS,
        url: 'https://www.example.com/contact?x=1#top',
        referrer: 'https://news.example.org/item?id=1',
      });
      const { form, read } = submit(p, 'ours');
      const expected = [
        ['_tb_site', SITE_ID],
        ['_tb_page', '/contact'],
        ['_tb_ref', 'news.example.org'],
      ];
      expect(hidden(form)).toEqual(expected);
      expect(read).toEqual([['message', ''], ...expected]);
    });

    it('only once per form, with the current page', () => {
      const p = started({ body: FORMS, referrer: '' });
      submit(p, 'ours');
      p.window.history.pushState({}, '', '/next');
      const { form } = submit(p, 'ours');
      expect(hidden(form)).toEqual([
        ['_tb_site', SITE_ID],
        ['_tb_page', '/next'],
        ['_tb_ref', ''],
      ]);
    });

    it('leave the referrer empty when it is a page of the same site', () => {
      const p = started({ body: FORMS, referrer: 'https://www.example.com/' });
      expect(hidden(submit(p, 'ours').form)).toContainEqual(['_tb_ref', '']);
    });

    it('not on forms posting anywhere else', () => {
      const p = started({ body: FORMS });
      for (const id of ['elsewhere', 'collect', 'plain'])
        expect(hidden(submit(p, id).form)).toEqual([]);
    });

    it('not for a visitor the tracker ignores', () => {
      const p = started({ body: FORMS, url: 'http://localhost:5173/contact' });
      expect(hidden(submit(p, 'ours').form)).toEqual([]);
    });
  });

  it('touches no cookie and no storage', () => {
    const p = page({
      body: '<a href="https://other.example.net/">x</a><form id="f"></form>',
      options: ['outbound', 'forms'],
    });
    const touched: string[] = [];
    const trap = (target: object, name: string) =>
      Object.defineProperty(target, name, {
        configurable: true,
        get: () => void touched.push(`read ${name}`),
        set: () => void touched.push(`wrote ${name}`),
      });
    trap(p.document, 'cookie');
    for (const name of ['localStorage', 'sessionStorage', 'indexedDB', 'caches'])
      trap(p.window, name);
    p.run();
    p.window.history.pushState({}, '', '/next');
    p.window.tinyback('signup', { plan: 'pro' });
    p.document.querySelector('a')!.addEventListener('click', (event) => event.preventDefault());
    p.document.querySelector('a')!.click();
    const form = p.document.querySelector('form')!;
    form.addEventListener('submit', (event) => event.preventDefault());
    form.requestSubmit();
    expect(names(p)).toEqual(['pageview', 'pageview', 'signup', 'outbound', 'form']);
    expect(touched).toEqual([]);
  });

  it.each([
    ['localhost', 'http://localhost:5173/'],
    ['127.0.0.1', 'http://127.0.0.1:8080/'],
    ['[::1]', 'http://[::1]/'],
    ['a file: page', 'file:///home/me/site/index.html'],
  ])('sends nothing on %s', (_, url) => {
    const p = started({ url });
    p.window.tinyback('signup');
    expect(p.beacon).not.toHaveBeenCalled();
  });

  it('sends nothing from an automated browser (navigator.webdriver)', () => {
    const p = page();
    Object.defineProperty(p.window.navigator, 'webdriver', { value: true });
    p.run();
    p.window.tinyback('signup');
    expect(p.beacon).not.toHaveBeenCalled();
  });

  it('counts localhost and automated browsers with data-local (for testing)', () => {
    const p = page({ url: 'http://127.0.0.1:4000/', options: ['local'] });
    Object.defineProperty(p.window.navigator, 'webdriver', { value: true });
    p.run();
    expect(names(p)).toEqual(['pageview']);
  });

  it('posts with fetch and keepalive when there is no sendBeacon, or it refuses', () => {
    for (const withBeacon of [false, true]) {
      const p = page({ beacon: () => false });
      if (!withBeacon)
        Object.defineProperty(p.window.navigator, 'sendBeacon', { value: undefined });
      const fetch = vi.fn(() => Promise.reject(new Error('offline')));
      Object.defineProperty(p.window, 'fetch', { value: fetch });
      p.run();
      expect(fetch).toHaveBeenCalledTimes(1);
      const [to, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
      expect(to).toBe(API);
      expect(init).toMatchObject({ method: 'POST', keepalive: true });
      expect(init.headers).toBeUndefined();
      expect(JSON.parse(init.body as string)).toMatchObject({ s: SITE_ID, n: 'pageview' });
    }
  });

  it('reads its own script tag when several carry data-api', () => {
    const { window } = new JSDOM(
      `<!doctype html><script data-site="other" data-api="https://other.example/collect"></script>
      <body>`,
      { url: 'https://www.example.com/', runScripts: 'dangerously' },
    );
    const sendBeacon = vi.fn(() => true);
    Object.defineProperty(window.navigator, 'sendBeacon', { value: sendBeacon });
    // An inline copy stands in for the loaded file: while it runs, it is document.currentScript.
    const script = window.document.createElement('script');
    script.dataset.site = SITE_ID;
    script.dataset.api = API;
    script.textContent = TRACKER;
    window.document.body.append(script);
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(sendBeacon.mock.calls[0]).toEqual([API, expect.stringContaining(`"s":"${SITE_ID}"`)]);
  });
});
