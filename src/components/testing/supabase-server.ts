// The Supabase API of the unit tests: MSW request handlers that answer the real client
// (src/lib/supabase.ts, pointed at the local stack's address) from an in-memory database, so the
// app's own supabase-js calls run unchanged. tests/setup/unit.ts starts the server for every test
// file and empties the database after each test. A test fills tables (`supabaseDb.seed`), adds the
// functions it calls (`supabaseDb.rpc`, `supabaseDb.edgeFunction`), reads what was asked
// (`supabaseDb.requests`) and steers single requests with `failRequests` / `holdRequests`.
// Only what the app sends is understood: PostgREST's eq, neq, is, in, lt, lte, gt, gte, ilike and
// or/and filters, order, limit, offset, counts, embeds read as stored (an `!inner` one answers only
// the rows whose embed is not empty), upserts and single objects.
import { delay, http, HttpResponse, ws, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { User } from '@supabase/supabase-js';
import { env } from '../../config/env';
import { sessionStore } from '../../lib/session-storage';

export type Row = Record<string, unknown>;

/** A PostgREST error as supabase-js returns it. */
export interface ApiError {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export const pgError = (code: string, message: string, hint: string | null = null): ApiError => ({
  code,
  message,
  details: null,
  hint,
});

/** What the database does beyond storing (defaults, triggers, generated columns), per table. */
interface TableRules {
  /** The stored row for an inserted one (column defaults, generated ids). */
  insert?: (row: Row) => Row;
  /** The stored row after an update (triggers). */
  update?: (before: Row, values: Row) => Row;
  /** Columns computed from a row that filters may name (e.g. a generated search column). */
  computed?: Record<string, (row: Row) => unknown>;
  /** How a stored row is answered (e.g. an embed as PostgREST shapes it). */
  render?: (row: Row) => Row;
}

/** A request the API received, for tests that check what the app asked. */
export interface ReceivedRequest {
  method: string;
  /** The table, `rpc/<name>`, `functions/<name>` or `auth/<path>` asked. */
  path: string;
  url: URL;
  headers: Headers;
  /** The JSON body, if any. */
  body: unknown;
}

type RpcHandler = (args: Row) => unknown;
type FunctionHandler = (body: unknown, request: ReceivedRequest) => unknown;

const API = env.supabaseUrl.replace(/\/$/, '');
const restUrl = (path: string) => `${API}/rest/v1/${path}`;
const functionUrl = (name: string) => `${API}/functions/v1/${name}`;

function createDb() {
  let tables = new Map<string, Row[]>();
  let rules = new Map<string, TableRules>();
  let rpcs = new Map<string, RpcHandler>();
  let functions = new Map<string, FunctionHandler>();
  const requests: ReceivedRequest[] = [];
  return {
    requests,
    /** Replaces the rows of each table given (copies: the test's fixtures stay as they are). */
    seed(data: Record<string, readonly object[]>) {
      for (const [table, rows] of Object.entries(data))
        tables.set(
          table,
          rows.map((row) => ({ ...row }) as Row),
        );
    },
    /** The stored rows of a table (the live array). */
    rows(table: string): Row[] {
      if (!tables.has(table)) tables.set(table, []);
      return tables.get(table)!;
    },
    setRows(table: string, rows: Row[]) {
      tables.set(table, rows);
    },
    hasTable: (table: string) => tables.has(table),
    rules: (table: string): TableRules => rules.get(table) ?? {},
    /** Sets what the database does for a table beyond storing rows. */
    define(table: string, tableRules: TableRules) {
      rules.set(table, tableRules);
      if (!tables.has(table)) tables.set(table, []);
    },
    /** Adds a database function, called by `rpc(name, args)`; it returns the data or throws an ApiError. */
    rpc(name: string, handler: RpcHandler) {
      rpcs.set(name, handler);
    },
    rpcHandler: (name: string) => rpcs.get(name),
    /** Adds an Edge Function, called by `functions.invoke(name)` (any sub-path). */
    edgeFunction(name: string, handler: FunctionHandler) {
      functions.set(name, handler);
    },
    functionHandler: (name: string) => functions.get(name),
    /** The names of the database functions called, oldest first. */
    rpcsCalled() {
      return requests.filter((r) => r.path.startsWith('rpc/')).map((r) => r.path.slice(4));
    },
    /** The requests received with this method and path, oldest first. */
    requested(method: string, path: string) {
      return requests.filter((r) => r.method === method && r.path === path);
    },
    reset() {
      tables = new Map();
      rules = new Map();
      rpcs = new Map();
      functions = new Map();
      requests.length = 0;
    },
  };
}

export const supabaseDb = createDb();

// ---- PostgREST's query language, as far as the app uses it -------------------------------------

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;

/** A timestamp in microseconds (Date keeps milliseconds only; PostgreSQL keeps micros). */
function micros(value: string): number {
  const fraction = /\.\d{3}(\d{1,3})/.exec(value)?.[1] ?? '';
  return Date.parse(value) * 1000 + Number(fraction.padEnd(3, '0'));
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'string' && typeof b === 'string' && TIMESTAMP.test(a) && TIMESTAMP.test(b))
    return micros(a) - micros(b);
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** A filter value as text, compared with a cell the way PostgreSQL would cast it. */
function sameValue(cell: unknown, text: string): boolean {
  if (cell === null || cell === undefined) return text === 'null';
  if (typeof cell === 'string' && TIMESTAMP.test(cell) && TIMESTAMP.test(text))
    return micros(cell) === micros(text);
  return String(cell) === text;
}

/** Splits on commas outside parentheses and double quotes. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

const unquote = (v: string) => (/^".*"$/.test(v) ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v);

type Predicate = (row: Row) => boolean;

function likePattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length)
      source += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%' || c === '*') source += '.*';
    else if (c === '_') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

/** One `operator.value` condition on a cell (`not.` negates). */
function condition(expression: string): (cell: unknown) => boolean {
  if (expression.startsWith('not.')) {
    const inner = condition(expression.slice(4));
    return (cell) => !inner(cell);
  }
  const dot = expression.indexOf('.');
  const op = expression.slice(0, dot);
  const value = expression.slice(dot + 1);
  switch (op) {
    case 'eq':
      return (cell) => sameValue(cell, unquote(value));
    case 'neq':
      return (cell) => !sameValue(cell, unquote(value));
    case 'is':
      return (cell) =>
        value === 'null' ? cell === null || cell === undefined : String(cell) === value;
    case 'in': {
      const list = splitTop(value.replace(/^\(|\)$/g, '')).map(unquote);
      return (cell) => list.some((v) => sameValue(cell, v));
    }
    case 'lt':
      return (cell) => cell !== null && cell !== undefined && compare(cell, unquote(value)) < 0;
    case 'lte':
      return (cell) => cell !== null && cell !== undefined && compare(cell, unquote(value)) <= 0;
    case 'gt':
      return (cell) => cell !== null && cell !== undefined && compare(cell, unquote(value)) > 0;
    case 'gte':
      return (cell) => cell !== null && cell !== undefined && compare(cell, unquote(value)) >= 0;
    case 'ilike':
    case 'like': {
      const pattern = likePattern(unquote(value));
      return (cell) => typeof cell === 'string' && pattern.test(cell);
    }
    default:
      throw new Error(`supabase-server: unsupported filter operator ${op}`);
  }
}

/** A logic tree (`or=(a.eq.1,and(b.lt.2,c.eq.3))`), its parentheses included. */
function logicTree(kind: 'or' | 'and', list: string, cell: (row: Row, column: string) => unknown) {
  const parts: Predicate[] = splitTop(list.replace(/^\(|\)$/g, '')).map((part) => {
    const nested = /^(not\.)?(or|and)\((.*)\)$/s.exec(part);
    if (nested) {
      const tree = logicTree(nested[2] as 'or' | 'and', `(${nested[3]})`, cell);
      return nested[1] ? (row) => !tree(row) : tree;
    }
    const dot = part.indexOf('.');
    const column = part.slice(0, dot);
    const test = condition(part.slice(dot + 1));
    return (row) => test(cell(row, column));
  });
  return kind === 'or'
    ? (row: Row) => parts.some((p) => p(row))
    : (row: Row) => parts.every((p) => p(row));
}

const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns']);

function filtersOf(params: URLSearchParams, tableRules: TableRules): Predicate[] {
  const cell = (row: Row, column: string) =>
    tableRules.computed?.[column] ? tableRules.computed[column](row) : row[column];
  const predicates: Predicate[] = [];
  for (const [key, value] of params) {
    if (RESERVED.has(key)) continue;
    if (key === 'or' || key === 'and') {
      predicates.push(logicTree(key, value, cell));
      continue;
    }
    const test = condition(value);
    predicates.push((row) => test(cell(row, key)));
  }
  return predicates;
}

function ordered(rows: Row[], order: string | null): Row[] {
  if (!order) return rows;
  const keys = splitTop(order).map((term) => {
    const [column, ...flags] = term.split('.');
    return {
      column,
      descending: flags.includes('desc'),
      nullsFirst: flags.includes('nullsfirst'),
    };
  });
  return [...rows].sort((a, b) => {
    for (const { column, descending, nullsFirst } of keys) {
      const x = a[column];
      const y = b[column];
      const xNull = x === null || x === undefined;
      const yNull = y === null || y === undefined;
      if (xNull !== yNull) {
        // PostgreSQL: nulls last ascending, first descending, unless stated.
        const nullFirst = nullsFirst || (descending && !order.includes('nullslast'));
        return xNull === nullFirst ? -1 : 1;
      }
      const c = compare(x, y);
      if (c !== 0) return descending ? -c : c;
    }
    return 0;
  });
}

/** The selected columns of a row; an embed (`alias:table(…)`) is answered as stored under its name. */
function project(row: Row, select: string | null): Row {
  if (!select || select === '*') return { ...row };
  const out: Row = {};
  for (const item of splitTop(select)) {
    if (item === '*') {
      Object.assign(out, row);
      continue;
    }
    const name = item.replace(/\(.*\)$/s, '');
    const [alias, source = alias] = name.split(':');
    const column = source.split('!')[0];
    out[alias] = row[alias] ?? row[column] ?? null;
  }
  return out;
}

/** Whether a row has every `!inner` embed the select names (PostgREST's inner join). */
function hasInnerEmbeds(row: Row, select: string | null): boolean {
  if (!select) return true;
  return splitTop(select).every((item) => {
    const name = item.replace(/\(.*\)$/s, '');
    const [alias, source = alias] = name.split(':');
    if (!/!inner\b/.test(source)) return true;
    const value = row[alias] ?? row[source.split('!')[0]];
    return Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined;
  });
}

// ---- The handlers -----------------------------------------------------------------------------

const json = (data: JsonBodyType, init?: ResponseInit) => HttpResponse.json(data, init);
const errorResponse = (error: ApiError, status = 400) => json({ ...error }, { status });

async function received(request: Request, path: string): Promise<ReceivedRequest> {
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const entry = {
    method: request.method,
    path,
    url: new URL(request.url),
    headers: request.headers,
    body,
  };
  supabaseDb.requests.push(entry);
  return entry;
}

function answerRows(req: ReceivedRequest, rows: Row[], status: number, total?: number) {
  const tableRules = supabaseDb.rules(req.path);
  const select = req.url.searchParams.get('select');
  const shaped = rows.map((row) =>
    project(tableRules.render ? tableRules.render(row) : row, select),
  );
  const prefer = req.headers.get('Prefer') ?? '';
  const headers: Record<string, string> = {};
  if (/count=exact/.test(prefer)) {
    const count = total ?? rows.length;
    headers['Content-Range'] = rows.length ? `0-${rows.length - 1}/${count}` : `*/${count}`;
  }
  if (req.method === 'HEAD') return new HttpResponse(null, { status: 200, headers });
  if (req.method !== 'GET' && !/return=representation/.test(prefer))
    return new HttpResponse(null, { status: 204, headers });
  if ((req.headers.get('Accept') ?? '').includes('vnd.pgrst.object+json')) {
    if (shaped.length !== 1)
      return errorResponse(
        {
          code: 'PGRST116',
          message: 'Cannot coerce the result to a single JSON object',
          details: `The result contains ${shaped.length} rows`,
          hint: null,
        },
        406,
      );
    return json(shaped[0] as JsonBodyType, { status, headers });
  }
  return json(shaped as JsonBodyType, { status, headers });
}

async function tableRequest({ request, params }: { request: Request; params: { table?: string } }) {
  const table = String(params.table);
  const req = await received(request, table);
  if (!supabaseDb.hasTable(table))
    return errorResponse(
      pgError('PGRST205', `Could not find the table 'public.${table}' in the schema cache`),
      404,
    );
  const tableRules = supabaseDb.rules(table);
  const search = req.url.searchParams;
  const matches = (row: Row) => filtersOf(search, tableRules).every((p) => p(row));
  const all = supabaseDb.rows(table);

  if (req.method === 'GET' || req.method === 'HEAD') {
    const select = search.get('select');
    const shown = (row: Row) => (tableRules.render ? tableRules.render(row) : row);
    const found = ordered(
      all.filter((row) => matches(row) && hasInnerEmbeds(shown(row), select)),
      search.get('order'),
    );
    const offset = Number(search.get('offset') ?? 0);
    const limit = search.has('limit') ? Number(search.get('limit')) : Infinity;
    return answerRows(req, found.slice(offset, offset + limit), 200, found.length);
  }
  if (req.method === 'POST') {
    const incoming = (Array.isArray(req.body) ? req.body : [req.body]) as Row[];
    const prefer = req.headers.get('Prefer') ?? '';
    const conflict = search.get('on_conflict')?.split(',');
    const stored = incoming.map((row) => {
      const existing =
        /resolution=merge-duplicates/.test(prefer) && conflict
          ? all.find((r) => conflict.every((c) => r[c] === row[c]))
          : undefined;
      if (existing) {
        const next = tableRules.update ? tableRules.update(existing, row) : { ...existing, ...row };
        all.splice(all.indexOf(existing), 1, next);
        return next;
      }
      const next = tableRules.insert ? tableRules.insert(row) : { ...row };
      all.push(next);
      return next;
    });
    return answerRows(req, stored, 201);
  }
  const hit = all.filter(matches);
  if (req.method === 'PATCH') {
    const values = req.body as Row;
    const updated = hit.map((row) => {
      const next = tableRules.update ? tableRules.update(row, values) : { ...row, ...values };
      all.splice(all.indexOf(row), 1, next);
      return next;
    });
    return answerRows(req, updated, 200);
  }
  if (req.method === 'DELETE') {
    supabaseDb.setRows(
      table,
      all.filter((row) => !hit.includes(row)),
    );
    return answerRows(req, hit, 200);
  }
  return errorResponse(pgError('PGRST000', `unsupported method ${req.method}`), 405);
}

function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value;
}

async function rpcRequest({ request, params }: { request: Request; params: { name?: string } }) {
  const name = String(params.name);
  const req = await received(request, `rpc/${name}`);
  const handler = supabaseDb.rpcHandler(name);
  if (!handler)
    return errorResponse(
      pgError('PGRST202', `Could not find the function public.${name} in the schema cache`),
      404,
    );
  try {
    const args = (req.body ?? Object.fromEntries(req.url.searchParams)) as Row;
    return json((await handler(args)) as JsonBodyType);
  } catch (error) {
    if (isApiError(error)) return errorResponse(error);
    throw error;
  }
}

async function functionRequest({ request }: { request: Request }) {
  const path = new URL(request.url).pathname.replace(/^.*\/functions\/v1\//, '');
  const name = path.split('/')[0];
  const req = await received(request, `functions/${path}`);
  const handler = supabaseDb.functionHandler(name);
  if (!handler) return json({ error: `no function ${name}` }, { status: 404 });
  return json((await handler(req.body, req)) as JsonBodyType);
}

// ---- Auth (GoTrue) ----------------------------------------------------------------------------

type AuthHandler = (body: Row, request: ReceivedRequest) => unknown;

/** The accounts the auth handlers know, by id, and the answers a test gave auth routes. */
const accounts = new Map<string, User>();
let authRoutes = new Map<string, AuthHandler>();

const claimsOf = (token: string | undefined): Row => {
  try {
    const payload = (token ?? '').split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload)) as Row;
  } catch {
    return {};
  }
};

/** An error as GoTrue answers it (supabase-js makes it an AuthApiError, or its weak-password kind). */
export function authError(status: number, code: string, message: string, extra: Row = {}) {
  return HttpResponse.json(
    { code, error_code: code, msg: message, message, ...extra },
    { status, headers: { 'X-Supabase-Api-Version': '2024-01-01' } },
  );
}

async function authRequest({ request }: { request: Request }) {
  const url = new URL(request.url);
  const route = url.pathname.replace(/^.*\/auth\/v1\//, '');
  const req = await received(request, `auth/${route}`);
  const body = (req.body ?? {}) as Row;
  const grant = url.searchParams.get('grant_type');
  const key = grant ? `${route}?grant_type=${grant}` : `${request.method} ${route}`;
  const custom = authRoutes.get(key) ?? authRoutes.get(route);
  // A test's answer; undefined leaves the request to the default below.
  const answer = custom ? await custom(body, req) : undefined;
  if (answer !== undefined)
    return answer instanceof Response ? answer : json(answer as JsonBodyType);
  const bearer = request.headers.get('Authorization')?.replace(/^Bearer /, '');
  const signedIn = accounts.get(String(claimsOf(bearer).sub));
  switch (key) {
    case 'token?grant_type=password':
      return json(makeSession(accountFor(String(body.email))) as unknown as JsonBodyType);
    case 'token?grant_type=refresh_token': {
      const user = [...accounts.values()][0];
      if (!user) return authError(400, 'refresh_token_not_found', 'Invalid Refresh Token');
      return json(makeSession(user) as unknown as JsonBodyType);
    }
    case 'GET user':
      if (!signedIn) return authError(401, 'bad_jwt', 'invalid JWT');
      return json(signedIn as unknown as JsonBodyType);
    case 'PUT user': {
      if (!signedIn) return authError(401, 'bad_jwt', 'invalid JWT');
      const {
        data,
        password: _password,
        current_password: _current,
        nonce: _nonce,
        ...attributes
      } = body;
      const next = {
        ...signedIn,
        ...attributes,
        user_metadata: { ...signedIn.user_metadata, ...(data as Row | undefined) },
      } as User;
      accounts.set(next.id, next);
      return json(next as unknown as JsonBodyType);
    }
    case 'POST logout':
      return new HttpResponse(null, { status: 204 });
    case 'POST signup':
      // Confirmation by e-mail: a user, no session yet.
      return json(accountFor(String(body.email)) as unknown as JsonBodyType);
    case 'POST recover':
    case 'POST resend':
      return json({});
    default:
      return authError(404, 'not_found', `no auth route ${key}`);
  }
}

/** A body without what supabase-js adds of its own: empty PKCE and CAPTCHA fields. */
function withoutTransport({
  code_challenge,
  code_challenge_method,
  gotrue_meta_security,
  ...body
}: Row) {
  return {
    ...body,
    ...(code_challenge != null && { code_challenge, code_challenge_method }),
    ...((gotrue_meta_security as Row | undefined)?.captcha_token != null && {
      gotrue_meta_security,
    }),
  };
}

function accountFor(email: string): User {
  const known = [...accounts.values()].find((u) => u.email === email);
  if (known) return known;
  const user = makeSession({
    id: `00000000-0000-4000-8000-${String(accounts.size + 1).padStart(12, '0')}`,
    email,
  }).user;
  accounts.set(user.id, user);
  return user;
}

export const supabaseAuth = {
  /**
   * Answers an auth route (`token?grant_type=password`, `signup`, `user`, `logout`, `recover`,
   * `resend`, `verify`, or `PUT user` for one method) with what `handler` returns: the JSON body
   * or a Response (e.g. `authError(…)`).
   */
  answer(route: string, handler: AuthHandler) {
    authRoutes.set(route, handler);
  },
  /**
   * The bodies (or, without one, the queries) of the requests to an auth route (`signup`, `user`,
   * `logout`, `token?grant_type=password`, …), oldest first.
   */
  sent(method: string, route: string): unknown[] {
    const [path, grant] = route.split('?grant_type=');
    return supabaseDb.requests
      .filter(
        (r) =>
          r.method === method.toUpperCase() &&
          r.path === `auth/${path}` &&
          (!grant || r.url.searchParams.get('grant_type') === grant),
      )
      .map((r) =>
        r.body ? withoutTransport(r.body as Row) : Object.fromEntries(r.url.searchParams),
      );
  },
  /** Adds an account the auth server knows (signing in with its e-mail gives its session). */
  addAccount(user: Partial<User> & { id: string }) {
    accounts.set(user.id, makeSession(user).user);
  },
  /** The cleaned bodies with the queries of the requests to an auth route, oldest first. */
  requests(method: string, route: string): { query: Row; body: Row }[] {
    return supabaseDb.requests
      .filter((r) => r.method === method.toUpperCase() && r.path === `auth/${route}`)
      .map((r) => ({
        query: Object.fromEntries(r.url.searchParams),
        body: withoutTransport((r.body ?? {}) as Row),
      }));
  },
  reset() {
    accounts.clear();
    authRoutes = new Map();
  },
};

/** The tests' user: Ada (or the e-mail given), with a display name if one is given. */
export function testUser(email = 'ada@example.com', name?: string) {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    email,
    user_metadata: name ? { name } : {},
  };
}

/** Signs a user in as the auth server knows it: the account exists and its session is stored. */
export function signInAs(user: Partial<User> & { id: string }) {
  const session = storeSession(user);
  accounts.set(session.user.id, session.user);
  return session;
}

// ---- Realtime (Phoenix channels, serializer 2.0.0: [join_ref, ref, topic, event, payload]) --------

type RealtimeClient = Parameters<
  Parameters<ReturnType<typeof ws.link>['addEventListener']>[1]
>[0]['client'];

interface JoinedChannel {
  topic: string;
  joinRef: string;
  /** The channel's postgres_changes bindings, with the ids the server gave them. */
  changes: (Row & { id: number })[];
  client: RealtimeClient;
}

let channels: JoinedChannel[] = [];
let bindingIds = 0;
/** How the server answers a channel's join: 'ok', or 'error' / 'timeout' as a failed join. */
let joinAnswer: 'ok' | 'error' | 'timeout' = 'ok';
const realtimeLink = ws.link(`${API.replace(/^http/, 'ws')}/realtime/v1/websocket`);

const realtimeHandler = realtimeLink.addEventListener('connection', ({ client }) => {
  client.addEventListener('message', (event) => {
    const [joinRef, ref, topic, name, payload] = JSON.parse(String(event.data)) as [
      string,
      string,
      string,
      string,
      Row,
    ];
    const reply = (response: Row, status = 'ok') =>
      client.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status, response }]));
    if (name === 'phx_join' && joinAnswer !== 'ok') {
      reply({ reason: `join ${joinAnswer}` }, joinAnswer);
    } else if (name === 'phx_join') {
      const config = (payload.config ?? {}) as { postgres_changes?: Row[] };
      const changes = (config.postgres_changes ?? []).map((c) => ({ ...c, id: ++bindingIds }));
      channels = channels.filter((c) => c.topic !== topic || c.client !== client);
      channels.push({ topic, joinRef, changes, client });
      reply({ postgres_changes: changes });
    } else if (name === 'phx_leave') {
      channels = channels.filter((c) => c.topic !== topic || c.client !== client);
      reply({});
    } else reply({});
  });
});

export const supabaseRealtime = {
  /** The channels joined and not left, with their postgres_changes bindings. */
  channels: () => channels.map(({ topic, changes }) => ({ topic, changes })),
  /** Sends a database change to every joined binding of its table. */
  change(change: {
    table: string;
    eventType: 'INSERT' | 'UPDATE' | 'DELETE';
    new?: Row;
    old?: Row;
  }) {
    for (const channel of channels) {
      const ids = channel.changes
        .filter((c) => c.table === change.table || c.table === '*')
        .map((c) => c.id);
      if (!ids.length) continue;
      const data = {
        schema: 'public',
        table: change.table,
        commit_timestamp: new Date().toISOString(),
        type: change.eventType,
        record: change.new ?? {},
        old_record: change.old ?? {},
        columns: [],
        errors: null,
      };
      channel.client.send(
        JSON.stringify([channel.joinRef, null, channel.topic, 'postgres_changes', { ids, data }]),
      );
    }
  },
  /** How the next joins are answered: 'ok', a refusal ('error') or a join that timed out. */
  answerJoins(answer: 'ok' | 'error' | 'timeout') {
    joinAnswer = answer;
  },
  /** Drops every realtime connection, as a network failure would. */
  disconnect() {
    for (const { client } of channels) client.close();
    channels = [];
  },
  reset() {
    channels = [];
    joinAnswer = 'ok';
  },
};

const supabaseHandlers = [
  realtimeHandler,
  http.all(`${API}/auth/v1/*`, authRequest),
  http.all(`${API}/rest/v1/rpc/:name`, rpcRequest),
  http.all(`${API}/rest/v1/:table`, tableRequest),
  http.all(`${API}/functions/v1/*`, functionRequest),
];

export const server = setupServer(...supabaseHandlers);

type Method = 'get' | 'head' | 'post' | 'patch' | 'delete';

const restPath = (request: Request) => new URL(request.url).pathname.replace(/^.*\/rest\/v1\//, '');

/**
 * Requests of this method to this REST path (a table, `rpc/<name>`, or `rpc/*` for every function)
 * fail with `error` until the test resets the handlers.
 */
export function failRequests(method: Method, path: string, error: ApiError, status = 400) {
  server.use(
    http[method](restUrl(path), async ({ request }) => {
      await received(request, restPath(request));
      return errorResponse(error, status);
    }),
  );
}

/** Requests of this method to this REST path never answer (loading states). */
export function holdRequests(method: Method, path: string) {
  server.use(
    http[method](restUrl(path), async ({ request }) => {
      await received(request, restPath(request));
      await delay('infinite');
    }),
  );
}

/** The columns a REST request selected, written as the app writes them (`a, b`). */
export const selectedColumns = (request: ReceivedRequest) =>
  (request.url.searchParams.get('select') ?? '').split(',').join(', ');

/**
 * What the requests of a method to a path carried, oldest first: the JSON body of a write or an
 * rpc, or the query of a read or delete (`{ form_id: 'eq.…' }`).
 */
export function sentTo(method: string, path: string): unknown[] {
  return supabaseDb
    .requested(method.toUpperCase(), path)
    .map((r) => r.body ?? Object.fromEntries(r.url.searchParams));
}

/** The query and body of each request of a method to a path, oldest first. */
export function requestsTo(method: string, path: string): { query: Row; body: unknown }[] {
  return supabaseDb
    .requested(method.toUpperCase(), path)
    .map((r) => ({ query: Object.fromEntries(r.url.searchParams), body: r.body }));
}

// ---- Auth -------------------------------------------------------------------------------------

/** supabase-js's storage key for this API (`sb-<first label of the host>-auth-token`). */
const SESSION_KEY = `sb-${new URL(API).hostname.split('.')[0]}-auth-token`;

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** A signed-in session for this user, valid for an hour (the token is unsigned: nothing here checks it). */
export function makeSession(user: Partial<User> & { id: string }) {
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  const access_token = [
    base64url({ alg: 'HS256', typ: 'JWT' }),
    base64url({ sub: user.id, email: user.email, role: 'authenticated', exp: expiresAt }),
    'signature',
  ].join('.');
  return {
    access_token,
    refresh_token: 'refresh-token',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: expiresAt,
    user: {
      aud: 'authenticated',
      app_metadata: {},
      user_metadata: {},
      created_at: '2026-01-01T00:00:00Z',
      ...user,
    } as User,
  };
}

/** Stores a session where supabase-js keeps it, as after signing in: the client reads it from there. */
export function storeSession(user: Partial<User> & { id: string }) {
  const session = makeSession(user);
  sessionStore.storage.setItem(SESSION_KEY, JSON.stringify(session));
  return session;
}

/** Lets the stored session's access token expire, as time passing would. */
export function expireStoredSession() {
  const stored = sessionStore.storage.getItem(SESSION_KEY) as string | null;
  if (!stored) return;
  const session = JSON.parse(stored) as { expires_at: number };
  session.expires_at = Math.floor(Date.now() / 1000) - 60;
  sessionStore.storage.setItem(SESSION_KEY, JSON.stringify(session));
}

/** Forgets the stored session (after each test). */
export function clearStoredSession() {
  sessionStore.storage.removeItem(SESSION_KEY);
}

/**
 * Requests to this Edge Function path (`newsletter/confirm`) are answered with this HTTP status,
 * until the test resets the handlers, or once.
 */
export function failFunction(path: string, status: number, { once = false } = {}) {
  server.use(
    http.all(
      functionUrl(path),
      async ({ request }) => {
        await received(request, `functions/${path}`);
        return json({ error: `status ${status}` }, { status });
      },
      { once },
    ),
  );
}

/**
 * Requests to this Edge Function path (`booking/book`) are answered with this status, JSON body
 * and headers (a 201, a 409 with its body, a 429 with Retry-After), until the test resets the
 * handlers, or once.
 */
export function answerFunction(
  path: string,
  status: number,
  body: JsonBodyType,
  { headers = {}, once = false }: { headers?: Record<string, string>; once?: boolean } = {},
) {
  server.use(
    http.all(
      functionUrl(path),
      async ({ request }) => {
        await received(request, `functions/${path}`);
        return json(body, { status, headers });
      },
      { once },
    ),
  );
}
