// A generated corpus of malformed and hostile requests for the form endpoint. Every case must be
// refused with a clear 4xx and store nothing: bad JSON, broken multipart, oversize bodies and
// fields, invalid UTF-8, header-injection attempts, SQL-looking values, unknown ids, wrong methods,
// forged origins and unsupported types.
import { LIMITS } from '../../supabase/functions/_shared/limits.ts';

export interface HostileCase {
  name: string;
  method: string;
  /** The form id segment to post to (the real form unless the case is about ids). */
  id: string | null;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send without Content-Length, in chunks. */
  chunked?: boolean;
  /** The exact status expected, or null for "any 4xx" (e.g. the HTTP layer refusing first). */
  status: number | null;
}

const b = (s: string) => Buffer.from(s, 'utf8');
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

export function hostileCorpus(origin: string): HostileCase[] {
  const cases: HostileCase[] = [];
  const form = 'application/x-www-form-urlencoded';
  const json = 'application/json';
  const add = (
    name: string,
    status: number | null,
    body: Buffer | string | undefined,
    headers: Record<string, string> = {},
    extra: Partial<HostileCase> = {},
  ) =>
    cases.push({
      name,
      method: 'POST',
      id: null,
      headers: { origin, accept: 'application/json', ...headers },
      body: typeof body === 'string' ? b(body) : body,
      status,
      ...extra,
    });

  // --- bad JSON (400) ----------------------------------------------------------------------------
  const badJson = [
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1} trailing',
    '[]',
    '[{"a":1}]',
    '"text"',
    '42',
    'true',
    'null',
    '',
    ' ',
    'NaN',
    '{"a":undefined}',
    '{"a":0x10}',
    '{a:1}',
    '{"a":"unterminated}',
    '{"a":"\\x41"}',
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":1}{"b":2}',
  ];
  badJson.forEach((body, i) =>
    add(`bad JSON #${i}: ${body.slice(0, 20)}`, 400, body, { 'content-type': json }),
  );
  // Nested values have no column to go to (422).
  for (const body of ['{"a":{"b":1}}', '{"a":[{"b":1}]}', '{"a":[[1]]}', '{"message":{"$gt":""}}'])
    add(`JSON nested ${body}`, 422, body, { 'content-type': json });

  // --- broken multipart (400) / files (415) --------------------------------------------------------
  const mp = (boundary: string) => ({
    'content-type': `multipart/form-data; boundary=${boundary}`,
  });
  const part = (name: string, value: string, boundary = 'B') =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  add(
    'multipart truncated mid-value',
    400,
    `--B\r\nContent-Disposition: form-data; name="message"\r\n\r\nhello wor`,
    mp('B'),
  );
  add('multipart truncated in headers', 400, `--B\r\nContent-Disposition: form-data; na`, mp('B'));
  add('multipart without closing delimiter', 400, part('message', 'x'), mp('B'));
  add(
    'multipart with wrong boundary',
    400,
    part('message', 'x', 'OTHER') + '--OTHER--\r\n',
    mp('B'),
  );
  add('multipart without boundary parameter', 400, part('message', 'x') + '--B--\r\n', {
    'content-type': 'multipart/form-data',
  });
  add(
    'multipart with 71-char boundary',
    400,
    part('message', 'x', 'x'.repeat(71)) + `--${'x'.repeat(71)}--\r\n`,
    mp('x'.repeat(71)),
  );
  add(
    'multipart part without name',
    400,
    '--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--\r\n',
    mp('B'),
  );
  add(
    'multipart part without disposition',
    400,
    '--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n',
    mp('B'),
  );
  add(
    'multipart attachment disposition',
    400,
    '--B\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--B--\r\n',
    mp('B'),
  );
  add(
    'multipart header line without colon',
    400,
    '--B\r\nContent-Disposition: form-data; name="a"\r\nbogus\r\n\r\nx\r\n--B--\r\n',
    mp('B'),
  );
  add('multipart preamble', 400, 'junk\r\n' + part('message', 'x') + '--B--\r\n', mp('B'));
  add('multipart empty body', 400, '', mp('B'));
  add(
    'multipart LF-only line endings',
    400,
    '--B\nContent-Disposition: form-data; name="a"\n\nx\n--B--\n',
    mp('B'),
  );
  add(
    'multipart file part',
    415,
    '--B\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhi\r\n--B--\r\n',
    mp('B'),
  );
  add(
    'multipart file part with empty filename',
    415,
    '--B\r\nContent-Disposition: form-data; name="f"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n',
    mp('B'),
  );
  add(
    'multipart binary part',
    415,
    '--B\r\nContent-Disposition: form-data; name="f"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--B--\r\n',
    mp('B'),
  );
  add(
    'multipart script upload',
    415,
    '--B\r\nContent-Disposition: form-data; name="f"; filename="x.php"\r\nContent-Type: application/x-php\r\n\r\n<?php system($_GET[c]); ?>\r\n--B--\r\n',
    mp('B'),
  );

  // --- oversize (413) and over-limit fields (422) --------------------------------------------------
  add('body one byte over the limit', 413, `message=${'a'.repeat(LIMITS.maxBodyBytes - 7)}`, {
    'content-type': form,
  });
  add('1 MiB body', 413, `message=${'a'.repeat(1024 * 1024)}`, { 'content-type': form });
  add(
    'oversize body sent chunked',
    413,
    `message=${'a'.repeat(LIMITS.maxBodyBytes + 10)}`,
    { 'content-type': form },
    { chunked: true },
  );
  add('oversize JSON', 413, JSON.stringify({ message: 'a'.repeat(LIMITS.maxBodyBytes) }), {
    'content-type': json,
  });
  add(
    'too many fields',
    413,
    Array.from({ length: LIMITS.maxFields + 1 }, (_, i) => `f${i}=1`).join('&'),
    { 'content-type': form },
  );
  add('too many empty fields', 413, Array.from({ length: 5000 }, () => `x=`).join('&'), {
    'content-type': form,
  });
  add('name over limit', 422, `name=${'n'.repeat(LIMITS.maxNameLength + 1)}&message=x`, {
    'content-type': form,
  });
  add('email over limit', 422, `email=${'e'.repeat(LIMITS.maxEmailLength)}%40example.org`, {
    'content-type': form,
  });
  add('message over limit', 422, `message=${'m'.repeat(LIMITS.maxMessageLength + 1)}`, {
    'content-type': form,
  });
  add('other field over limit', 422, `notes=${'o'.repeat(LIMITS.maxOtherValueLength + 1)}`, {
    'content-type': form,
  });
  add('field name over limit', 422, `${'k'.repeat(LIMITS.maxFieldNameLength + 1)}=v`, {
    'content-type': form,
  });
  add('subject over limit', 422, `message=x&_subject=${'s'.repeat(LIMITS.maxSubjectLength + 1)}`, {
    'content-type': form,
  });
  add(
    'emoji message over limit',
    422,
    JSON.stringify({ message: '😀'.repeat(LIMITS.maxMessageLength + 1) }),
    { 'content-type': json },
  );

  // --- invalid UTF-8 (400) ---------------------------------------------------------------------------
  const utf8Attacks: [string, number[]][] = [
    ['lone continuation byte', [0x80]],
    ['0xFF byte', [0xff]],
    ['overlong slash', [0xc0, 0xaf]],
    ['overlong NUL', [0xc0, 0x80]],
    ['UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['truncated 3-byte sequence', [0xe2, 0x82]],
    ['code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ];
  for (const [label, seq] of utf8Attacks) {
    add(`urlencoded raw ${label}`, 400, bytes('message=a', seq, 'b'), { 'content-type': form });
    add(`JSON ${label}`, 400, bytes('{"message":"a', seq, 'b"}'), { 'content-type': json });
    add(
      `multipart ${label}`,
      400,
      bytes('--B\r\nContent-Disposition: form-data; name="message"\r\n\r\na', seq, '\r\n--B--\r\n'),
      mp('B'),
    );
  }
  for (const esc of ['%FF', '%C0%AF', '%ED%A0%80', '%E2%82', '%', '%G1', '%2'])
    add(`urlencoded escape ${esc}`, 400, `message=a${esc}`, { 'content-type': form });

  // --- header injection through fields (422: not an address) -------------------------------------
  for (const inj of [
    'a@b.example%0d%0aBcc:%20victim@example.org',
    'a@b.example%0aBcc:victim@example.org',
    'a@b.example%0d%0a%0d%0abody',
    'victim@example.org,%20other@example.org',
    'Name%20<a@b.example>',
    'a@b.example%0d%0aContent-Type:%20text/html',
  ]) {
    add(`email injection ${inj}`, 422, `email=${inj}&message=x`, { 'content-type': form });
    add(`_replyto injection ${inj}`, 422, `_replyto=${inj}&message=x`, { 'content-type': form });
  }
  add(
    'JSON email injection',
    422,
    JSON.stringify({ email: 'a@b.example\r\nBcc: victim@example.org', message: 'x' }),
    { 'content-type': json },
  );
  add('repeated email field', 422, 'email=a@b.example&email=c@d.example&message=x', {
    'content-type': form,
  });
  add('repeated _subject', 422, '_subject=a&_subject=b&message=x', { 'content-type': form });
  add('repeated _next', 422, '_next=a&_next=b&message=x', { 'content-type': form });

  // --- SQL-looking values in places that are refused ----------------------------------------------
  for (const sql of [
    "' OR '1'='1",
    "'; DROP TABLE entries; --",
    '1; SELECT pg_sleep(10)',
    '" OR 1=1 --',
    "admin'--",
  ]) {
    add(
      `SQL in form id: ${sql}`,
      404,
      'message=x',
      { 'content-type': form },
      { id: encodeURIComponent(sql) },
    );
    add(`SQL in email: ${sql}`, 422, `email=${encodeURIComponent(sql)}&message=x`, {
      'content-type': form,
    });
    add(`SQL in origin: ${sql}`, 403, 'message=x', {
      'content-type': form,
      origin: `https://x.example/${encodeURIComponent(sql)}`,
    });
  }

  // --- unknown ids (404) -----------------------------------------------------------------------------
  for (const id of [
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-4fff-bfff-ffffffffffff',
    'abc',
    '12345',
    'x'.repeat(500),
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '0b5c6a1e3f7d4c2a9e8b1d2c3b4a5f60',
    '{0b5c6a1e-3f7d-4c2a-9e8b-1d2c3b4a5f60}',
    '_deliverx',
  ])
    add(`unknown id ${id.slice(0, 30)}`, 404, 'message=x', { 'content-type': form }, { id });

  // --- wrong methods (405) ---------------------------------------------------------------------------
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'])
    add(
      `method ${method}`,
      405,
      method === 'GET' ? undefined : 'message=x',
      method === 'GET' ? {} : { 'content-type': form },
      { method },
    );
  cases.push({ name: 'method HEAD', method: 'HEAD', id: null, headers: { origin }, status: 405 });
  cases.push({
    name: 'method PROPFIND',
    method: 'PROPFIND',
    id: null,
    headers: { origin },
    status: null,
  });
  cases.push({
    name: '_deliver without a key',
    method: 'POST',
    id: '_deliver',
    headers: {},
    status: 401,
  });
  cases.push({
    name: '_deliver with the anon key',
    method: 'POST',
    id: '_deliver',
    headers: { authorization: 'Bearer ANON' },
    status: 401,
  });
  cases.push({ name: '_deliver by GET', method: 'GET', id: '_deliver', headers: {}, status: 405 });

  // --- forged or missing origins (403) -------------------------------------------------------------
  const u = new URL(origin);
  for (const bad of [
    'https://evil.example',
    'null',
    `http://${u.host}`,
    `${origin}:8443`,
    `https://evil.${u.host}`,
    `https://${u.host}.evil.example`,
    'file://',
    'javascript:alert(1)',
    ' ',
  ])
    add(`origin ${bad}`, 403, 'message=x', { 'content-type': form, origin: bad });
  cases.push({
    name: 'foreign referer only',
    method: 'POST',
    id: null,
    headers: {
      accept: 'application/json',
      'content-type': form,
      referer: 'https://evil.example/x',
    },
    body: b('message=x'),
    status: 403,
  });
  cases.push({
    name: 'no origin, no referer',
    method: 'POST',
    id: null,
    headers: { accept: 'application/json', 'content-type': form },
    body: b('message=x'),
    status: 403,
  });

  // --- unsupported types (415) ----------------------------------------------------------------------
  for (const type of [
    'text/plain',
    'text/html',
    'application/xml',
    'application/octet-stream',
    'multipart/mixed; boundary=B',
    'application/json-patch+json',
    'application/x-www-form-urlencoded; charset=iso-8859-1',
    'application/json; charset=utf-16',
  ])
    add(`content type ${type}`, 415, 'message=x', { 'content-type': type });
  add('no content type', 415, 'message=x', {});

  // --- empty and nameless submissions ---------------------------------------------------------------
  add('empty urlencoded body', 422, '', { 'content-type': form });
  add('only special fields', 422, '_subject=hi&_next=https://x.example', { 'content-type': form });
  add('only whitespace values', 422, 'name=%20%20&message=%0A%0A', { 'content-type': form });
  add('empty JSON object', 422, '{}', { 'content-type': json });
  add('nameless field', 400, '=value', { 'content-type': form });
  add('control-character field name', 400, '%00%01=value', { 'content-type': form });

  return cases;
}
