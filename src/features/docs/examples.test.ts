// The docs' code samples: real, parseable forms and requests for this instance's endpoint.
import { describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY, SPECIAL_FIELDS } from './endpoint-facts';
import { endpointUrl, fetchExample, htmlFormExample, rewriteExample } from './examples';
import { formatBytes, formatSeconds } from './endpoint-facts';

const base = 'https://abc.supabase.co';

describe('docs examples', () => {
  it('builds the function URL of a form', () => {
    expect(endpointUrl(`${base}/`, 'f1')).toBe('https://abc.supabase.co/functions/v1/forms/f1');
  });

  it('gives an HTML form that posts every field to the endpoint with a hidden honeypot', () => {
    const doc = new DOMParser().parseFromString(htmlFormExample(base), 'text/html');
    const form = doc.querySelector('form')!;
    expect(form.getAttribute('action')).toBe(endpointUrl(base));
    expect(form.getAttribute('method')).toBe('POST');
    const names = [...form.querySelectorAll('[name]')].map((el) => el.getAttribute('name'));
    expect(names).toEqual([
      'name',
      'email',
      'message',
      SPECIAL_FIELDS.next,
      SPECIAL_FIELDS.subject,
      SPECIAL_FIELDS.honeypots[0],
      SPECIAL_FIELDS.idempotency,
    ]);
    const trap = form.querySelector(`[name="${SPECIAL_FIELDS.honeypots[0]}"]`) as HTMLElement;
    expect(trap.style.display).toBe('none');
    expect(trap.getAttribute('tabindex')).toBe('-1');
  });

  it('fills the HTML form’s idempotency key when the page is shown, in valid JavaScript', () => {
    const doc = new DOMParser().parseFromString(htmlFormExample(base), 'text/html');
    const field = doc.querySelector<HTMLInputElement>(`[name="${SPECIAL_FIELDS.idempotency}"]`)!;
    expect(field.type).toBe('hidden');
    const script = doc.querySelector('script')!.textContent!;
    const getElementById = vi.fn(() => field);
    const addEventListener = vi.fn();
    new Function('document', 'crypto', 'addEventListener', script)(
      { getElementById },
      { randomUUID: () => 'a-uuid' },
      addEventListener,
    );
    expect(getElementById).toHaveBeenCalledWith(field.id);
    expect(field.value).toBe('a-uuid');
    expect(addEventListener).toHaveBeenCalledWith('pageshow', expect.any(Function));
    // Without crypto.randomUUID (a page on plain http): still a key of visible ASCII characters.
    new Function('document', 'crypto', 'addEventListener', script)({ getElementById }, {}, vi.fn());
    expect(field.value).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(field.value).not.toBe('a-uuid');
  });

  it('gives a fetch example that asks for JSON and handles both answers', () => {
    const code = fetchExample(base);
    expect(code).toContain(`fetch('${endpointUrl(base)}'`);
    expect(code).toContain("Accept: 'application/json'");
    expect(code).toContain(`'${IDEMPOTENCY.header}': key`);
    expect(code.match(/key = crypto\.randomUUID\(\)/g)).toHaveLength(2);
    expect(code).toContain('result.ok');
    expect(code).toContain('result.fields');
    expect(code).toContain('Retry-After');
  });

  it('rewrites /api/forms to the function, naming the visitor and sending the proxy secret', () => {
    const code = rewriteExample(base);
    expect(code).toContain(`to = "${base}/functions/v1/forms/:splat"`);
    expect(code).toContain(`proxy_pass ${base}/functions/v1/forms/;`);
    expect(code).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(code.match(/X-Tinyback-Proxy-Secret/g)).toHaveLength(2);
  });
});

describe('number formatting', () => {
  it('formats sizes and durations for people', () => {
    expect(formatBytes(64 * 1024)).toBe('64 KiB');
    expect(formatBytes(1000)).toBe('1,000 bytes');
    expect(formatSeconds(30)).toBe('30 seconds');
    expect(formatSeconds(6 * 3600)).toBe('6 hours');
    expect(formatSeconds(60)).toBe('1 minute');
  });
});
