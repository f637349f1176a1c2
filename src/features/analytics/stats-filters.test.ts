import { describe, expect, it } from 'vitest';
import { filtersFromParams, withFilter } from './stats-filters';

describe('stats filters in the URL', () => {
  it('reads the known keys with a value and nothing else', () => {
    const params = new URLSearchParams(
      'site=s1&range=7d&page=%2Fpricing&country=DE&referrer=&colour=red&event=signup',
    );
    expect(filtersFromParams(params)).toEqual({ page: '/pricing', country: 'DE', event: 'signup' });
  });

  it('sets and removes one filter, keeping the rest of the URL', () => {
    const params = new URLSearchParams('site=s1&page=%2F');
    const added = withFilter(params, 'utm_source', 'newsletter');
    expect(added.toString()).toBe('site=s1&page=%2F&utm_source=newsletter');
    expect(withFilter(added, 'page', null).toString()).toBe('site=s1&utm_source=newsletter');
    expect(params.toString()).toBe('site=s1&page=%2F');
  });
});
