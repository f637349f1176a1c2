// Helpers for the form endpoint's integration tests: seeding forms, raw HTTP requests (so that
// malformed bodies, odd methods and forged headers reach the function byte for byte), and
// counting what got stored.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createAuthUser, createForm } from '../support/db.ts';

export const ORIGIN = 'https://site.example.test';

export interface SeededForm {
  formId: string;
  userId: string;
  targetEmail: string;
  name: string;
}

/**
 * A user and one form with a unique target address, so each test finds its own e-mails. The
 * address is the owner's own confirmed account e-mail, which needs no confirmation: its messages
 * are e-mailed at once.
 */
export async function seedForm(pool: pg.Pool, name = 'Contact'): Promise<SeededForm> {
  const targetEmail = `inbox-${randomUUID().slice(0, 8)}@owner.example.test`;
  const user = await createAuthUser(pool, 'Owner', targetEmail);
  // Stored with a trailing slash and upper case on purpose: the data model normalises origins.
  const formId = await createForm(pool, user.id, {
    name,
    target_email: targetEmail,
    allowed_origin: `${ORIGIN.toUpperCase()}/`,
  });
  return { formId, userId: user.id, targetEmail, name };
}

/** Turns uploads on for `of` with these settings (small limits unless given), or updates them. */
export async function setFormUploads(
  pool: pg.Pool,
  of: SeededForm,
  settings: Record<string, unknown> = {},
): Promise<void> {
  await pool.query(
    `insert into public.form_uploads (form_id, user_id, enabled, kinds, max_file_bytes,
        max_total_bytes, max_files)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (form_id) do update set enabled = excluded.enabled, kinds = excluded.kinds,
       max_file_bytes = excluded.max_file_bytes, max_total_bytes = excluded.max_total_bytes,
       max_files = excluded.max_files`,
    [
      of.formId,
      of.userId,
      settings.enabled ?? true,
      settings.kinds ?? ['image', 'pdf'],
      settings.max_file_bytes ?? 5000,
      settings.max_total_bytes ?? 8000,
      settings.max_files ?? 3,
    ],
  );
}

export const functionUrl = (apiUrl: string, formId: string) =>
  `${apiUrl}/functions/v1/forms/${formId}`;
/** The spec's public path, routed by the gateway to the same function. */
export const publicUrl = (apiUrl: string, formId: string) => `${apiUrl}/api/forms/${formId}`;

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends exactly these bytes and headers (no fetch normalisation, no redirect following). */
export function rawRequest(
  url: string,
  opts: {
    method?: string;
    headers?: Record<string, string | number>;
    body?: Buffer | string;
    chunked?: boolean;
    /** The client's own address (any 127.x.y.z on Linux), to be a different visitor. */
    localAddress?: string;
    /** A keep-alive agent to reuse connections (load tests); default: a new connection each. */
    agent?: http.Agent;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body =
      opts.body === undefined
        ? undefined
        : Buffer.isBuffer(opts.body)
          ? opts.body
          : Buffer.from(opts.body);
    const headers: Record<string, string | number> = { ...opts.headers };
    if (
      body &&
      !opts.chunked &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')
    ) {
      headers['content-length'] = body.length;
    }
    const req = http.request(
      url,
      {
        method: opts.method ?? 'POST',
        headers,
        agent: opts.agent ?? false,
        localAddress: opts.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body && opts.chunked) {
      // Several writes without a length: the server only learns the size by reading.
      for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
    } else if (body) req.write(body);
    req.end();
  });
}

export const urlencoded = (fields: Record<string, string> | [string, string][]) =>
  new URLSearchParams(fields as Record<string, string>).toString();

/** A multipart body as browsers build it. */
export function multipart(
  fields: [string, string][],
  boundary = '----tinybackTestBoundary7MA4YWxk',
): { body: Buffer; type: string } {
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface Stored {
  entries: number;
  deliveries: number;
}

export async function storedFor(pool: pg.Pool, formId: string): Promise<Stored> {
  const { rows } = await pool.query<{ entries: number; deliveries: number }>(
    `select (select count(*)::int from public.entries where form_id = $1) as entries,
            (select count(*)::int from public.email_deliveries d join public.entries e on e.id = d.entry_id
              where e.form_id = $1) as deliveries`,
    [formId],
  );
  return rows[0]!;
}

export async function totalEntries(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from public.entries');
  return rows[0]!.n;
}

/** Forgets every client's counters, so one test's posts never rate-limit the next test's. */
export async function resetRateLimits(pool: pg.Pool): Promise<void> {
  await pool.query('delete from private.submission_rate_limits');
}

/**
 * Waits, if needed, until the current rate-limit minute (date_trunc('minute', now()) in the
 * database) has at least 20 s left, so a burst sent now is counted in one window.
 */
export async function freshMinute(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ s: number }>(
    `select extract(second from now())::float8 as s`,
  );
  if (rows[0]!.s > 40) await new Promise((r) => setTimeout(r, (60 - rows[0]!.s + 0.2) * 1000));
}

/** Polls `probe` until `done` holds; fails with the last value seen after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A post as a JSON client sends it: urlencoded fields from the allowed origin, JSON answer; with
 * more headers (an Idempotency-Key) and from a client address of its own if asked.
 */
export const postFields = (
  apiUrl: string,
  formId: string,
  fields: Record<string, string>,
  opts: { headers?: Record<string, string>; localAddress?: string } = {},
) =>
  rawRequest(functionUrl(apiUrl, formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'application/json',
      ...opts.headers,
    },
    body: urlencoded(fields),
    localAddress: opts.localAddress,
  });

/** One outbox run (e-mails and webhooks), as pg_cron or the local scheduler makes every minute. */
export const runDeliver = (stack: { apiUrl: string; serviceRoleKey: string }) =>
  rawRequest(`${stack.apiUrl}/functions/v1/forms/_deliver`, {
    headers: {
      authorization: `Bearer ${stack.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: '{}',
  });
