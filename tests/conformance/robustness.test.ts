// Robustness of the local stack: a generated corpus of malformed and hostile raw requests to every
// service behind the gateway. Each gets the real service's 4xx (with its JSON error body where the
// service uses one), never a 5xx, a hang or a dropped connection; SQL-looking input changes nothing;
// and afterwards supabase-js still signs in, selects, invokes and subscribes.
import { createHmac, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient, FunctionsHttpError } from '@supabase/supabase-js';
import { testStack } from '../support/stack.ts';

const stack = testStack();
const API_PORT = new URL(stack.apiUrl).port;

/** A request that takes longer than this to be answered counts as a hang. */
const ANSWER_TIMEOUT_MS = 15_000;

// --- a raw HTTP client: sends exactly these bytes (fetch would normalise paths and headers) ------

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface RawRequest {
  method: string;
  /** The request target, sent as-is (`/functions/v1/../x` stays unnormalised). */
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** One request on its own connection (`Connection: close`); resolves with the parsed answer. */
function rawHttp(request: RawRequest): Promise<RawResponse> {
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, 'utf8');
  const headers: Record<string, string> = {
    host: `127.0.0.1:${API_PORT}`,
    connection: 'close',
    ...request.headers,
  };
  if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body.length);
  }
  const head =
    `${request.method} ${request.target} HTTP/1.1\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(API_PORT), '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${ANSWER_TIMEOUT_MS} ms (hang)`));
    }, ANSWER_TIMEOUT_MS);
    socket.on('data', (c: Buffer) => chunks.push(c));
    // The server may answer (e.g. 413) and close before the whole body was written: not an error.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const data = Buffer.concat(chunks);
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`connection dropped without an HTTP answer (${data.length} bytes)`));
        return;
      }
      const [statusLine, ...lines] = data.subarray(0, split).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0)
          parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest: Buffer = data.subarray(split + 4);
      if (parsed['transfer-encoding']?.toLowerCase() === 'chunked') rest = decodeChunked(rest);
      else if (parsed['content-length'] !== undefined) {
        const length = Number(parsed['content-length']);
        if (rest.length < length) {
          reject(new Error(`answer truncated: ${rest.length} of ${length} body bytes`));
          return;
        }
        rest = rest.subarray(0, length);
      }
      resolve({ status, headers: parsed, body: rest.toString('utf8') });
    });
    socket.write(head);
    if (body) socket.write(body);
  });
}

// --- tokens, minted synchronously so the corpus can be built at collection time -----------------

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

function hs(alg: 'HS256' | 'HS512', claims: unknown, secret = stack.jwtSecret, header?: unknown) {
  const h = b64url(JSON.stringify(header ?? { alg, typ: 'JWT' }));
  const p = b64url(typeof claims === 'string' ? claims : JSON.stringify(claims));
  const hash = alg === 'HS256' ? 'sha256' : 'sha512';
  return `${h}.${p}.${createHmac(hash, secret).update(`${h}.${p}`).digest('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const serviceClaims = () => ({ role: 'service_role', iss: 'supabase-demo', exp: now() + 3600 });

/** Tokens that must be refused by every service: malformed, forged, expired or unsigned. */
function badTokens(): [string, string][] {
  const live = serviceClaims();
  return [
    ['garbage', 'not-a-jwt'],
    ['two parts', 'eyJhbGciOiJIUzI1NiJ9.e30'],
    ['three junk parts', 'a.b.c'],
    ['four parts', `${hs('HS256', live)}.extra`],
    [
      'alg=none',
      `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(live))}.`,
    ],
    ['alg=none, signature kept', hs('HS256', live, stack.jwtSecret, { alg: 'none', typ: 'JWT' })],
    ['forged (wrong secret)', hs('HS256', live, 'not-the-secret-but-at-least-32-characters!!')],
    ['HS512 with the real secret', hs('HS512', live)],
    ['expired', hs('HS256', { ...live, exp: now() - 3600 })],
    ['header not JSON', `${b64url('{')}.${b64url(JSON.stringify(live))}.sig`],
    ['payload not JSON, signed', hs('HS256', '{"role":')],
    ['payload an array, signed', hs('HS256', '[1,2]')],
    ['exp as a string, signed', hs('HS256', { ...live, exp: 'tomorrow' })],
    ['unicode', 'eyJ\u00e9.\u{1F600}.x'],
  ];
}

// --- the corpus -----------------------------------------------------------------------------------

type Shape = 'gotrue' | 'postgrest' | 'json' | 'any';

interface Case {
  name: string;
  request: () => RawRequest;
  /** The exact status the real service answers, or a list of acceptable ones. */
  status: number | number[];
  /** The error body's form: GoTrue's `{code,message}`/OAuth, PostgREST's four fields, any JSON. */
  shape: Shape;
  /** The JSON error `code` where it is part of the contract. */
  code?: string;
}

const json = (v: unknown) => JSON.stringify(v);
const anonHeaders = () => ({ apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}` });
const serviceHeaders = () => ({
  apikey: stack.serviceRoleKey,
  authorization: `Bearer ${stack.serviceRoleKey}`,
});

function authCases(): Case[] {
  const cases: Case[] = [];
  const post = (
    name: string,
    target: string,
    body: Buffer | string | undefined,
    status: number | number[],
    code?: string,
    headers: Record<string, string> = {},
  ) =>
    cases.push({
      name: `auth ${name}`,
      request: () => ({
        method: 'POST',
        target: `/auth/v1${target}`,
        headers: { ...anonHeaders(), 'content-type': 'application/json', ...headers },
        body,
      }),
      status,
      shape: 'gotrue',
      code,
    });
  const password = '/token?grant_type=password';
  for (const [label, body] of [
    ['unterminated object', '{'],
    ['trailing comma', '{"email":"a@b.co",}'],
    ['single quotes', "{'email':'a@b.co'}"],
    ['array', '[]'],
    ['string', '"hello"'],
    ['number', '42'],
  ] as const) {
    post(`sign-in with bad JSON (${label})`, password, body, 400, 'bad_json');
    post(`sign-up with bad JSON (${label})`, '/signup', body, 400, 'bad_json');
  }
  post(
    'sign-in with a numeric email',
    password,
    json({ email: 1, password: 'x' }),
    400,
    'bad_json',
  );
  post('sign-in with an object password', password, json({ email: 'a@b.co', password: {} }), 400);
  // Like Go's decoder, invalid UTF-8 in a key becomes U+FFFD: valid JSON without the fields.
  const invalidUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
  post('sign-in with invalid UTF-8', password, invalidUtf8, 400, 'validation_failed');
  // A sign-up with neither address nor phone is an anonymous sign-in to GoTrue, off here.
  post('sign-up with invalid UTF-8', '/signup', invalidUtf8, 422, 'anonymous_provider_disabled');
  post('sign-in with no fields', password, '{}', 400, 'validation_failed');
  post('sign-in with an empty body', password, undefined, 400, 'validation_failed');
  post(
    'sign-in, email with a NUL byte',
    password,
    json({ email: 'a\u0000b@x.co', password: 'secret123' }),
    400,
  );
  post(
    'sign-in, unicode email',
    password,
    json({ email: '\u{1F600}@\u00e9.co', password: 'secret123' }),
    400,
  );
  post(
    'sign-in, password with a NUL byte',
    password,
    json({ email: 'nobody@example.com', password: 'a\u0000b' }),
    400,
    'invalid_credentials',
  );
  post(
    'sign-in, 100 kB password',
    password,
    json({ email: 'nobody@example.com', password: 'x'.repeat(100_000) }),
    400,
  );
  post(
    'sign-in, huge body (300 kB)',
    password,
    json({ email: 'a@b.co', password: 'x'.repeat(300_000) }),
    413,
  );
  post('unknown grant type', '/token?grant_type=magic', json({}), 400);
  post('no grant type', '/token', json({}), 400);
  post(
    'grant type with SQL',
    "/token?grant_type=password';drop%20table%20auth.users;--",
    json({}),
    400,
  );
  post('refresh without a token', '/token?grant_type=refresh_token', '{}', 400);
  post(
    'refresh with a numeric token',
    '/token?grant_type=refresh_token',
    json({ refresh_token: 7 }),
    400,
    'bad_json',
  );
  post(
    'refresh with an unknown token',
    '/token?grant_type=refresh_token',
    json({ refresh_token: 'nope' }),
    400,
    'refresh_token_not_found',
  );
  post(
    'refresh with a NUL byte token',
    '/token?grant_type=refresh_token',
    json({ refresh_token: 'a\u0000b' }),
    400,
  );
  post(
    'refresh with a SQL-looking token',
    '/token?grant_type=refresh_token',
    json({ refresh_token: "' or '1'='1" }),
    400,
    'refresh_token_not_found',
  );
  post(
    'sign-up without a password',
    '/signup',
    json({ email: 'x@example.com' }),
    400,
    'validation_failed',
  );
  post(
    'sign-up with a short password',
    '/signup',
    json({ email: 'x@example.com', password: '1' }),
    422,
    'weak_password',
  );
  post(
    'sign-up with a bad email',
    '/signup',
    json({ email: 'not an email', password: 'secret123' }),
    400,
    'validation_failed',
  );
  post(
    'sign-up with an email with a NUL byte',
    '/signup',
    json({ email: 'a\u0000@example.com', password: 'secret123' }),
    400,
    'validation_failed',
  );
  post(
    'sign-up with metadata as a string',
    '/signup',
    json({ email: 'x@example.com', password: 'secret123', data: 'x' }),
    400,
    'bad_json',
  );
  post(
    'sign-up with a NUL byte in metadata',
    '/signup',
    json({
      email: `nul-${randomUUID()}@example.com`,
      password: 'secret123',
      data: { name: 'a\u0000b' },
    }),
    [400, 422],
  );
  post(
    'sign-up with deeply nested metadata',
    '/signup',
    `{"email":"deep-${randomUUID()}@example.com","password":"secret123","data":{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
    [400, 422],
  );
  post(
    'sign-up with a 73-byte password',
    '/signup',
    json({ email: 'x@example.com', password: 'é'.repeat(37) }),
    400,
    'validation_failed',
  );
  post(
    'recover with a bad email',
    '/recover',
    json({ email: "'; drop table auth.users; --" }),
    400,
    'validation_failed',
  );
  post('recover with a non-string email', '/recover', json({ email: ['a'] }), 400, 'bad_json');
  post(
    'verify with an unknown type',
    '/verify',
    json({ type: 'magic', token: 'x' }),
    400,
    'validation_failed',
  );
  post(
    'verify with a bad token hash',
    '/verify',
    json({ type: 'recovery', token_hash: "' or 1=1 --" }),
    403,
    'otp_expired',
  );
  // Without an API key the gateway answers first, as Kong's key-auth does on Supabase.
  cases.push({
    name: 'auth logout without an API key',
    request: () => ({ method: 'POST', target: '/auth/v1/logout' }),
    status: 401,
    shape: 'json',
  });
  cases.push({
    name: 'auth NUL byte in the authorization header (refused by the HTTP layer)',
    request: () => ({
      method: 'GET',
      target: '/auth/v1/user',
      headers: { authorization: 'Bearer a\u0000b' },
    }),
    status: 400,
    shape: 'any',
  });
  cases.push({
    name: 'auth a raw space in the request target (refused by the HTTP layer)',
    request: () => ({ method: 'POST', target: '/auth/v1/token?grant_type=a b' }),
    status: 400,
    shape: 'any',
  });

  for (const [label, token] of badTokens()) {
    cases.push({
      name: `auth get user with a bad token (${label})`,
      request: () => ({
        method: 'GET',
        target: '/auth/v1/user',
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
      }),
      status: 403,
      shape: 'gotrue',
      code: 'bad_jwt',
    });
  }
  const signedCases: [string, () => string, number, string][] = [
    [
      'a token without sub',
      () => hs('HS256', { role: 'authenticated', exp: now() + 60 }),
      403,
      'bad_jwt',
    ],
    [
      'a token with a non-UUID sub',
      () => hs('HS256', { role: 'authenticated', sub: "1' or '1'='1", exp: now() + 60 }),
      403,
      'user_not_found',
    ],
    [
      'a token of an unknown user',
      () => hs('HS256', { role: 'authenticated', sub: randomUUID(), exp: now() + 60 }),
      403,
      'user_not_found',
    ],
    [
      'a token with a non-UUID session_id',
      () =>
        hs('HS256', {
          role: 'authenticated',
          sub: knownUser.id,
          session_id: "x'; drop table auth.sessions; --",
          exp: now() + 60,
        }),
      403,
      'bad_jwt',
    ],
    [
      'a token with a numeric session_id',
      () =>
        hs('HS256', { role: 'authenticated', sub: knownUser.id, session_id: 42, exp: now() + 60 }),
      403,
      'bad_jwt',
    ],
    [
      'a token with an unknown session',
      () =>
        hs('HS256', {
          role: 'authenticated',
          sub: knownUser.id,
          session_id: randomUUID(),
          exp: now() + 60,
        }),
      403,
      'session_not_found',
    ],
  ];
  for (const [label, token, status, code] of signedCases) {
    cases.push({
      name: `auth get user with ${label}`,
      request: () => ({
        method: 'GET',
        target: '/auth/v1/user',
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token()}` },
      }),
      status,
      shape: 'gotrue',
      code,
    });
  }
  cases.push(
    {
      name: 'auth get user with a Basic authorization',
      request: () => ({
        method: 'GET',
        target: '/auth/v1/user',
        headers: { apikey: stack.anonKey, authorization: 'Basic YTpi' },
      }),
      status: 401,
      shape: 'gotrue',
      code: 'no_authorization',
    },
    {
      name: 'auth update user with a string password',
      request: () => ({
        method: 'PUT',
        target: '/auth/v1/user',
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${knownUser.token}`,
          'content-type': 'application/json',
        },
        body: json({ password: 123456 }),
      }),
      status: 400,
      shape: 'gotrue',
      code: 'bad_json',
    },
    {
      name: 'auth update user with app_metadata',
      request: () => ({
        method: 'PUT',
        target: '/auth/v1/user',
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${knownUser.token}`,
          'content-type': 'application/json',
        },
        body: json({ app_metadata: { role: 'admin' } }),
      }),
      status: 403,
      shape: 'gotrue',
      code: 'not_admin',
    },
    {
      name: 'auth admin list with the anon key',
      request: () => ({ method: 'GET', target: '/auth/v1/admin/users', headers: anonHeaders() }),
      status: 403,
      shape: 'gotrue',
      code: 'not_admin',
    },
    {
      name: 'auth admin get of a non-UUID id',
      request: () => ({
        method: 'GET',
        target: "/auth/v1/admin/users/1'%20or%201=1",
        headers: serviceHeaders(),
      }),
      status: 404,
      shape: 'gotrue',
    },
    {
      name: 'auth admin list with garbage paging',
      request: () => ({
        method: 'GET',
        target: '/auth/v1/admin/users?page=-1&per_page=1e99',
        headers: serviceHeaders(),
      }),
      status: [200, 400],
      shape: 'any',
    },
    {
      name: 'auth admin get of a bad percent-encoding',
      request: () => ({
        method: 'GET',
        target: '/auth/v1/admin/users/%E0%A4%A',
        headers: serviceHeaders(),
      }),
      status: 404,
      shape: 'gotrue',
    },
    {
      name: 'auth unknown endpoint',
      request: () => ({
        method: 'GET',
        target: '/auth/v1/../../etc/passwd',
        headers: anonHeaders(),
      }),
      status: 404,
      shape: 'json',
    },
    {
      name: 'auth wrong method',
      request: () => ({ method: 'DELETE', target: '/auth/v1/token', headers: anonHeaders() }),
      status: 405,
      shape: 'gotrue',
      code: 'method_not_allowed',
    },
  );
  return cases;
}

function restCases(): Case[] {
  const cases: Case[] = [];
  const get = (
    name: string,
    query: string,
    status: number | number[],
    code?: string,
    headers: Record<string, string> = {},
    table = 'blog_posts',
  ) =>
    cases.push({
      name: `rest ${name}`,
      request: () => ({
        method: 'GET',
        target: `/rest/v1/${table}?${query}`,
        headers: { ...anonHeaders(), ...headers },
      }),
      status,
      shape: 'postgrest',
      code,
    });
  const grammar: [string, string][] = [
    ['select with an unbalanced paren', 'select=id,('],
    ['select with a stray close paren', 'select=id)'],
    ['select of an unclosed embed', 'select=*,forms(id'],
    ['select with an empty cast', 'select=id::'],
    ['filter without an operator', 'id=eq'],
    ['unknown operator', 'id=foo.1'],
    ['or= without parens', 'or=id.eq.1'],
    ['or= with an unbalanced paren', 'or=(id.eq.1'],
    ['or= with an unknown operator', 'or=(id.zz.1,id.eq.2)'],
    ['and= with nothing inside', 'and=()'],
    ['not. without an operator', 'id=not.1'],
    ['in. without parens', 'id=in.1,2'],
    ['in. unbalanced', 'id=in.(1,2'],
    ['is. with a bad value', 'id=is.banana'],
    ['limit not a number', 'limit=ten'],
    ['offset not a number', 'offset=abc'],
  ];
  for (const [name, query] of grammar) get(name, query, 400, 'PGRST100');
  // PostgREST calls these parse errors (PGRST100); here the text reaches Postgres as a column
  // name and is refused there (42703). Either way a 400 in PostgREST's shape.
  get('or= with an extra paren', 'or=((id.eq.1)', 400);
  get('order with a bad direction', 'order=id.sideways', 400);
  get('select with a semicolon', 'select=id;drop%20table%20blog_posts', 400);
  get('order with a semicolon', 'order=id;drop%20table%20blog_posts', 400);
  get(
    'a deeply nested or=',
    `or=(${'or('.repeat(2_000)}id.eq.1${')'.repeat(2_001)}`,
    [400, 414, 431],
  );
  get(
    'a deeply nested select',
    `select=${'a('.repeat(2_000)}${')'.repeat(2_000)}`,
    [400, 414, 431],
  );
  get('id=eq.1;drop table x', 'id=eq.1;drop%20table%20blog_posts', 400, '22P02');
  get('id=eq with a quote', "id=eq.1'", 400, '22P02');
  get('a quoted unknown column', 'select=%22id;drop%22', 400, '42703');
  get('an unknown column filter', 'nope=eq.1', 400, '42703');
  get('a cast to an unknown type', 'select=id::nosuchtype', 400, '42704');
  get('negative limit', 'limit=-1', 416, 'PGRST103');
  get('negative offset', 'offset=-5', 400, 'PGRST100');
  get('a limit beyond bigint', 'limit=99999999999999999999999', [200, 400]);
  get('an offset beyond bigint', 'offset=99999999999999999999999', [200, 400, 416]);
  get('a like value with a NUL byte', 'title=like.*%00*', 400);
  get('Accept: text/html', '', 406, 'PGRST107', { accept: 'text/html' });
  get('a non-public Accept-Profile', '', 406, 'PGRST106', { 'accept-profile': 'auth' });
  get('a pg_catalog Accept-Profile', '', 406, 'PGRST106', { 'accept-profile': 'pg_catalog' });
  get('a reversed Range', 'select=id', 416, 'PGRST103', { range: '10-5' });
  get('an unknown table', '', 404, 'PGRST205', {}, 'no_such_table');
  get(
    'a table name with SQL',
    '',
    404,
    'PGRST205',
    {},
    'blog_posts%22;drop%20table%20blog_posts;--',
  );
  get('a bad percent-encoding in the path', '', 404, 'PGRST125', {}, '%E0%A4%A');
  get('a nested path', '', 404, 'PGRST125', {}, 'blog_posts/1/2');
  get('a hidden auth table', '', 404, 'PGRST205', {}, 'auth.users');
  get('a forged service token', '', 401, 'PGRST301', {
    authorization: `Bearer ${hs('HS256', serviceClaims(), 'wrong-secret-wrong-secret-wrong-secret')}`,
  });
  get('an expired token', '', 401, 'PGRST303', {
    authorization: `Bearer ${hs('HS256', { ...serviceClaims(), exp: now() - 10 })}`,
  });
  get('an alg=none token', '', 401, 'PGRST301', {
    authorization: `Bearer ${b64url(json({ alg: 'none' }))}.${b64url(json(serviceClaims()))}.`,
  });
  get('a token claiming the postgres role', '', [401, 403], undefined, {
    authorization: `Bearer ${hs('HS256', { role: 'postgres', exp: now() + 60 })}`,
  });
  get('a token claiming an unknown role', '', 401, '22023', {
    authorization: `Bearer ${hs('HS256', { role: 'nobody"; drop table blog_posts; --', exp: now() + 60 })}`,
  });
  // Lenient handling: malformed Range and Prefer headers are ignored, as PostgREST does.
  for (const [name, headers] of [
    ['a bytes Range', { range: 'bytes=0-10' }],
    ['a garbage Range', { range: 'items=abc' }],
    ['a huge Range', { range: '0-99999999999999999999999' }],
    ['a garbage Prefer', { prefer: 'return=bogus,,count=nope,===,tx=commit' }],
  ] as const) {
    get(`${name} is ignored`, 'select=id', [200, 206], undefined, headers);
  }
  // An SQL-looking value is only ever a value: no rows, and nothing changes (checked below).
  cases.push({
    name: 'rest SQL-looking value is a plain value',
    request: () => ({
      method: 'GET',
      target: `/rest/v1/blog_posts?title=eq.${encodeURIComponent("x'; drop table blog_posts; --")}`,
      headers: anonHeaders(),
    }),
    status: 200,
    shape: 'json',
  });

  const write = (
    name: string,
    method: string,
    target: string,
    body: Buffer | string | undefined,
    status: number | number[],
    code?: string,
    headers: Record<string, string> = {},
  ) =>
    cases.push({
      name: `rest ${name}`,
      request: () => ({
        method,
        target: `/rest/v1/${target}`,
        headers: { ...anonHeaders(), 'content-type': 'application/json', ...headers },
        body,
      }),
      status,
      shape: 'postgrest',
      code,
    });
  // A table visitors may not write (the service role writes blog posts).
  const posts = 'blog_posts';
  write('insert with unterminated JSON', 'POST', posts, '{"title":', 400, 'PGRST102');
  write('insert with a JSON string', 'POST', posts, '"x"', 400, 'PGRST102');
  write('insert with JSON null', 'POST', posts, 'null', 400, 'PGRST102');
  write('insert with an array of numbers', 'POST', posts, '[1,2]', 400, 'PGRST102');
  write(
    'insert with mixed keys',
    'POST',
    posts,
    json([{ title: 'x' }, { name: 'x' }]),
    400,
    'PGRST102',
  );
  write('insert with an empty body', 'POST', posts, '', 400, 'PGRST102');
  const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
  write('insert of a value nested 50,000 deep', 'POST', posts, `{"title":${deep}}`, 400);
  write(
    'rpc with arguments nested 50,000 deep',
    'POST',
    'rpc/accept_submission',
    `{"a":${deep}}`,
    [400, 404],
  );
  write(
    'insert of an unknown column',
    'POST',
    posts,
    json({ "title'; drop table x; --": 1 }),
    400,
    'PGRST204',
  );
  // As the service role: visitors may not write blog posts at all, and the NUL byte must be
  // refused for itself, not for the grant.
  write(
    'insert with a NUL byte value',
    'POST',
    posts,
    json({ title: 'a\u0000b' }),
    400,
    undefined,
    serviceHeaders(),
  );
  write(
    'insert of an object into a text column',
    'POST',
    posts,
    json({ title: { a: 1 } }),
    [400, 401, 403],
  );
  write('insert as XML', 'POST', posts, '<x/>', 415, 'PGRST107', { 'content-type': 'text/xml' });
  write(
    'insert with a non-public Content-Profile',
    'POST',
    posts,
    json({ title: 'x' }),
    406,
    'PGRST106',
    { 'content-profile': 'auth' },
  );
  write('insert of a 2 MB body', 'POST', posts, json({ title: 'x'.repeat(2 * 1024 * 1024) }), 413);
  write('insert of a 30 MB body', 'POST', posts, Buffer.alloc(30 * 1024 * 1024, 'a'), 413);
  write('update without a filter', 'PATCH', 'blog_posts', json({ title: 'x' }), [400, 401, 403]);
  write(
    'update with an SQL-looking filter',
    'PATCH',
    'blog_posts?id=eq.1%3Bdelete%20from%20blog_posts',
    json({ title: 'x' }),
    [400, 401, 403],
  );
  write(
    'delete with an SQL-looking filter',
    'DELETE',
    'blog_posts?title=eq.x%27%3Bdelete%20from%20blog_posts%3B--',
    undefined,
    [204, 401, 403],
  );
  write(
    'upsert with a bad on_conflict',
    'POST',
    `${posts}?on_conflict=title;drop`,
    json({ title: 'x' }),
    400,
    undefined,
    { prefer: 'resolution=merge-duplicates' },
  );
  write('PUT', 'PUT', 'blog_posts?id=eq.1', json({ id: 1 }), 400, 'PGRST127');
  write('an unknown method', 'PROPFIND', 'blog_posts', undefined, 405, 'PGRST117');
  write('rpc of an unknown function', 'POST', 'rpc/no_such_fn', '{}', 404, 'PGRST202');
  write('rpc with SQL in its name', 'POST', 'rpc/now();drop%20table%20x', '{}', 404, 'PGRST202');
  write('rpc with a JSON string body', 'POST', 'rpc/accept_submission', '"x"', 400, 'PGRST102');
  write('rpc with bad JSON', 'POST', 'rpc/accept_submission', '{', 400, 'PGRST102');
  write(
    'rpc with unknown arguments',
    'POST',
    'rpc/accept_submission',
    json({ "a'; drop": 1 }),
    404,
    'PGRST202',
  );
  write('rpc with an empty name', 'POST', 'rpc/', '{}', 404);
  write('rpc with too many segments', 'POST', 'rpc/a/b', '{}', 404, 'PGRST125');
  write('rpc with DELETE', 'DELETE', 'rpc/accept_submission', undefined, 405, 'PGRST101');
  return cases;
}

function functionCases(): Case[] {
  const cases: Case[] = [];
  const add = (
    name: string,
    method: string,
    target: string,
    status: number | number[],
    shape: Shape,
    body?: Buffer | string,
    headers: Record<string, string> = {},
  ) =>
    cases.push({
      name: `functions ${name}`,
      request: () => ({ method, target, headers: { ...anonHeaders(), ...headers }, body }),
      status,
      shape,
    });
  // The functions router answers plain text for unknown names (the gateway's 404s are JSON).
  add('unknown function', 'POST', '/functions/v1/no-such-function', 404, 'any', '{}');
  add('bare mount', 'GET', '/functions/v1/', 404, 'any');
  add('the _shared folder', 'GET', '/functions/v1/_shared', 404, 'any');
  add('dot-dot traversal', 'GET', '/functions/v1/../../etc/passwd', 404, 'any');
  add(
    'dot-dot into another service',
    'GET',
    '/functions/v1/../auth/v1/settings',
    [200, 404],
    'any',
  );
  add('encoded dot-dot', 'GET', '/functions/v1/%2e%2e/%2e%2e/etc/passwd', 404, 'any');
  add('encoded slash traversal', 'GET', '/functions/v1/..%2f..%2fetc%2fpasswd', 404, 'any');
  add('backslash traversal', 'GET', '/functions/v1/..%5c..%5cetc', 404, 'any');
  add('NUL in the name', 'GET', '/functions/v1/forms%00', 404, 'any');
  add('a bad percent-encoding', 'GET', '/functions/v1/%E0%A4%A', 404, 'any');
  add(
    'traversal below a known function',
    'POST',
    '/functions/v1/forms/..%2f..%2f..%2fetc%2fpasswd',
    [400, 404, 405],
    'any',
    '{}',
    { 'content-type': 'application/json' },
  );
  add(
    'a bad JSON body to a known function',
    'POST',
    `/functions/v1/forms/${randomUUID()}`,
    [400, 403, 404],
    'any',
    '{',
    { 'content-type': 'application/json', accept: 'application/json' },
  );
  add(
    'a 21 MB body',
    'POST',
    `/functions/v1/forms/${randomUUID()}`,
    413,
    'json',
    Buffer.alloc(21 * 1024 * 1024, 'a'),
    { 'content-type': 'application/octet-stream' },
  );
  add('a lying Content-Length', 'POST', `/functions/v1/forms/${randomUUID()}`, 413, 'json', 'x', {
    'content-length': String(1e12),
  });
  return cases;
}

function realtimeHttpCases(): Case[] {
  const ws = '/realtime/v1/websocket';
  const upgrade = (extra: Record<string, string> = {}) => ({
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': Buffer.from(randomUUID().slice(0, 16)).toString('base64'),
    ...extra,
  });
  const cases: [string, () => RawRequest, number | number[], Shape][] = [
    [
      'plain GET without upgrade',
      () => ({ method: 'GET', target: `${ws}?apikey=${stack.anonKey}` }),
      404,
      'json',
    ],
    [
      'upgrade without an apikey',
      () => ({ method: 'GET', target: `${ws}?vsn=2.0.0`, headers: upgrade() }),
      401,
      'json',
    ],
    [
      'upgrade with a garbage apikey',
      () => ({ method: 'GET', target: `${ws}?vsn=2.0.0&apikey=garbage`, headers: upgrade() }),
      401,
      'json',
    ],
    [
      'upgrade with an alg=none apikey',
      () => ({
        method: 'GET',
        target: `${ws}?apikey=${b64url(json({ alg: 'none' }))}.${b64url(json(serviceClaims()))}.`,
        headers: upgrade(),
      }),
      401,
      'json',
    ],
    [
      'upgrade with an expired apikey',
      () => ({
        method: 'GET',
        target: `${ws}?apikey=${hs('HS256', { ...serviceClaims(), exp: now() - 5 })}`,
        headers: upgrade(),
      }),
      401,
      'json',
    ],
    [
      'upgrade with an unknown vsn',
      () => ({
        method: 'GET',
        target: `${ws}?vsn=9.9.9&apikey=${stack.anonKey}`,
        headers: upgrade(),
      }),
      400,
      'json',
    ],
    [
      'upgrade without a key',
      () => ({
        method: 'GET',
        target: `${ws}?apikey=${stack.anonKey}`,
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' },
      }),
      400,
      'any',
    ],
    [
      'upgrade with a bad version',
      () => ({
        method: 'GET',
        target: `${ws}?apikey=${stack.anonKey}`,
        headers: upgrade({ 'sec-websocket-version': '7' }),
      }),
      [400, 426],
      'any',
    ],
    [
      'upgrade with a bad key',
      () => ({
        method: 'GET',
        target: `${ws}?apikey=${stack.anonKey}`,
        headers: upgrade({ 'sec-websocket-key': 'short' }),
      }),
      400,
      'any',
    ],
    [
      'upgrade by POST',
      () => ({ method: 'POST', target: `${ws}?apikey=${stack.anonKey}`, headers: upgrade() }),
      [400, 404, 405],
      'any',
    ],
    [
      'upgrade of another path',
      () => ({
        method: 'GET',
        target: `/realtime/v1/other?apikey=${stack.anonKey}`,
        headers: upgrade(),
      }),
      404,
      'any',
    ],
  ];
  return cases.map(([name, request, status, shape]) => ({
    name: `realtime ${name}`,
    request,
    status,
    shape,
  }));
}

// --- runtime fixtures ------------------------------------------------------------------------------

const knownUser = { id: '', email: `robust-${randomUUID().slice(0, 8)}@example.com`, token: '' };
const PASSWORD = 'robust-password-1';
let db: pg.Pool;

/** Everything the SQL-looking cases could have touched, fingerprinted by a superuser. */
async function fingerprint() {
  const { rows } = await db.query<Record<string, string>>(
    `select (select count(*) from public.blog_posts)::text as posts,
            (select md5(string_agg(title, ',' order by id)) from public.blog_posts) as titles,
            (select count(*) from public.list_subscribers)::text as subscribers,
            (select count(*) from auth.users)::text as users,
            (select count(*) from pg_catalog.pg_tables where schemaname in ('public', 'auth'))::text as tables`,
  );
  return rows[0];
}

let before: Record<string, string>;

/** A fresh client as apps build it (Node 20 has no global WebSocket, so `ws` is the transport). */
const supabase = () =>
  createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });

beforeAll(async () => {
  db = new pg.Pool({ connectionString: stack.dbUrl, max: 2 });
  // A confirmed user (sign-ups wait for their e-mail to be confirmed), signed in.
  const created = await createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  }).auth.admin.createUser({ email: knownUser.email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const { data, error } = await supabase().auth.signInWithPassword({
    email: knownUser.email,
    password: PASSWORD,
  });
  if (error || !data.session) throw error ?? new Error('no session');
  knownUser.id = data.session.user.id;
  knownUser.token = data.session.access_token;
  before = await fingerprint();
});

afterAll(async () => {
  await db.end();
});

function expectClean(res: RawResponse, c: Case) {
  const context = `${c.name}: ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  if (Array.isArray(c.status)) expect(c.status, context).toContain(res.status);
  else expect(res.status, context).toBe(c.status);
  if (c.shape === 'any' || res.status < 400) return;
  expect(res.headers['content-type'] ?? '', context).toContain('json');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  if (c.shape === 'gotrue') {
    const oauth = typeof body.error === 'string' && typeof body.error_description === 'string';
    if (!oauth)
      expect(body, context).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
  } else if (c.shape === 'postgrest') {
    expect(Object.keys(body).sort(), context).toEqual(['code', 'details', 'hint', 'message']);
  }
  if (c.code) expect(body.code ?? body.error, context).toBe(c.code);
}

// --- the HTTP corpus ---------------------------------------------------------------------------

const corpus = [...authCases(), ...restCases(), ...functionCases(), ...realtimeHttpCases()];

describe('malformed and hostile HTTP requests', () => {
  it('the corpus has at least 80 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(80);
  });

  it.each(corpus.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expectClean(await rawHttp(c.request()), c);
  });

  it('a header block over the limit gets 431, not a dropped connection', async () => {
    const res = await rawHttp({
      method: 'GET',
      target: `/rest/v1/blog_posts?${'a=eq.1&'.repeat(20_000)}`,
      headers: anonHeaders(),
    });
    expect(res.status).toBe(431);
  });

  it('SQL-looking input changed nothing in the database', async () => {
    const after = await fingerprint();
    // Only the deliberately valid sign-ups may have added users; nothing else moved.
    expect({ ...after, users: undefined }).toEqual({ ...before, users: undefined });
    const { rows } = await db.query<{ n: string }>(
      `select count(*)::text as n from public.blog_posts where title like '%drop table%'`,
    );
    expect(rows[0].n).toBe('0');
  });
});

// --- malformed Phoenix frames over a real WebSocket -----------------------------------------------

type Frame = string | Buffer;

function wsGarbage(vsn: '1.0.0' | '2.0.0'): [string, Frame][] {
  const topic = 'realtime:robust';
  const frame = (joinRef: unknown, ref: unknown, t: unknown, event: unknown, payload: unknown) =>
    vsn === '2.0.0'
      ? json([joinRef, ref, t, event, payload])
      : json({ join_ref: joinRef, ref, topic: t, event, payload });
  return [
    ['non-JSON text', 'hello {'],
    ['empty text', ''],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['an array of the wrong arity', json(['1', '1', topic])],
    ['an array of six', json(['1', '1', topic, 'phx_join', {}, 'extra'])],
    ['an object frame', json({ topic, event: 'phx_join' })],
    ['a numeric topic', frame('1', '1', 42, 'phx_join', {})],
    ['a numeric event', frame('1', '1', topic, 7, {})],
    ['an unknown event', frame('1', '2', topic, 'drop_table', {})],
    ['a join with a string config', frame('3', '3', topic, 'phx_join', { config: 'x' })],
    [
      'a join with a string postgres_changes',
      frame('4', '4', topic, 'phx_join', { config: { postgres_changes: 'x' } }),
    ],
    [
      'a join with garbage bindings',
      frame('5', '5', topic, 'phx_join', {
        config: {
          postgres_changes: [1, null, 'x', { event: 5 }, { event: 'INSERT', table: { a: 1 } }],
        },
      }),
    ],
    [
      'a join with a bad filter',
      frame('6', '6', `${topic}2`, 'phx_join', {
        config: {
          postgres_changes: [{ event: '*', schema: 'public', table: 'entries', filter: 'id=zz.1' }],
        },
      }),
    ],
    [
      'a join with an SQL filter',
      frame('7', '7', `${topic}3`, 'phx_join', {
        config: {
          postgres_changes: [
            {
              event: '*',
              schema: 'public',
              table: 'entries',
              filter: "id=eq.1'; drop table entries; --",
            },
          ],
        },
      }),
    ],
    [
      'a join with a NUL filter',
      frame('8', '8', `${topic}4`, 'phx_join', {
        config: {
          postgres_changes: [
            { event: '*', schema: 'public', table: 'forms', filter: 'name=eq.a\u0000b' },
          ],
        },
      }),
    ],
    [
      'a join with a forged token',
      frame('9', '9', `${topic}5`, 'phx_join', { access_token: 'a.b.c', config: {} }),
    ],
    ['a join without a topic name', frame('10', '10', 'realtime:', 'phx_join', {})],
    [
      'an access_token that is an object',
      frame('3', '11', topic, 'access_token', { access_token: { a: 1 } }),
    ],
    ['a broadcast with a garbage payload', frame('3', '12', topic, 'broadcast', 'x')],
    ['a leave of an unknown topic', frame('1', '13', 'realtime:nope', 'phx_leave', null)],
    ['a heartbeat with a huge ref', frame(null, 'x'.repeat(100_000), 'phoenix', 'heartbeat', {})],
    ['binary garbage', Buffer.from([0xff, 0x00, 0x13, 0x37, 0xde, 0xad])],
    ['a truncated binary broadcast', Buffer.from([3, 255, 255, 255, 255, 255, 1])],
    ['a binary broadcast with zero lengths', Buffer.from([3, 0, 0, 0, 0, 0, 1])],
    // Just under Realtime's 1 MiB frame cap (larger frames close the socket with 1009; see
    // realtime-limits.test.ts).
    ['a 1 MB text frame', 'x'.repeat(1000 * 1000)],
    [
      'a join with config nested 50,000 deep',
      frame('11', '14', `${topic}6`, 'phx_join', 'DEEP').replace(
        '"DEEP"',
        `{"config":{"postgres_changes":[{"event":"*","schema":"public","table":"forms","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}}`,
      ),
    ],
  ];
}

/** The `ref` of a reply frame, in either protocol version. */
function replyRef(msg: unknown): unknown {
  if (Array.isArray(msg)) return msg[3] === 'phx_reply' ? msg[1] : undefined;
  const o = msg as { event?: unknown; ref?: unknown };
  return o.event === 'phx_reply' ? o.ref : undefined;
}

/** The ref of a well-formed `phx_join` frame, else null. */
function joinRef(frame: Frame): string | null {
  if (typeof frame !== 'string') return null;
  let msg: unknown;
  try {
    msg = JSON.parse(frame);
  } catch {
    return null;
  }
  if (Array.isArray(msg)) {
    return msg.length === 5 && msg[3] === 'phx_join' && typeof msg[2] === 'string'
      ? (msg[1] as string)
      : null;
  }
  const o = msg as { event?: unknown; topic?: unknown; ref?: unknown } | null;
  return o && o.event === 'phx_join' && typeof o.topic === 'string' && typeof o.ref === 'string'
    ? o.ref
    : null;
}

function openSocket(vsn: '1.0.0' | '2.0.0'): Promise<WebSocket> {
  const url = `${stack.apiUrl.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.anonKey}&vsn=${vsn}`;
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends a heartbeat and waits for its reply: proof the socket is alive and still served. */
function heartbeat(socket: WebSocket, vsn: '1.0.0' | '2.0.0', ref: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no heartbeat reply')), ANSWER_TIMEOUT_MS);
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
      if (isBinary) return;
      const msg = JSON.parse(String(data)) as unknown;
      const replyRef = Array.isArray(msg) ? msg[1] : (msg as { ref?: unknown }).ref;
      if (replyRef === ref) {
        clearTimeout(timer);
        socket.off('message', onMessage);
        resolve();
      }
    };
    socket.on('message', onMessage);
    socket.send(
      vsn === '2.0.0'
        ? json([null, ref, 'phoenix', 'heartbeat', {}])
        : json({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref }),
    );
  });
}

describe.each(['2.0.0', '1.0.0'] as const)('malformed realtime frames (vsn %s)', (vsn) => {
  it.each(wsGarbage(vsn).map(([name, frame]) => [name, frame] as const))(
    '%s leaves the socket open and served',
    async (name, frame) => {
      const socket = await openSocket(vsn);
      const closed = new Promise<number>((resolve) => socket.once('close', resolve));
      const replies: unknown[] = [];
      socket.on('message', (data, isBinary) => {
        if (!isBinary) replies.push(JSON.parse(String(data)));
      });
      socket.send(frame, { binary: Buffer.isBuffer(frame) });
      await heartbeat(socket, vsn, `hb-${name.length}`);
      expect(socket.readyState).toBe(WebSocket.OPEN);
      // A join always gets its own answer (ok or an error reason), never silence.
      const join = joinRef(frame);
      if (join !== null) {
        await expect.poll(() => replies.some((r) => replyRef(r) === join)).toBe(true);
      }
      socket.close();
      await closed;
    },
  );
});

// --- the stack still serves ordinary clients -------------------------------------------------------

describe('after the corpus, supabase-js still works', () => {
  it('signs in', async () => {
    const { data, error } = await supabase().auth.signInWithPassword({
      email: knownUser.email,
      password: PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(knownUser.id);
  });

  it('selects', async () => {
    const { data, error } = await supabase().from('blog_posts').select('id, title').order('id');
    expect(error).toBeNull();
    expect(data?.length).toBeGreaterThanOrEqual(5);
  });

  it('invokes the forms function, which answers itself', async () => {
    const { error } = await supabase().functions.invoke(`forms/${randomUUID()}`, {
      body: { name: 'x', message: 'y' },
      headers: { accept: 'application/json' },
    });
    // An unknown form id: the function's own JSON refusal, not the router's or a crash.
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBeLessThan(500);
    expect(await response.json()).toMatchObject({ ok: false, code: expect.any(String) });
  });

  it('subscribes to realtime', async () => {
    const client = supabase();
    const status = await new Promise<string>((resolve) => {
      client
        .channel(`robust-${randomUUID()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'forms' }, () => undefined)
        .subscribe((s) => {
          if (s !== 'CLOSED') resolve(s);
        });
    });
    expect(status).toBe('SUBSCRIBED');
    await client.removeAllChannels();
  });
});
