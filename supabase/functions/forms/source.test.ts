// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readSource } from './source.ts';
import { validateSubmission } from './submission.ts';

const SITE = '0b7e6b1c-3f5e-4c1a-9a51-2f0f6d1d9e10';

describe('the tracker’s source fields', () => {
  it('keeps a site id, a path and a referrer host, and never stores them as fields', () => {
    const r = validateSubmission([
      ['message', 'Hi'],
      ['_tb_site', SITE.toUpperCase()],
      ['_tb_page', '/contact'],
      ['_tb_ref', 'News.Example'],
    ]);
    if (!r.ok) throw new Error('refused');
    expect(r.submission.source).toEqual({
      siteId: SITE,
      page: '/contact',
      referrer: 'news.example',
    });
    expect(Object.keys(r.submission.data)).toEqual([]);
    expect(r.submission.ordered).toEqual([['message', 'Hi']]);
  });

  it('drops what the tracker would not send, without refusing the post', () => {
    const r = validateSubmission([
      ['message', 'Hi'],
      ['_tb_site', 'not-a-uuid'],
      ['_tb_page', 'contact'],
      ['_tb_ref', 'https://news.example/x'],
    ]);
    if (!r.ok) throw new Error('refused');
    expect(r.submission.source).toEqual({ siteId: null, page: null, referrer: null });
  });

  it('checks each value', () => {
    const page = (p: string) => readSource([['_tb_page', p]]).page;
    const ref = (h: string) => readSource([['_tb_ref', h]]).referrer;
    expect(page('/a\nb')).toBeNull();
    expect(page('/a\u0085b')).toBeNull();
    expect(page('/' + 'x'.repeat(5000))).toHaveLength(2000);
    expect(page('/' + '😀'.repeat(2500))!.length).toBe(1 + 1999 * 2);
    expect(page('')).toBeNull();
    expect(ref('')).toBeNull();
    expect(ref('a'.repeat(253))).toBe('a'.repeat(253));
    expect(ref('a'.repeat(254))).toBeNull();
    expect(ref('news.example:8080')).toBeNull();
    expect(ref('news example')).toBeNull();
    // The first of a repeated name counts.
    expect(
      readSource([
        ['_tb_page', '/a'],
        ['_tb_page', '/b'],
      ]).page,
    ).toBe('/a');
  });

  it('a post of source fields alone is empty', () => {
    const r = validateSubmission([
      ['_tb_site', SITE],
      ['_tb_page', '/contact'],
    ]);
    expect(r.ok).toBe(false);
  });
});
