// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { actionLink, composeConfirmation } from './mail.ts';

describe('actionLink', () => {
  it('builds the function link with the token as a query parameter', () => {
    expect(actionLink('https://p.test/functions/v1/newsletter/', 'confirm', 'a-b_c')).toBe(
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
