// Shared parts of the load and fault tests (`npm run test:load`): a stack of their own with the
// forms function's rate limits lifted, owners and forms to spread the posts over, a load driver
// of C concurrent clients sending N JSON posts, and the checks every run ends with (each 2xx is
// exactly one stored row, each non-spam entry has its e-mail job, each e-mail caught once).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { expect } from 'vitest';
import { SUPABASE_DIR } from '../../local-stack/config.ts';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import { listMail } from '../support/mail.ts';
import { startNewAccountsUnlimited } from '../support/plans.ts';
import {
  functionUrl,
  ORIGIN,
  rawRequest,
  seedForm,
  until,
  type SeededForm,
} from '../endpoint/support.ts';

/** Positive integer from the environment, else the fallback. */
function sizeFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/**
 * The run's size: CI's default keeps `npm run test:load` under two minutes; the full size, run by
 * hand, is LOAD_SUBMISSIONS=10000 LOAD_CLIENTS=50 (README, "Load and fault tests").
 */
export const SIZE = {
  submissions: sizeFromEnv('LOAD_SUBMISSIONS', 500),
  clients: sizeFromEnv('LOAD_CLIENTS', 16),
};

/** Owners (one form each) the posts are spread over, as many visitors' sites would be. */
const OWNERS = Math.min(SIZE.clients, 10);

/** Every this-many-th post fills the honeypot: stored as spam, never e-mailed. */
const SPAM_EVERY = 10;

/** The test-only switch of the forms function (supabase/functions/forms/README.md). */
const RATE_LIMITS_OFF = { FORMS_RATE_LIMITS: 'off' };
const LIFTED_WARNING = 'FORMS_RATE_LIMITS=off: RATE LIMITS ARE LIFTED';

export interface LoadStack {
  stack: RunningStack;
  /** What the functions service logged (worker starts and exits, the lifted-limits warning). */
  functionLog: string[];
  stop(): Promise<void>;
}

/**
 * A stack of its own on free ports, with FORMS_RATE_LIMITS=off (which also lifts the per-account
 * notification caps, so every post is e-mailed) and the `_deliver` schedule every 250 ms instead
 * of every minute. Says in the test output that the limits are lifted.
 */
export async function startLoadStack(label: string): Promise<LoadStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `tinyback-load-${label}-`));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  const functionLog: string[] = [];
  // A copy of supabase/ for the run: an edit of the checkout mid-run would otherwise reload the
  // function (the stack's watcher), a restart the test did not ask for.
  const supabaseDir = path.join(dataDir, 'supabase');
  await cp(SUPABASE_DIR, supabaseDir, { recursive: true });
  const stack = await startStack({
    dataDir,
    supabaseDir,
    ports: { api, db, mailWeb, smtp },
    seed: false,
    functionEnv: RATE_LIMITS_OFF,
    deliveryIntervalMs: 250,
    log: (service, message) => {
      if (service === 'functions') functionLog.push(message);
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
  // Thousands of posts per owner: no plan quota (tests/support/plans.ts), as the limits above.
  await startNewAccountsUnlimited(stack.settings.dbUrl);
  // Boot the function's worker before the clock starts (no form: 404, nothing stored).
  await rawRequest(functionUrl(stack.settings.apiUrl, 'warm-up'), { body: '{}' });
  console.log(
    `[load] ${label}: ${SIZE.submissions} submissions from ${SIZE.clients} clients over ` +
      `${OWNERS} owners; rate limits and notification caps LIFTED by the test-only ` +
      `FORMS_RATE_LIMITS=off (never set it in production), owners on the unlimited plan`,
  );
  return {
    stack,
    functionLog,
    async stop() {
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The function said it runs with the limits lifted (it boots on the first post). */
export function expectLimitsLifted(functionLog: string[]) {
  expect(functionLog.some((line) => line.includes(LIFTED_WARNING))).toBe(true);
}

/** `count` owners with one form each, e-mailing the owner's own confirmed address. */
export function seedOwners(pool: pg.Pool, count = OWNERS): Promise<SeededForm[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => seedForm(pool, `Load ${i + 1}`)));
}

/** One attempt of one submission and how it was answered. */
export interface Attempt {
  submission: number;
  formId: string;
  /** HTTP status; 0 when the connection failed without an answer. */
  status: number;
  retryAfter: string | undefined;
  /** The function's `code` (errors) or the gateway's (`WORKER_ERROR`). */
  code: string | undefined;
  /** The stored entry's id, for a 2xx. */
  id: string | undefined;
  spam: boolean;
  /** When it was answered, ms since the run started. */
  at: number;
}

export interface LoadOptions {
  apiUrl: string;
  forms: SeededForm[];
  submissions?: number;
  clients?: number;
  /**
   * Whether a failed attempt is sent again, and after how many ms (a visitor's script retrying);
   * null: the submission is given up. Default: never.
   */
  retry?: (attempt: Attempt) => number | null;
  /** Longest pause a retry may take, so an outage test stays short (default 1 s). */
  maxRetryPauseMs?: number;
}

export interface LoadRun {
  /** Submissions finished so far (answered 2xx, or given up). */
  finished(): number;
  /** Resolves once `count` submissions have finished. */
  reached(count: number): Promise<void>;
  /** Every attempt, once all submissions have finished. */
  done: Promise<Attempt[]>;
  /** The run's start, for `Attempt.at`. */
  startedAt: number;
}

/** A unique marker of one run's submission, carried in its message. */
const markerOf = (run: string, submission: number) => `load ${run} #${submission}`;

/**
 * Sends `submissions` JSON posts from `clients` concurrent clients, each a different visitor
 * (its own 127.0.1.x address and keep-alive connection), spreading them over `forms`.
 */
export function startLoad(options: LoadOptions): LoadRun {
  const total = options.submissions ?? SIZE.submissions;
  const clients = Math.min(options.clients ?? SIZE.clients, total);
  const run = randomUUID().slice(0, 8);
  const attempts: Attempt[] = [];
  const startedAt = performance.now();
  let next = 0;
  let finished = 0;
  let waiters: { count: number; resolve: () => void }[] = [];
  const finish = () => {
    finished++;
    waiters = waiters.filter((w) => (w.count <= finished ? (w.resolve(), false) : true));
  };

  const client = async (c: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const localAddress = `127.0.1.${(c % 250) + 1}`;
    try {
      for (let submission = next++; submission < total; submission = next++) {
        const form = options.forms[submission % options.forms.length]!;
        const spam = submission % SPAM_EVERY === SPAM_EVERY - 1;
        const body = JSON.stringify({
          name: `Visitor ${c}`,
          email: `visitor-${c}@example.test`,
          message: markerOf(run, submission),
          ...(spam ? { _gotcha: 'I am a bot' } : {}),
        });
        for (;;) {
          const attempt = await send(options.apiUrl, form.formId, body, agent, localAddress);
          const recorded: Attempt = {
            submission,
            formId: form.formId,
            spam,
            ...attempt,
            at: performance.now() - startedAt,
          };
          attempts.push(recorded);
          if (attempt.status >= 200 && attempt.status < 300) break;
          const pause = options.retry?.(recorded) ?? null;
          if (pause === null) break;
          await new Promise((r) => setTimeout(r, Math.min(pause, options.maxRetryPauseMs ?? 1000)));
        }
        finish();
      }
    } finally {
      agent.destroy();
    }
  };

  const done = Promise.all(Array.from({ length: clients }, (_, c) => client(c))).then(
    () => attempts,
  );
  return {
    finished: () => finished,
    reached: (count) =>
      count <= finished
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    done,
    startedAt,
  };
}

async function send(
  apiUrl: string,
  formId: string,
  body: string,
  agent: http.Agent,
  localAddress: string,
): Promise<Pick<Attempt, 'status' | 'retryAfter' | 'code' | 'id'>> {
  try {
    const res = await rawRequest(functionUrl(apiUrl, formId), {
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN },
      body,
      agent,
      localAddress,
    });
    let parsed: { id?: string; code?: string } = {};
    try {
      parsed = JSON.parse(res.body) as typeof parsed;
    } catch {
      // Not JSON: the status tells enough.
    }
    const retryAfter = res.headers['retry-after'];
    return { status: res.status, retryAfter, code: parsed.code, id: parsed.id };
  } catch (err) {
    return {
      status: 0,
      retryAfter: undefined,
      code: (err as NodeJS.ErrnoException).code,
      id: undefined,
    };
  }
}

/** The answer's Retry-After in ms (1 s when absent), for LoadOptions.retry. */
export const retryAfterMs = (attempt: Attempt) => Number(attempt.retryAfter ?? 1) * 1000;

export interface StoredEntry {
  id: string;
  message: string;
  is_spam: boolean;
  has_job: boolean;
}

/** Every entry of `forms` with whether it has an e-mail job. */
async function storedEntries(pool: pg.Pool, forms: SeededForm[]): Promise<StoredEntry[]> {
  const { rows } = await pool.query<StoredEntry>(
    `select e.id, e.message, e.is_spam,
            exists (select 1 from public.email_deliveries d where d.entry_id = e.id) as has_job
       from public.entries e where e.form_id = any($1::uuid[])`,
    [forms.map((f) => f.formId)],
  );
  return rows;
}

/** Counts of a run's answers by status, for the test output. */
export function statusCounts(attempts: Attempt[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of attempts) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/**
 * The promise of every run: each 2xx names a stored entry of its own, stored as spam exactly when
 * the post was spam; each stored entry answers a submission that got a 2xx, or whose attempt
 * failed without a clear no (`ambiguous`: the row may commit after the answer was lost); each
 * non-spam entry has an e-mail job and no spam entry has one. Returns the stored entries.
 */
export async function expectStoredExactly(
  pool: pg.Pool,
  forms: SeededForm[],
  attempts: Attempt[],
  ambiguous: (attempt: Attempt) => boolean = () => false,
): Promise<StoredEntry[]> {
  const stored = await storedEntries(pool, forms);
  const byId = new Map(stored.map((e) => [e.id, e]));
  const accepted = attempts.filter((a) => a.status >= 200 && a.status < 300);
  const acceptedIds = new Set(accepted.map((a) => a.id));
  expect(acceptedIds.size).toBe(accepted.length);
  const missing = accepted.filter((a) => !byId.has(a.id!));
  expect(missing, 'a 2xx answered for a row that does not exist').toEqual([]);
  for (const a of accepted) expect(byId.get(a.id!)!.is_spam).toBe(a.spam);

  const mayHaveCommitted = new Set(attempts.filter(ambiguous).map((a) => a.submission));
  const marker = / #(\d+)$/;
  const unexplained = stored.filter(
    (e) => !acceptedIds.has(e.id) && !mayHaveCommitted.has(Number(marker.exec(e.message)?.[1])),
  );
  expect(unexplained, 'stored rows no 2xx and no ambiguous failure accounts for').toEqual([]);

  const jobless = stored.filter((e) => e.has_job === e.is_spam);
  expect(jobless, 'non-spam entries without an e-mail job, or spam with one').toEqual([]);
  return stored;
}

/** Waits until every e-mail job of `forms` is sent (none pending, sending or failed). */
export async function waitAllSent(pool: pg.Pool, forms: SeededForm[], timeoutMs: number) {
  await until(
    'every e-mail job sent',
    async () => {
      const { rows } = await pool.query<{ status: string; n: number }>(
        `select d.status, count(*)::int as n from public.email_deliveries d
           join public.entries e on e.id = d.entry_id
          where e.form_id = any($1::uuid[]) group by d.status`,
        [forms.map((f) => f.formId)],
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
    },
    (byStatus) => Object.keys(byStatus).every((status) => status === 'sent'),
    timeoutMs,
  );
}

/**
 * How often the mail catcher caught the notification of each entry (its text names the entry:
 * "Entry <id>. …").
 */
async function caughtPerEntry(mailWebUrl: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const mail of await listMail(mailWebUrl)) {
    const id = /Entry ([0-9a-f-]{36})[.,]/.exec(mail.text ?? '')?.[1];
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Every non-spam entry was caught exactly once; no spam entry was caught. */
export async function expectEachMailedOnce(mailWebUrl: string, stored: StoredEntry[]) {
  const caught = await caughtPerEntry(mailWebUrl);
  const wrong = stored
    .map((e) => ({ id: e.id, spam: e.is_spam, caught: caught.get(e.id) ?? 0 }))
    .filter((e) => e.caught !== (e.spam ? 0 : 1));
  expect(wrong, 'entries not e-mailed exactly once (spam: never)').toEqual([]);
  return stored.filter((e) => !e.is_spam).length;
}

/** Seconds with one decimal, for the test output. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
