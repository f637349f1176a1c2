// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { linkFor, listConfirmLinkPrefix } from './mail.ts';

describe('linkFor', () => {
  const functionUrl = 'https://p.test/functions/v1/newsletter/';

  it("opens the site's page for the action, token in the query", () => {
    expect(linkFor({ siteUrl: 'https://site.test/', functionUrl }, 'unsubscribe', 'a-b_c')).toBe(
      'https://site.test/newsletter/unsubscribe?token=a-b_c',
    );
  });

  it('falls back to the function itself without a site', () => {
    expect(linkFor({ siteUrl: null, functionUrl }, 'confirm', 'a-b_c')).toBe(
      'https://p.test/functions/v1/newsletter/confirm?token=a-b_c',
    );
  });
});

describe('listConfirmLinkPrefix', () => {
  it("opens the site's confirm page for a list's token, or the function without a site", () => {
    const functionUrl = 'https://p.test/functions/v1/newsletter/';
    expect(listConfirmLinkPrefix({ siteUrl: 'https://site.test/', functionUrl })).toBe(
      'https://site.test/newsletter/confirm?list=1&token=',
    );
    expect(listConfirmLinkPrefix({ siteUrl: null, functionUrl })).toBe(
      'https://p.test/functions/v1/newsletter/lists/confirm?token=',
    );
  });
});
