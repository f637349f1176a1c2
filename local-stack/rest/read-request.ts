// GET and HEAD on a table or view: the read planned against the schema cache (read-query.ts),
// run read-only as the request's role, answered with its page and Content-Range.
import type { RestCall, RestRuntime } from './context.ts';
import { singularityError } from './errors.ts';
import { execute } from './execute.ts';
import {
  appliedPreferences,
  negotiateFormat,
  pageStatus,
  parsePreferences,
} from './negotiation.ts';
import { limitsOf } from './paging.ts';
import { plan } from './plan.ts';
import { parseQueryParams, parseSelect } from './query-grammar.ts';
import { buildReadStatement, newBuildContext } from './read-query.ts';
import { sendRows } from './responses.ts';
import { EXPOSED_SCHEMA } from './schema-cache.ts';
import { lookupTable } from './schema-lookup.ts';
import { ident, Params, qualified } from './sql.ts';

export async function handleRead(
  rt: RestRuntime,
  { req, res, url, identity, startedAt }: RestCall,
  name: string,
) {
  const format = negotiateFormat(req);
  const prefs = parsePreferences(req);
  const query = parseQueryParams(url.searchParams);
  const select = parseSelect(query.select ?? '*');
  const { offset, limit } = limitsOf(query.levels, req, rt.maxRows);
  const statement = await plan(rt.cache, startedAt, (snapshot, strict) => {
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
      shape: format.kind,
      stripNulls: format.stripNulls,
    });
    return { text, values: params.values };
  });
  const row = await execute(rt, req, identity, url.pathname, statement, {
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
