// POST, PATCH and DELETE on a table: the body checked, the write planned against the schema cache
// (write-query.ts, upserts included), run as the request's role with its `Prefer` checks inside
// the transaction, answered with the rows, a Location or nothing as `return=` asks.
import type { RestCall, RestRuntime } from './context.ts';
import { singularityError } from './errors.ts';
import { execute } from './execute.ts';
import {
  appliedPreferences,
  checkMaxAffected,
  maxAffected,
  negotiateFormat,
  parsePreferences,
} from './negotiation.ts';
import { plan } from './plan.ts';
import { parseQueryParams, parseSelect } from './query-grammar.ts';
import { newBuildContext } from './read-query.ts';
import { invalidBody, isPlainObject } from './request-body.ts';
import { JSON_TYPE, sendRows, sendText } from './responses.ts';
import { checkWriteColumns, lookupTable } from './schema-lookup.ts';
import { Params } from './sql.ts';
import { buildDelete, buildInsert, buildUpdate, type ReturnPreference } from './write-query.ts';

export async function handleWrite(
  rt: RestRuntime,
  { req, res, url, identity, startedAt }: RestCall,
  name: string,
  body: unknown,
) {
  const method = req.method as 'POST' | 'PATCH' | 'DELETE';
  const format = negotiateFormat(req);
  const prefs = parsePreferences(req);
  const query = parseQueryParams(url.searchParams);
  const select = parseSelect(query.select ?? '*');
  const returning: ReturnPreference = prefs.return ?? 'minimal';
  const shape = format.kind;
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
  const statement = await plan(rt.cache, startedAt, (snapshot, strict) => {
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
        ? `select null::bigint as total, 0 as page_total, ${returning === 'representation' ? `'[]'` : 'null'}::text as body`
        : buildUpdate({ ...common, values: body as Record<string, unknown>, columns });
    } else {
      text = buildDelete(common);
    }
    return { text, values: params.values, table };
  });

  // PostgREST counts the rows a PATCH or DELETE affects; an insert is never limited.
  const limit = method === 'POST' ? undefined : maxAffected(prefs);
  const row = await execute(rt, req, identity, url.pathname, statement, {
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
  // An upsert that only updated existing rows answers 200, as PostgREST (12 and later) does.
  const inserted = row.pgrst_updated == null ? 1 : rows.length - Number(row.pgrst_updated);
  const created = inserted > 0 ? 201 : 200;
  if (returning !== 'representation') {
    return sendText(res, method === 'POST' ? created : 204, null, JSON_TYPE, headers);
  }
  sendRows(res, req, method === 'POST' ? created : 200, row, format, headers);
}
