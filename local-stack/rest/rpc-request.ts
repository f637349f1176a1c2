// `/rpc/<function>`: arguments from the body (POST) or the query string (GET, HEAD, read-only),
// the overload resolved and the call planned (rpc.ts); rows, a single row, scalars or nothing.
import type { RestCall, RestRuntime } from './context.ts';
import { RestError, singularityError } from './errors.ts';
import { execute } from './execute.ts';
import {
  appliedPreferences,
  checkMaxAffected,
  maxAffected,
  negotiateFormat,
  pageStatus,
  parsePreferences,
} from './negotiation.ts';
import { limitsOf } from './paging.ts';
import { plan } from './plan.ts';
import { parseQueryParams, parseSelect } from './query-grammar.ts';
import { buildReadStatement, newBuildContext } from './read-query.ts';
import { invalidBody, isPlainObject } from './request-body.ts';
import { JSON_TYPE, sendRows, sendText } from './responses.ts';
import { argumentNames, buildCall, buildScalarStatement, resolveFunction } from './rpc.ts';
import { Params } from './sql.ts';

export async function handleRpc(
  rt: RestRuntime,
  { req, res, url, identity, startedAt }: RestCall,
  name: string,
  body: unknown,
  rawBody: string | undefined,
) {
  const method = req.method ?? 'GET';
  const readOnly = method === 'GET' || method === 'HEAD';
  const format = negotiateFormat(req);
  const prefs = parsePreferences(req);
  if (!readOnly && body !== undefined && !isPlainObject(body) && !Array.isArray(body)) {
    throw invalidBody('Empty or invalid json');
  }
  const statement = await plan(rt.cache, startedAt, (snapshot, strict) => {
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
    const { fn, wholeBody } = resolveFunction(snapshot, name, Object.keys(args), !readOnly, strict);
    const params = new Params();
    const bctx = newBuildContext(snapshot, params, query.levels, strict);
    // PostgREST passes the body as sent (an empty one as `{}`).
    const call = buildCall(bctx, fn, args, wholeBody ? rawBody || '{}' : undefined);
    const shape = format.kind === 'csv' ? 'csv' : call.kind === 'row' ? 'object' : format.kind;
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
        shape,
        stripNulls: format.stripNulls,
      });
      return { text, values: params.values, kind: call.kind, offset };
    }
    return {
      text: buildScalarStatement(call, shape, Boolean(prefs.count)),
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
  const row = await execute(rt, req, identity, url.pathname, statement, {
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
  // Every call has a Content-Range, a scalar or void counting as one row (as in PostgREST).
  const total = row.total === null ? null : Number(row.total);
  const page = pageStatus(statement.offset, Number(row.page_total), total);
  const headers: Record<string, string> = {
    'Content-Range': page.contentRange,
    ...appliedPreferences(prefs, ['count', 'tx', 'handling', 'max-affected']),
  };
  if (statement.kind === 'void') return sendText(res, 204, null, JSON_TYPE, headers);
  sendRows(res, req, page.status, row, format, headers);
}
