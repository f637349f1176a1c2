import { describe, expect, it } from 'vitest';
import { buildFormSnippet, EXAMPLE_FORM_ID, formEndpoint } from './snippet';

describe('form snippet', () => {
  it('posts to the forms function of the project', () => {
    expect(formEndpoint('https://abc.supabase.co/', 'f1')).toBe(
      'https://abc.supabase.co/functions/v1/forms/f1',
    );
  });

  it('is a complete form with the honeypot hidden', () => {
    const html = buildFormSnippet({
      supabaseUrl: 'https://YOUR-PROJECT.supabase.co',
      formId: EXAMPLE_FORM_ID,
    });
    expect(html).toContain(
      '<form action="https://YOUR-PROJECT.supabase.co/functions/v1/forms/YOUR-FORM-ID" method="POST">',
    );
    for (const field of ['name="name"', 'name="email"', 'name="message"'])
      expect(html).toContain(field);
    expect(html).toMatch(/<input type="text" name="_gotcha" style="display:none"/);
    expect(html).not.toContain('_next');
    expect(html.trim().endsWith('</form>')).toBe(true);
  });

  it('parses as a form a browser would post', () => {
    const doc = new DOMParser().parseFromString(
      buildFormSnippet({
        supabaseUrl: 'http://127.0.0.1:54321',
        formId: 'abc',
        next: 'https://x.io/"ok"',
      }),
      'text/html',
    );
    const form = doc.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('POST');
    expect(form.action).toBe('http://127.0.0.1:54321/functions/v1/forms/abc');
    expect([...new FormData(form).keys()]).toEqual([
      'name',
      'email',
      'message',
      '_gotcha',
      '_next',
    ]);
    expect((form.querySelector('[name="_next"]') as HTMLInputElement).value).toBe(
      'https://x.io/"ok"',
    );
  });
});
