// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { functionRoute, matchRoute } from './route.ts';

describe('function routes', () => {
  const entry = functionRoute('forms-api', '/forms/:formId/entries/:entryId');

  it('match after the function name, whatever the platform puts before it', () => {
    for (const prefix of ['', '/functions/v1', '/x/y'])
      expect(matchRoute(entry, `${prefix}/forms-api/forms/f1/entries/e1`)).toMatchObject({
        formId: 'f1',
        entryId: 'e1',
      });
  });

  it('take a trailing slash, and nothing else after the route', () => {
    expect(matchRoute(entry, '/forms-api/forms/f1/entries/e1/')).toMatchObject({ entryId: 'e1' });
    expect(matchRoute(entry, '/forms-api/forms/f1/entries/e1/x')).toBeNull();
    expect(matchRoute(entry, '/forms-api/forms/f1/entries')).toBeNull();
  });

  it('need the function name as a whole segment', () => {
    expect(matchRoute(entry, '/xforms-api/forms/f1/entries/e1')).toBeNull();
    expect(functionRoute('forms', '/_mail').test({ pathname: '/forms/_mail' })).toBe(true);
    expect(functionRoute('forms', '/_mail').test({ pathname: '/forms-api/_mail' })).toBe(false);
  });

  it('leave groups percent-encoded, as the path arrived', () => {
    expect(matchRoute(functionRoute('forms', '/:id'), '/forms/a%20b')).toMatchObject({
      id: 'a%20b',
    });
  });
});
