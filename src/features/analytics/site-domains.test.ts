import { describe, expect, it } from 'vitest';
import { describeSiteError, normaliseDomain, parseDomains, siteSchema } from './site-domains';

describe('normaliseDomain', () => {
  it('keeps the host name of what people paste: no scheme, port, path or trailing dot', () => {
    expect(normaliseDomain('Example.COM')).toBe('example.com');
    expect(normaliseDomain(' https://www.Example.com/pricing?x=1#top ')).toBe('www.example.com');
    expect(normaliseDomain('example.com:8080/blog')).toBe('example.com');
    expect(normaliseDomain('http://user:pw@shop.example.org')).toBe('shop.example.org');
    expect(normaliseDomain('example.com.')).toBe('example.com');
    expect(normaliseDomain('bücher.de')).toBe('xn--bcher-kva.de');
  });

  it('refuses what is no host name', () => {
    for (const text of [
      '',
      '  ',
      'exa mple.com',
      'under_score.com',
      '-bad.com',
      'https://',
      '*.example.com',
    ])
      expect(normaliseDomain(text), text).toBeNull();
  });
});

describe('parseDomains', () => {
  it('splits on commas, spaces and new lines and keeps each host once', () => {
    expect(parseDomains('example.com, WWW.example.com\nhttps://example.com/about')).toEqual([
      'example.com',
      'www.example.com',
    ]);
  });
});

describe('siteSchema', () => {
  const valid = { name: 'Blog', domains: 'example.com', retention_days: 395 };
  const errorOf = (values: object) => {
    try {
      siteSchema.validateSync({ ...valid, ...values }, { abortEarly: true });
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('accepts a name, domains and a retention in range', () => {
    expect(errorOf({})).toBeNull();
  });

  it('says what is wrong, field by field', () => {
    expect(errorOf({ name: '  ' })).toBe('Enter a name for the site.');
    expect(errorOf({ name: 'x'.repeat(101) })).toBe('The name must be at most 100 characters.');
    expect(errorOf({ domains: '' })).toBe('Enter the domain of your site, e.g. example.com.');
    expect(errorOf({ domains: 'example.com, under_score.com' })).toBe(
      '"under_score.com" is not a domain. Enter host names such as example.com.',
    );
    expect(
      errorOf({ domains: Array.from({ length: 11 }, (_, i) => `s${i}.example.com`).join(',') }),
    ).toBe('A site has at most 10 domains.');
    expect(errorOf({ retention_days: 29 })).toBe('Keep raw events at least 30 days.');
    expect(errorOf({ retention_days: 1096 })).toBe('Keep raw events at most 1095 days (3 years).');
    expect(errorOf({ retention_days: 40.5 })).toBe('Enter a whole number of days.');
  });
});

describe('describeSiteError', () => {
  it("shows the database's own sentences and names its constraints", () => {
    expect(
      describeSiteError(
        {
          code: '23514',
          message: 'An account can have at most 50 analytics sites. Delete one to add another.',
          hint: 'analytics_site_limit',
        },
        'add the site',
      ),
    ).toBe('An account can have at most 50 analytics sites. Delete one to add another.');
    expect(
      describeSiteError(
        {
          code: '23514',
          message:
            'new row for relation "analytics_sites" violates check constraint "analytics_sites_retention_days"',
        },
        'save the site',
      ),
    ).toBe('Raw events are kept between 30 and 1095 days.');
    expect(describeSiteError(new TypeError('Failed to fetch'), 'add the site')).toBe(
      'Could not add the site. Check your connection and try again.',
    );
  });
});
