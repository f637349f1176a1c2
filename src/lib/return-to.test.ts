import { describe, expect, it } from 'vitest';
import { readReturnTo, returnToState } from './return-to';

describe('returnToState', () => {
  it('carries the path and the query', () => {
    expect(returnToState({ pathname: '/dashboard/forms', search: '?tab=messages' })).toEqual({
      from: '/dashboard/forms?tab=messages',
    });
  });
});

describe('readReturnTo', () => {
  it.each([
    ['/settings', '/settings'],
    ['/dashboard/forms?tab=messages&form=1', '/dashboard/forms?tab=messages&form=1'],
    ['/dashboard/booking/cal1#top', '/dashboard/booking/cal1#top'],
    ['/dashboard/../settings', '/settings'],
  ])('accepts the app path %s', (from, expected) => {
    expect(readReturnTo({ from })).toBe(expected);
  });

  it.each([
    ['an external URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/path'],
    ['a backslash host', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'settings'],
    ['a control character', '/\tsettings'],
    ['the login page', '/login?x=1'],
    ['the register page', '/register'],
    ['an empty string', ''],
  ])('rejects %s', (_what, from) => {
    expect(readReturnTo({ from })).toBeNull();
  });

  it.each([[null], [undefined], ['/settings'], [{}], [{ from: 42 }]])(
    'ignores state without a string `from`: %s',
    (state) => {
      expect(readReturnTo(state)).toBeNull();
    },
  );
});
