// The stack's one router: paths matched as sent, parameters returned as sent, GoTrue-style 405s
// and HEAD answered by GET where a service asks for it.
import { describe, expect, it } from 'vitest';
import { Router } from './router.ts';

describe('Router', () => {
  const router = new Router<string>({ ignoreTrailingSlash: true, headAsGet: true })
    .on('/user', { GET: 'get user', PUT: 'put user' })
    .on('/users/:id', { GET: 'get one' })
    .on(['/sso', '/sso/*'], { all: 'sso' });

  it('finds a handler by path and method, with or without a trailing slash', () => {
    expect(router.match('PUT', '/user')).toEqual({
      kind: 'found',
      handler: 'put user',
      params: {},
    });
    expect(router.match('GET', '/user/')).toMatchObject({ handler: 'get user' });
  });

  it('answers HEAD with the GET handler and names the methods a known path takes', () => {
    expect(router.match('HEAD', '/user')).toMatchObject({ handler: 'get user' });
    expect(router.match('POST', '/user')).toEqual({
      kind: 'method_not_allowed',
      allowed: ['GET', 'PUT'],
    });
    expect(router.match('GET', '/nope')).toEqual({ kind: 'not_found' });
  });

  it('routes a prefix and everything below it, whatever the method', () => {
    expect(router.match('DELETE', '/sso')).toMatchObject({ handler: 'sso' });
    expect(router.match('POST', '/sso/saml/acs')).toMatchObject({ handler: 'sso' });
    expect(router.match('GET', '/ssox')).toEqual({ kind: 'not_found' });
  });

  it('matches the path as sent and returns parameters percent-encoded, malformed ones too', () => {
    expect(router.match('GET', '/users/a%20b')).toMatchObject({ params: { id: 'a%20b' } });
    expect(router.match('GET', '/users/%zz')).toMatchObject({ params: { id: '%zz' } });
    expect(router.match('GET', '/us%65r')).toEqual({ kind: 'not_found' });
  });

  it('never matches an empty named parameter', () => {
    expect(router.match('GET', '/users/')).toEqual({ kind: 'not_found' });
    expect(router.match('GET', '/users//')).toEqual({ kind: 'not_found' });
    expect(router.match('GET', '/sso/')).toMatchObject({ handler: 'sso' });
  });

  it('keeps long parameters whole', () => {
    const id = 'x'.repeat(5000);
    expect(router.match('GET', `/users/${id}`)).toMatchObject({ params: { id } });
  });

  it('knows only the exact path unless told to ignore a trailing slash', () => {
    const exact = new Router<string>().on('/health', { all: 'health' });
    expect(exact.match('GET', '/health')).toMatchObject({ handler: 'health' });
    expect(exact.match('GET', '/health/')).toEqual({ kind: 'not_found' });
  });
});
