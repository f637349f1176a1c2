// The gateway's answer for the Supabase services the local stack does not run (a 501 that names
// the service, instead of a 404 that reads like a typo; Storage's own refusals are in
// storage.test.ts), and
// its key-auth: like Supabase's Kong, it refuses Auth, REST and Realtime requests without one of
// the project's API keys, and leaves the e-mail link paths and Edge Functions open.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import ws from 'ws';
import { describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY, SECRET_KEY } from '../../local-stack/config.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();

describe('Supabase services the local stack does not run', () => {
  it('answers GraphQL, Realtime over HTTP, postgres-meta and Analytics with 501 JSON', async () => {
    for (const path of [
      '/graphql/v1',
      '/realtime/v1/api/broadcast',
      '/pg/tables',
      '/analytics/v1/query',
    ]) {
      const res = await fetch(`${stack.apiUrl}${path}`, {
        method: 'POST',
        headers: { apikey: stack.anonKey, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status, path).toBe(501);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error, path).toBe('not_implemented');
      expect(body.message, path).toContain('is not served by the local stack');
    }
  });

  it('still answers an unknown path with Kong’s 404', async () => {
    const res = await fetch(`${stack.apiUrl}/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no Route matched with those values' });
  });
});

/** Kong's key-auth answers (Kong 2.8, as Supabase's self-hosted `kong.yml` configures it). */
const NO_API_KEY = { message: 'No API key found in request' };
const INVALID_API_KEY = { message: 'Invalid authentication credentials' };

async function userToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'authenticated', sub: randomUUID(), iat: now, exp: now + 600 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

/** The status and body of a refused (or accepted) WebSocket upgrade. */
function upgrade(query: string): Promise<{ status: number; body: string }> {
  const url = `${stack.apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?vsn=2.0.0${query}`;
  return new Promise((resolve, reject) => {
    const socket = new ws(url);
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.on('error', (err) => reject(err));
  });
}

describe('API keys at the gateway (Kong key-auth)', () => {
  const protectedPaths = [
    '/rest/v1/blog_posts?select=id',
    '/rest/v1/',
    '/auth/v1/settings',
    '/auth/v1/health',
    '/auth/v1/user',
  ];

  it('answers 401 "No API key found in request" without an apikey, before any service', async () => {
    for (const path of protectedPaths) {
      // A bearer token alone is no API key to Kong.
      const res = await fetch(`${stack.apiUrl}${path}`, {
        headers: { Authorization: `Bearer ${stack.anonKey}` },
      });
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate'), path).toBe('Key realm="kong"');
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await res.json(), path).toEqual(NO_API_KEY);
    }
    const post = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'secret123' }),
    });
    expect(post.status).toBe(401);
    expect(await post.json()).toEqual(NO_API_KEY);
  });

  it('answers 401 "Invalid authentication credentials" for a key that is not the project’s', async () => {
    // A user's access token is signed with the project secret, yet it is no API key either.
    for (const key of ['garbage', `${stack.anonKey}x`, 'sb_publishable_nope', await userToken()]) {
      for (const path of protectedPaths) {
        const res = await fetch(`${stack.apiUrl}${path}`, { headers: { apikey: key } });
        expect(res.status, `${path} ${key.slice(0, 12)}`).toBe(401);
        expect(await res.json()).toEqual(INVALID_API_KEY);
      }
    }
  });

  it('takes the anon, service role, publishable and secret keys, as a header or ?apikey=', async () => {
    for (const key of [stack.anonKey, stack.serviceRoleKey, PUBLISHABLE_KEY, SECRET_KEY]) {
      const header = await fetch(`${stack.apiUrl}/auth/v1/settings`, { headers: { apikey: key } });
      expect(header.status).toBe(200);
      const query = await fetch(`${stack.apiUrl}/auth/v1/settings?apikey=${key}`);
      expect(query.status).toBe(200);
    }
    // A user's session goes in Authorization, beside the project's key, as supabase-js sends it.
    const res = await fetch(`${stack.apiUrl}/rest/v1/blog_posts?select=id&limit=1`, {
      headers: { apikey: stack.anonKey, Authorization: `Bearer ${await userToken()}` },
    });
    expect(res.status).toBe(200);
  });

  it('answers CORS preflights without a key, as Kong’s CORS plugin does first', async () => {
    const res = await fetch(`${stack.apiUrl}/rest/v1/blog_posts`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.test', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-headers')).toContain('apikey');
  });

  it('leaves the links opened from e-mails open: /auth/v1/verify needs no key', async () => {
    const res = await fetch(
      `${stack.apiUrl}/auth/v1/verify?token=nope&type=recovery&redirect_to=http://127.0.0.1:5173/`,
      { redirect: 'manual' },
    );
    expect(res.status).not.toBe(401);
    expect([303, 302, 400, 403]).toContain(res.status);
  });

  it('leaves Edge Functions to their own verify_jwt (no key-auth on /functions/v1)', async () => {
    // The forms function has verify_jwt = false: a plain HTML form post carries no key.
    const res = await fetch(`${stack.apiUrl}/functions/v1/forms/${randomUUID()}`);
    expect(res.status).toBe(405);
  });

  it('refuses a Realtime upgrade without a project key with Kong’s 401', async () => {
    expect(await upgrade('')).toEqual({ status: 401, body: JSON.stringify(NO_API_KEY) });
    expect(await upgrade('&apikey=garbage')).toEqual({
      status: 401,
      body: JSON.stringify(INVALID_API_KEY),
    });
    expect(await upgrade(`&apikey=${await userToken()}`)).toMatchObject({ status: 401 });
    expect(await upgrade(`&apikey=${stack.anonKey}`)).toEqual({ status: 101, body: '' });
  });
});
