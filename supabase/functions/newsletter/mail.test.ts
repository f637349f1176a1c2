// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { composeConfirmation, linkFor } from './mail.ts';

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

describe('composeConfirmation', () => {
  const input = {
    confirmUrl: 'https://p.test/functions/v1/newsletter/confirm?token=abc&x="<y>"',
    unsubscribeUrl: 'https://p.test/functions/v1/newsletter/unsubscribe?token=def',
    siteUrl: 'https://news.example.com/',
  };

  it('carries the confirm and the unsubscribe link in both parts', () => {
    const mail = composeConfirmation(input);
    expect(mail.subject).toBe('Please confirm your newsletter subscription');
    expect(mail.text).toContain(input.confirmUrl);
    expect(mail.text).toContain(input.unsubscribeUrl);
    expect(mail.text).toContain('the newsletter of news.example.com');
    expect(mail.html).toContain(`href="${input.unsubscribeUrl}"`);
  });

  it('escapes every value placed in HTML', () => {
    const mail = composeConfirmation(input);
    expect(mail.html).toContain(
      'href="https://p.test/functions/v1/newsletter/confirm?token=abc&amp;x=&quot;&lt;y&gt;&quot;"',
    );
    expect(mail.html).not.toContain('"<y>"');
  });

  it('names no site when none is configured', () => {
    expect(composeConfirmation({ ...input, siteUrl: null }).text).toContain('our newsletter');
  });
});
