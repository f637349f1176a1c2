// Builds INSERT (and upsert), UPDATE and DELETE statements as PostgREST does: the JSON body is
// turned into rows by Postgres (json_populate_recordset) so defaults, types and constraints
// behave as in the database, and the written rows are rendered like a read when asked for.
import { RestError } from './errors.ts';
import {
  bodyExpression,
  renderLevel,
  checkUnusedLevels,
  type BodyShape,
  type BuildContext,
} from './read-query.ts';
import type { SelectItem } from './query-grammar.ts';
import { EXPOSED_SCHEMA, type TableInfo } from './schema-cache.ts';
import { ident, qualified } from './sql.ts';

export type ReturnPreference = 'minimal' | 'representation' | 'headers-only';

interface WriteOptions {
  ctx: BuildContext;
  table: TableInfo;
  returning: ReturnPreference;
  select: SelectItem[];
  shape: BodyShape;
  stripNulls: boolean;
}

/** `returning …` of the data-modifying CTE: nothing beyond a marker unless rows are wanted. */
function returningClause(opts: WriteOptions, alias: string): string {
  if (opts.returning === 'representation') return `returning ${ident(alias)}.*`;
  if (opts.returning === 'headers-only' && opts.table.primaryKey.length) {
    return `returning ${opts.table.primaryKey.map((c) => `${ident(alias)}.${ident(c)}`).join(', ')}`;
  }
  // `returning 1` counts rows without needing a SELECT policy, like PostgREST's minimal return.
  return 'returning 1';
}

/** Wraps the data-modifying statement and renders what it wrote (or only counts it). */
function wrap(
  opts: WriteOptions,
  alias: string,
  modifying: string,
  countTotal: boolean,
  upsertUpdates = false,
): string {
  // Filters of a write belong to its WHERE; the representation shows every written row.
  const root = opts.ctx.levels.get('') ?? { predicates: [] };
  opts.ctx.levels.set('', { ...root, predicates: [] });
  let list = '1';
  let order = '';
  let joins = '';
  let where = '';
  let pk = '';
  if (opts.returning === 'representation') {
    const level = renderLevel(opts.ctx, opts.table.name, opts.table, alias, opts.select, '');
    list = level.list;
    joins = level.joins;
    // What is left are `!inner` embeds: they narrow the representation, not the write.
    if (level.where.length) where = ` where ${level.where.join(' and ')}`;
    if (level.order) order = ` order by ${level.order}`;
    checkUnusedLevels(opts.ctx);
  } else if (opts.returning === 'headers-only' && opts.table.primaryKey.length) {
    pk = `, (select pg_catalog.to_json(pgrst_pk) from (select * from pgrst_source limit 1) as pgrst_pk)::text as location_key`;
  }
  // Every written row counts (a data-modifying CTE runs once however often it is read).
  const written = '(select pg_catalog.count(*) from pgrst_source)';
  const total = countTotal ? written : 'null::bigint';
  const head = `with pgrst_source as (${modifying}) select ${total} as total, ${written} as page_total`;
  const updated = upsertUpdates ? `, ${UPDATED_READ} as pgrst_updated` : '';
  // Without a body there is nothing to aggregate: one row however many rows were written, none
  // included (a FROM over the written rows would answer no row at all for none).
  if (opts.returning !== 'representation') return `${head}, null::text as body${pk}${updated}`;
  return `${head}, ${bodyExpression(opts.shape, opts.stripNulls)} as body${updated} from (select ${list} from pgrst_source as ${ident(alias)}${joins}${where}${order}) as _postgrest_t`;
}

/**
 * How an upsert tells inserted rows from updated ones without reading them (RETURNING xmax would
 * need a SELECT policy on every new row): its DO UPDATE counts each conflicting row in a
 * transaction setting, as PostgREST does, which the outer query reads once the rows are written.
 */
const UPDATED_SETTING = `'pgrst.upsert_updated'`;
const UPDATED_COUNT = `pg_catalog.set_config(${UPDATED_SETTING}, (coalesce(nullif(pg_catalog.current_setting(${UPDATED_SETTING}, true), '')::int, 0) + 1)::text, true) is not null`;
const UPDATED_READ = `(select coalesce(nullif(pg_catalog.current_setting(${UPDATED_SETTING}, true), '')::int, 0) from (select pg_catalog.count(*) as pgrst_n from pgrst_source) as pgrst_done where pgrst_done.pgrst_n >= 0)`;

export interface InsertOptions extends WriteOptions {
  /** The body, always as an array of objects. */
  rows: Record<string, unknown>[];
  columns: string[];
  missingDefault: boolean;
  upsert?: { resolution: 'merge-duplicates' | 'ignore-duplicates'; onConflict: string[] };
  count: boolean;
}

export function buildInsert(opts: InsertOptions): string {
  const { ctx, table } = opts;
  const alias = table.name;
  const target = qualified(EXPOSED_SCHEMA, table.name);
  const rowType = `null::${target}`;
  const cols = opts.columns.map(ident);
  let rowsSql: string;
  if (opts.missingDefault && cols.length) {
    // Each absent key takes the column's DEFAULT, so rows are spelled out one VALUES tuple each.
    const tuples = opts.rows.map((row) => {
      const p = ctx.params.add(JSON.stringify(row));
      const cells = opts.columns.map((c) =>
        Object.prototype.hasOwnProperty.call(row, c)
          ? `(pg_catalog.json_populate_record(${rowType}, ${p}::json)).${ident(c)}`
          : 'default',
      );
      return `(${cells.join(', ')})`;
    });
    rowsSql = tuples.length
      ? `values ${tuples.join(', ')}`
      : `select ${cols.join(', ')} from ${target} where false`;
  } else {
    const p = ctx.params.add(JSON.stringify(opts.rows));
    rowsSql = `select ${cols.join(', ')} from pg_catalog.json_populate_recordset(${rowType}, ${p}::json) as pgrst_body`;
  }
  let conflict = '';
  if (opts.upsert) {
    const targetCols = opts.upsert.onConflict.map(ident).join(', ');
    const targetSql = targetCols ? ` (${targetCols})` : '';
    // Like PostgREST, every payload column is set from the proposed row, conflict target included.
    const updatable = opts.columns;
    conflict =
      opts.upsert.resolution === 'ignore-duplicates' || updatable.length === 0
        ? ` on conflict${targetSql} do nothing`
        : ` on conflict${targetSql} do update set ${updatable
            .map((c) => `${ident(c)} = excluded.${ident(c)}`)
            .join(', ')} where ${UPDATED_COUNT}`;
  }
  const countsUpdates = opts.upsert?.resolution === 'merge-duplicates' && opts.columns.length > 0;
  const columnList = cols.length ? ` (${cols.join(', ')})` : '';
  const modifying = `insert into ${target} as ${ident(alias)}${columnList} ${rowsSql}${conflict} ${returningClause(
    opts,
    alias,
  )}`;
  return wrap(opts, alias, modifying, opts.count, countsUpdates);
}

/**
 * The WHERE of an update or delete; pg-safeupdate (loaded on Supabase) refuses none. With
 * `limit`/`offset`, PostgREST narrows the rows by `ctid` through an ordered subquery.
 */
function whereOf(
  ctx: BuildContext,
  table: TableInfo,
  alias: string,
  command: 'UPDATE' | 'DELETE',
): string {
  // The order only picks the rows of a limited write, so it is rendered there alone.
  const level = renderLevel(ctx, table.name, table, alias, [], '', false);
  if (!level.where.length) throw new RestError(400, '21000', `${command} requires a WHERE clause`);
  const where = level.where.join(' and ');
  if (level.limit === undefined && level.offset === undefined) return where;
  if (level.limit !== undefined && level.limit < 0) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'Limit should be greater than or equal to zero.',
    );
  }
  const inner = 'pgrst_limited';
  const limited = renderLevel(ctx, table.name, table, inner, [], '');
  const paging =
    (limited.order ? ` order by ${limited.order}` : '') +
    (level.limit !== undefined ? ` limit ${level.limit}` : '') +
    (level.offset ? ` offset ${level.offset}` : '');
  // The outer filters stay: every parameter rendered must appear in the statement.
  return `${where} and ${ident(alias)}.ctid = any(array(select ${ident(inner)}.ctid from ${qualified(
    EXPOSED_SCHEMA,
    table.name,
  )} as ${ident(inner)} where ${limited.where.join(' and ')}${paging}))`;
}

export interface UpdateOptions extends WriteOptions {
  values: Record<string, unknown>;
  columns: string[];
  count: boolean;
}

export function buildUpdate(opts: UpdateOptions): string {
  const { ctx, table } = opts;
  const alias = table.name;
  const target = qualified(EXPOSED_SCHEMA, table.name);
  const where = whereOf(ctx, table, alias, 'UPDATE');
  const p = ctx.params.add(JSON.stringify(opts.values));
  const set = opts.columns.map((c) => `${ident(c)} = pgrst_body.${ident(c)}`).join(', ');
  const modifying =
    `update ${target} as ${ident(alias)} set ${set} ` +
    `from (select * from pg_catalog.json_populate_record(null::${target}, ${p}::json)) as pgrst_body ` +
    `where ${where} ${returningClause(opts, alias)}`;
  return wrap(opts, alias, modifying, opts.count);
}

export interface DeleteOptions extends WriteOptions {
  count: boolean;
}

export function buildDelete(opts: DeleteOptions): string {
  const { ctx, table } = opts;
  const alias = table.name;
  const target = qualified(EXPOSED_SCHEMA, table.name);
  const where = whereOf(ctx, table, alias, 'DELETE');
  const modifying = `delete from ${target} as ${ident(alias)} where ${where} ${returningClause(opts, alias)}`;
  return wrap(opts, alias, modifying, opts.count);
}
