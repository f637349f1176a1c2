// PostgREST stand-in mounted at /rest/v1: routes `/<table>` and `/rpc/<fn>` requests, plans their
// SQL against the schema cache and runs each in one transaction as the request's role, on its own
// pool logged in as `authenticator` (never as the superuser), as PostgREST is on Supabase.
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import type { HttpService, StackContext } from '../context.ts';
import { BodyTooLargeError, parseJsonBody, readBody } from '../http.ts';
import { authenticatorUrl } from '../postgres/authenticator.ts';
import { Router } from '../router.ts';
import { logConnectionErrors } from '../postgres/pool-errors.ts';
import { RestError, toRestError } from './errors.ts';
import {
  appliedPreferences,
  checkMaxAffected,
  checkProfile,
  maxAffected,
  negotiateFormat,
  pageStatus,
  parsePreferences,
  rangeFromHeader,
  type ResponseFormat,
} from './negotiation.ts';
import { parseQueryParams, parseSelect } from './query-grammar.ts';
import { buildReadStatement, newBuildContext, SchemaMiss } from './read-query.ts';
import { ANON_ROLE, identify, type RequestIdentity } from './request-auth.ts';
import { rowsToCsv, sendError, sendText } from './responses.ts';
import { argumentNames, buildCall, buildScalarStatement, resolveFunction } from './rpc.ts';
import {
  EXPOSED_SCHEMA,
  SchemaCache,
  type SchemaSnapshot,
  type TableInfo,
} from './schema-cache.ts';
import { ident, Params, qualified } from './sql.ts';
import { closest } from './suggest.ts';
import { inRequestTransaction } from './transaction.ts';
import { buildDelete, buildInsert, buildUpdate, type ReturnPreference } from './write-query.ts';

/** Larger bodies are refused with 413, as the API gateway in front of PostgREST would. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';

interface Statement {
  text: string;
  values: unknown[];
}

interface ResultRow {
  total: string | null;
  page_total: string;
  body: string | null;
  location_key?: string | null;
}

function tableNotFound(snapshot: SchemaSnapshot, name: string): RestError {
  const suggestion = closest(name, snapshot.tables.keys());
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${EXPOSED_SCHEMA}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${EXPOSED_SCHEMA}.${suggestion}'` : null,
  );
}

function lookupTable(snapshot: SchemaSnapshot, name: string, strict: boolean): TableInfo {
  const table = snapshot.tables.get(name);
  if (table) return table;
  if (strict) throw new SchemaMiss(name);
  throw tableNotFound(snapshot, name);
}

function checkWriteColumns(table: TableInfo, columns: string[], strict: boolean) {
  for (const c of columns) {
    if (table.columns.has(c)) continue;
    if (strict) throw new SchemaMiss(c);
    throw new RestError(
      400,
      'PGRST204',
      `Could not find the '${c}' column of '${table.name}' in the schema cache`,
    );
  }
}

function singularityError(rows: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
}

const invalidBody = (message: string) => new RestError(400, 'PGRST102', message);

function parseJson(body: Buffer): unknown {
  try {
    return parseJsonBody(body);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkJsonContentType(req: IncomingMessage) {
  const type = (req.headers['content-type'] ?? 'application/json')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && type !== '') {
    throw new RestError(415, 'PGRST107', `None of these media types are available: ${type}`);
  }
}

function limitsOf(
  levels: ReturnType<typeof parseQueryParams>['levels'],
  req: IncomingMessage,
  maxRows: number | null,
): { offset: number; limit?: number } {
  const root = levels.get('') ?? { predicates: [] };
  const range = rangeFromHeader(req);
  if (root.limit !== undefined && root.limit < 0) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'Limit should be greater than or equal to zero.',
    );
  }
  if (root.offset !== undefined && root.offset < 0) {
    throw new RestError(
      400,
      'PGRST100',
      '"failed to parse offset parameter"',
      'offset must be zero or more',
    );
  }
  const offset = root.offset ?? range?.offset ?? 0;
  const limits = [
    root.limit,
    range && root.offset === undefined ? range.limit : undefined,
    maxRows ?? undefined,
  ].filter((n): n is number => n !== undefined);
  return { offset, limit: limits.length ? Math.min(...limits) : undefined };
}

const invalidPath = () => new RestError(404, 'PGRST125', 'Invalid path specified in request URL');

type Resource = 'root' | 'rpc' | 'table';

/** PostgREST's paths, over the path's non-empty segments, each decoded. */
const routes = new Router<Resource>()
  .on('/', { all: 'root' })
  .on('/rpc/:name', { all: 'rpc' })
  .on('/:name', { all: 'table' });

/** The resource a path names, and its name; other paths are PGRST125. */
function resourceOf(method: string, urlPath: string): { resource: Resource; name: string } {
  let path: string;
  try {
    // Routed with each segment decoded and encoded again, so a decoded `/` stays inside it.
    const segments = urlPath.split('/').filter(Boolean).map(decodeURIComponent);
    path = `/${segments.map(encodeURIComponent).join('/')}`;
  } catch {
    throw invalidPath();
  }
  const match = routes.match(method, path);
  if (match.kind !== 'found') throw invalidPath();
  return { resource: match.handler, name: decodeURIComponent(match.params.name ?? '') };
}

/** Connections of the REST pool (PostgREST's `db-pool` default is 10; tests run requests in parallel). */
const POOL_SIZE = 20;

export function createRestService(ctx: StackContext): HttpService {
  const log = (m: string) => ctx.log('rest', m);
  // Its own pool as `authenticator`: SQL smuggled into a request can never act as the superuser.
  const dbUrl = authenticatorUrl(ctx.settings.dbUrl);
  // Pipeline mode: a request's statements go out together (transaction.ts).
  const pool = new pg.Pool({ connectionString: dbUrl, max: POOL_SIZE, pipeline: true });
  logConnectionErrors(pool, log);
  const cache = new SchemaCache(pool, dbUrl, log);
  cache.listen().catch((err: Error) => log(`cannot listen for schema reloads: ${err.message}`));
  const maxRows = ctx.settings.project.maxRows;

  /** Plans with the cached schema; on a miss reloads it once, then lets the final errors through. */
  async function plan<T>(
    startedAt: number,
    build: (snapshot: SchemaSnapshot, strict: boolean) => T,
  ): Promise<T> {
    let snapshot = await cache.get();
    try {
      return build(snapshot, true);
    } catch (err) {
      if (!(err instanceof SchemaMiss)) throw err;
    }
    snapshot = await cache.reloadOnMiss(startedAt);
    try {
      return build(snapshot, true);
    } catch (err) {
      if (!(err instanceof SchemaMiss)) throw err;
    }
    return build(snapshot, false);
  }

  async function run(
    req: IncomingMessage,
    identity: RequestIdentity,
    urlPath: string,
    statement: Statement,
    opts: { readOnly: boolean; rollback: boolean; check?: (row: ResultRow) => void },
  ): Promise<ResultRow> {
    const { readOnly, rollback, check } = opts;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    // Always the extended protocol, as PostgREST's prepared statements: Postgres itself then
    // refuses any text holding more than one statement, even one without parameters.
    // (node-postgres reads `queryMode`; its type definitions do not list it yet.)
    const query: pg.QueryConfig & { queryMode: 'extended' } = {
      text: statement.text,
      values: statement.values,
      queryMode: 'extended',
    };
    const rows = await inRequestTransaction<ResultRow>(
      pool,
      {
        readOnly,
        rollback,
        role: identity.role,
        claims: identity.claims,
        method: req.method ?? 'GET',
        path: urlPath,
        headers,
        roleSettings: (await cache.get()).roleSettings.get(identity.role) ?? [],
      },
      query,
      // Checked inside the transaction so that a refused write is rolled back, as PostgREST does.
      check && ((checked) => check(checked[0])),
    );
    return rows[0];
  }

  function sendRows(
    res: ServerResponse,
    req: IncomingMessage,
    status: number,
    row: ResultRow,
    format: ResponseFormat,
    headers: Record<string, string>,
  ) {
    const head = req.method === 'HEAD';
    if (format.kind === 'csv') {
      return sendText(res, status, rowsToCsv(row.body ?? '[]'), CSV_TYPE, headers, head);
    }
    const type = format.kind === 'object' ? OBJECT_TYPE : JSON_TYPE;
    sendText(res, status, row.body, type, headers, head);
  }

  async function read(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    name: string,
    identity: RequestIdentity,
    startedAt: number,
  ) {
    const format = negotiateFormat(req);
    const prefs = parsePreferences(req);
    const query = parseQueryParams(url.searchParams);
    const select = parseSelect(query.select ?? '*');
    const { offset, limit } = limitsOf(query.levels, req, maxRows);
    const statement = await plan(startedAt, (snapshot, strict) => {
      const table = lookupTable(snapshot, name, strict);
      const params = new Params();
      const text = buildReadStatement({
        ctx: newBuildContext(snapshot, params, query.levels, strict),
        from: `${qualified(EXPOSED_SCHEMA, name)} as ${ident(name)}`,
        alias: name,
        tableName: name,
        table,
        select,
        count: Boolean(prefs.count),
        limit,
        offset,
        shape: format.kind === 'object' ? 'object' : 'array',
        stripNulls: format.stripNulls,
      });
      return { text, values: params.values };
    });
    const row = await run(req, identity, url.pathname, statement, {
      readOnly: true,
      rollback: prefs.tx === 'rollback',
      // Only where it can refuse: without a check the commit goes out with the statement.
      check:
        format.kind === 'object'
          ? (r) => {
              if (Number(r.page_total) !== 1) throw singularityError(Number(r.page_total));
            }
          : undefined,
    });
    const total = row.total === null ? null : Number(row.total);
    const { status, contentRange } = pageStatus(offset, Number(row.page_total), total);
    sendRows(res, req, status, row, format, {
      'Content-Range': contentRange,
      ...appliedPreferences(prefs, ['count', 'tx', 'handling']),
    });
  }

  async function write(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    name: string,
    identity: RequestIdentity,
    startedAt: number,
    body: unknown,
  ) {
    const method = req.method as 'POST' | 'PATCH' | 'DELETE';
    const format = negotiateFormat(req);
    const prefs = parsePreferences(req);
    const query = parseQueryParams(url.searchParams);
    const select = parseSelect(query.select ?? '*');
    const returning: ReturnPreference = prefs.return ?? 'minimal';
    const shape = format.kind === 'object' ? 'object' : 'array';
    const count = Boolean(prefs.count);

    let rows: Record<string, unknown>[] = [];
    let columns: string[] = [];
    if (method === 'POST') {
      if (Array.isArray(body)) {
        if (!body.every(isPlainObject)) throw invalidBody('All object keys must match');
        rows = body;
      } else if (isPlainObject(body)) rows = [body];
      else throw invalidBody('Empty or invalid json');
      columns = query.columns ?? Object.keys(rows[0] ?? {});
      // Without `columns=`, every row must have the first row's keys.
      const keyOf = (r: object) => Object.keys(r).sort().join('\u0000');
      const firstKey = keyOf(rows[0] ?? {});
      if (!query.columns && rows.some((r) => keyOf(r) !== firstKey)) {
        throw invalidBody('All object keys must match');
      }
    } else if (method === 'PATCH') {
      if (!isPlainObject(body)) throw invalidBody('Empty or invalid json');
      columns = query.columns ?? Object.keys(body);
    }

    const noop = method === 'PATCH' && columns.length === 0;
    const statement = await plan(startedAt, (snapshot, strict) => {
      const table = lookupTable(snapshot, name, strict);
      checkWriteColumns(table, columns, strict);
      const params = new Params();
      const bctx = newBuildContext(snapshot, params, new Map(query.levels), strict);
      const common = {
        ctx: bctx,
        table,
        returning,
        select,
        shape,
        stripNulls: format.stripNulls,
        count,
      } as const;
      let text: string;
      if (method === 'POST') {
        let upsert: Parameters<typeof buildInsert>[0]['upsert'];
        if (prefs.resolution) {
          const onConflict = query.onConflict ?? table.primaryKey;
          checkWriteColumns(table, onConflict, strict);
          upsert = { resolution: prefs.resolution, onConflict };
        }
        text = buildInsert({
          ...common,
          rows,
          columns,
          missingDefault: prefs.missing === 'default',
          upsert,
        });
      } else if (method === 'PATCH') {
        // An empty patch changes nothing; it still answers like an update of no rows.
        text = noop
          ? `select null::bigint as total, 0 as page_total, ${returning === 'representation' ? `'[]'` : 'null'}::text as body from ${qualified(EXPOSED_SCHEMA, table.name)} where false`
          : buildUpdate({ ...common, values: body as Record<string, unknown>, columns });
      } else {
        text = buildDelete(common);
      }
      return { text, values: params.values, table };
    });

    // PostgREST counts the rows a PATCH or DELETE affects; an insert is never limited.
    const limit = method === 'POST' ? undefined : maxAffected(prefs);
    const row = await run(req, identity, url.pathname, statement, {
      readOnly: false,
      rollback: prefs.tx === 'rollback',
      // Checked inside the transaction, so a refused write leaves nothing behind (only where it
      // can refuse: without a check the commit goes out with the statement).
      check:
        limit !== undefined || (returning === 'representation' && format.kind === 'object')
          ? (r) => {
              checkMaxAffected(limit, Number(r.page_total));
              if (
                returning === 'representation' &&
                format.kind === 'object' &&
                Number(r.page_total) !== 1
              ) {
                throw singularityError(Number(r.page_total));
              }
            }
          : undefined,
    });
    const affected = Number(row.page_total);
    const headers: Record<string, string> = {
      'Content-Range':
        affected > 0 ? `0-${affected - 1}/${count ? affected : '*'}` : `*/${count ? 0 : '*'}`,
      ...appliedPreferences(prefs, [
        'resolution',
        'missing',
        'return',
        'count',
        'tx',
        'handling',
        'max-affected',
      ]),
    };
    if (method === 'POST' && returning === 'headers-only' && row.location_key) {
      const key = JSON.parse(row.location_key) as Record<string, unknown>;
      const search = Object.entries(key)
        .map(([k, v]) => `${encodeURIComponent(k)}=eq.${encodeURIComponent(String(v))}`)
        .join('&');
      headers.Location = `/${name}?${search}`;
    }
    if (returning !== 'representation') {
      return sendText(res, method === 'POST' ? 201 : 204, null, JSON_TYPE, headers);
    }
    sendRows(res, req, method === 'POST' ? 201 : 200, row, format, headers);
  }

  async function rpc(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    name: string,
    identity: RequestIdentity,
    startedAt: number,
    body: unknown,
  ) {
    const method = req.method ?? 'GET';
    const readOnly = method === 'GET' || method === 'HEAD';
    const format = negotiateFormat(req);
    const prefs = parsePreferences(req);
    if (!readOnly && body !== undefined && !isPlainObject(body) && !Array.isArray(body)) {
      throw invalidBody('Empty or invalid json');
    }
    const statement = await plan(startedAt, (snapshot, strict) => {
      let args: Record<string, unknown> = {};
      let skip = new Set<string>();
      if (readOnly) {
        const names = argumentNames(snapshot, name);
        for (const [k, v] of url.searchParams) if (names.has(k)) args[k] = v;
        skip = new Set(Object.keys(args));
      } else if (isPlainObject(body)) {
        args = body;
      }
      const query = parseQueryParams(url.searchParams, skip);
      const select = parseSelect(query.select ?? '*');
      const { fn, singleJson } = resolveFunction(
        snapshot,
        name,
        Object.keys(args),
        !readOnly,
        strict,
      );
      const params = new Params();
      const bctx = newBuildContext(snapshot, params, query.levels, strict);
      const call = buildCall(bctx, fn, singleJson ? (body ?? {}) : args, singleJson);
      if (call.kind === 'rows' || call.kind === 'row') {
        const { offset, limit } = limitsOf(query.levels, req, null);
        const text = buildReadStatement({
          ctx: bctx,
          from: call.from,
          alias: call.alias,
          tableName: call.alias,
          select,
          count: Boolean(prefs.count),
          limit,
          offset,
          shape: call.kind === 'row' || format.kind === 'object' ? 'object' : 'array',
          stripNulls: format.stripNulls,
        });
        return { text, values: params.values, kind: call.kind, offset };
      }
      return {
        text: buildScalarStatement(call),
        values: params.values,
        kind: call.kind,
        offset: 0,
      };
    });
    const limit = maxAffected(prefs);
    if (limit !== undefined && statement.kind !== 'rows' && statement.kind !== 'scalars') {
      throw new RestError(
        400,
        'PGRST128',
        'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
      );
    }
    const row = await run(req, identity, url.pathname, statement, {
      readOnly,
      rollback: prefs.tx === 'rollback',
      // Only where it can refuse: without a check the commit goes out with the statement.
      check:
        limit !== undefined || (statement.kind === 'rows' && format.kind === 'object')
          ? (r) => {
              checkMaxAffected(limit, Number(r.page_total));
              if (
                statement.kind === 'rows' &&
                format.kind === 'object' &&
                Number(r.page_total) !== 1
              ) {
                throw singularityError(Number(r.page_total));
              }
            }
          : undefined,
    });
    const applied = appliedPreferences(prefs, ['count', 'tx', 'handling', 'max-affected']);
    if (statement.kind === 'void') return sendText(res, 204, null, JSON_TYPE, applied);
    const headers: Record<string, string> = { ...applied };
    let status = 200;
    if (statement.kind === 'rows') {
      const total = row.total === null ? null : Number(row.total);
      const page = pageStatus(statement.offset, Number(row.page_total), total);
      status = page.status;
      headers['Content-Range'] = page.contentRange;
    }
    sendRows(res, req, status, row, format, headers);
  }

  async function root(res: ServerResponse, startedAt: number) {
    const snapshot = await plan(startedAt, (s) => s);
    const paths: Record<string, object> = { '/': {} };
    for (const name of [...snapshot.tables.keys()].sort()) paths[`/${name}`] = {};
    for (const name of [...snapshot.functions.keys()].sort()) paths[`/rpc/${name}`] = {};
    const doc = {
      swagger: '2.0',
      info: { title: 'tinyback local REST API', version: '14' },
      basePath: '/',
      schemes: ['http'],
      consumes: ['application/json'],
      produces: ['application/json'],
      paths,
    };
    sendText(res, 200, JSON.stringify(doc), 'application/openapi+json; charset=utf-8', {});
  }

  return {
    async handle(req, res, urlPath, url) {
      const startedAt = performance.now();
      let identity: RequestIdentity | undefined;
      const method = (req.method ?? 'GET').toUpperCase();
      try {
        // The body is read first so every answer, errors included, comes after the whole request.
        let raw: Buffer | undefined;
        if (method !== 'GET' && method !== 'HEAD') {
          try {
            raw = await readBody(req, MAX_BODY_BYTES);
          } catch (err) {
            if (err instanceof BodyTooLargeError) {
              throw new RestError(
                413,
                'PGRST413',
                'Request body is too large',
                `The limit is ${MAX_BODY_BYTES} bytes.`,
              );
            }
            throw err;
          }
        }
        checkProfile(req);
        identity = await identify(req, ctx.settings.jwtSecret);
        const { resource, name } = resourceOf(method, urlPath);

        if (resource === 'root') {
          if (method !== 'GET' && method !== 'HEAD') {
            throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
          }
          return await root(res, startedAt);
        }
        if (resource === 'rpc') {
          if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
            throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
          }
          if (method === 'POST') checkJsonContentType(req);
          const body = raw ? parseJson(raw) : undefined;
          return await rpc(req, res, url, name, identity, startedAt, body);
        }
        if (method === 'GET' || method === 'HEAD')
          return await read(req, res, url, name, identity, startedAt);
        if (method === 'POST' || method === 'PATCH' || method === 'DELETE') {
          if (method !== 'DELETE') checkJsonContentType(req);
          const body = raw && method !== 'DELETE' ? parseJson(raw) : undefined;
          return await write(req, res, url, name, identity, startedAt, body);
        }
        if (method === 'PUT') {
          throw new RestError(
            400,
            'PGRST127',
            'Feature not implemented',
            'PUT is not supported by the local stack; use POST with Prefer: resolution=merge-duplicates.',
          );
        }
        throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      } catch (err) {
        const restError = toRestError(err, identity !== undefined && identity.role !== ANON_ROLE);
        if (restError.status >= 500)
          log(`${method} ${url.pathname}${url.search}: ${restError.code} ${restError.message}`);
        sendError(res, restError);
      }
    },
    async close() {
      await cache.close();
      await pool.end();
    },
  };
}
