// Builds the SELECT of a read (and the representation of a write): select lists with aliases,
// casts and JSON paths, embedded resources through foreign keys, filters, order and paging.
// Rows are rendered by Postgres itself (json_agg / to_json), as PostgREST does, so every type
// comes out exactly as PostgREST would print it. Permissions are left to Postgres (RLS, GRANTs).
import { RestError } from './errors.ts';
import {
  OPERATORS,
  type EmbedItem,
  type Filter,
  type JsonStep,
  type LevelOptions,
  type OrderTerm,
  type Predicate,
  type SelectItem,
} from './query-grammar.ts';
import {
  EXPOSED_SCHEMA,
  type ForeignKey,
  type SchemaSnapshot,
  type TableInfo,
} from './schema-cache.ts';
import { castSql, ident, qualified, type Params } from './sql.ts';

/** Thrown when a name is missing from the cache; the caller reloads the cache and plans again. */
export class SchemaMiss extends Error {}

export interface BuildContext {
  snapshot: SchemaSnapshot;
  params: Params;
  /** First planning pass: unknown columns raise SchemaMiss. On the second, Postgres reports them. */
  strict: boolean;
  levels: Map<string, LevelOptions>;
  usedLevels: Set<string>;
  aliasCount: number;
}

export function newBuildContext(
  snapshot: SchemaSnapshot,
  params: Params,
  levels: Map<string, LevelOptions>,
  strict: boolean,
): BuildContext {
  return { snapshot, params, strict, levels, usedLevels: new Set(), aliasCount: 0 };
}

function columnRef(ctx: BuildContext, alias: string, name: string, jsonPath: JsonStep[]): string {
  let sql = `${ident(alias)}.${ident(name)}`;
  for (const step of jsonPath) {
    // Integer keys index JSON arrays, as in PostgREST.
    const key = /^-?\d+$/.test(step.key)
      ? `${ctx.params.add(step.key)}::int`
      : `${ctx.params.add(step.key)}::text`;
    sql += `${step.arrow}${key}`;
  }
  return sql;
}

function checkColumn(ctx: BuildContext, table: TableInfo | undefined, name: string) {
  if (ctx.strict && table && !table.columns.has(name)) throw new SchemaMiss(name);
}

const TSQUERY = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

function renderFilter(ctx: BuildContext, f: Filter, alias: string, level: Level): string {
  const c = f.condition;
  // `embed=is.null` / `embed=not.is.null` filter parents by the presence of an embedded row.
  const embed = level.embeds.get(f.column);
  if (embed && f.jsonPath.length === 0) {
    if (c.op !== 'is' || (c.value !== 'null' && c.value !== 'not_null')) {
      throw new RestError(
        400,
        'PGRST120',
        `Bad operator on the '${f.column}' embedded resource`,
        'Only is null or not is null filters are allowed on embedded resources',
      );
    }
    const present = (c.value === 'not_null') !== f.negate;
    return `${present ? '' : 'not '}exists (${embed.existsSql(alias)})`;
  }
  checkColumn(ctx, level.table, f.column);
  const col = columnRef(ctx, alias, f.column, f.jsonPath);
  let sql: string;
  switch (c.op) {
    case 'in':
      sql = `${col} = any(${ctx.params.add(c.values)})`;
      break;
    case 'is':
      sql = c.value === 'not_null' ? `${col} is not null` : `${col} is ${c.value}`;
      break;
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const config = c.config ? `${ctx.params.add(c.config)}::regconfig, ` : '';
      sql = `${col} @@ ${TSQUERY[c.op]}(${config}${ctx.params.add(c.value)})`;
      break;
    }
    default: {
      // PostgREST accepts `*` as the wildcard so URLs need no `%` escaping.
      const value = c.op === 'like' || c.op === 'ilike' ? c.value.replace(/\*/g, '%') : c.value;
      const op = OPERATORS[c.op];
      sql = c.quantifier
        ? `${col} ${op} ${c.quantifier}(${ctx.params.add(value)})`
        : `${col} ${op} ${ctx.params.add(value)}`;
    }
  }
  return f.negate ? `not (${sql})` : sql;
}

function renderPredicate(ctx: BuildContext, p: Predicate, alias: string, level: Level): string {
  if (p.kind === 'filter') return renderFilter(ctx, p, alias, level);
  const joined = p.children
    .map((child) => renderPredicate(ctx, child, alias, level))
    .join(p.operator === 'and' ? ' and ' : ' or ');
  return p.negate ? `not (${joined})` : `(${joined})`;
}

function renderOrder(ctx: BuildContext, terms: OrderTerm[], alias: string, level: Level): string {
  return terms
    .map((t) => {
      let sql: string;
      if (t.relation !== undefined) {
        const plan = level.embeds.get(t.relation);
        if (!plan) {
          throw new RestError(
            400,
            'PGRST108',
            `'${t.relation}' is not an embedded resource in this request`,
            null,
            `Verify that '${t.relation}' is included in the 'select' query parameter.`,
          );
        }
        sql = plan.columnSql(alias, t.column, t.jsonPath);
      } else {
        checkColumn(ctx, level.table, t.column);
        sql = columnRef(ctx, alias, t.column, t.jsonPath);
      }
      if (t.direction) sql += ` ${t.direction}`;
      if (t.nulls) sql += ` nulls ${t.nulls}`;
      return sql;
    })
    .join(', ');
}

interface Relationship {
  fk: ForeignKey;
  /** The embedded table. */
  target: string;
  toOne: boolean;
  cardinality: 'many-to-one' | 'one-to-many' | 'one-to-one';
  /** A foreign key from a table to itself. */
  self: boolean;
  /** The key's columns on the parent's side and on the embedded table's. */
  columns: string[];
  targetColumns: string[];
  /** Join condition between the embedded alias and the parent alias. */
  join: (child: string, parent: string) => string;
}

function isUnique(table: TableInfo | undefined, columns: string[]): boolean {
  if (!table) return false;
  return table.uniqueKeys.some(
    (key) => key.length === columns.length && key.every((c) => columns.includes(c)),
  );
}

function equalities(
  childCols: string[],
  childAlias: string,
  parentCols: string[],
  parentAlias: string,
) {
  return childCols
    .map(
      (c, i) => `${ident(childAlias)}.${ident(c)} = ${ident(parentAlias)}.${ident(parentCols[i])}`,
    )
    .join(' and ');
}

/** Both directions of each foreign key that touches `parent`, as PostgREST's schema cache has them. */
function relationshipsOf(snapshot: SchemaSnapshot, parent: string): Relationship[] {
  const found: Relationship[] = [];
  for (const fk of snapshot.foreignKeys) {
    const self = fk.table === fk.foreignTable;
    if (fk.table === parent) {
      const oneToOne = isUnique(snapshot.tables.get(parent), fk.columns);
      found.push({
        fk,
        target: fk.foreignTable,
        toOne: true,
        cardinality: oneToOne ? 'one-to-one' : 'many-to-one',
        self,
        columns: fk.columns,
        targetColumns: fk.foreignColumns,
        join: (child, par) => equalities(fk.foreignColumns, child, fk.columns, par),
      });
    }
    if (fk.foreignTable === parent) {
      const oneToOne = isUnique(snapshot.tables.get(fk.table), fk.columns);
      found.push({
        fk,
        target: fk.table,
        toOne: oneToOne,
        cardinality: oneToOne ? 'one-to-one' : 'one-to-many',
        self,
        columns: fk.foreignColumns,
        targetColumns: fk.columns,
        join: (child, par) => equalities(fk.columns, child, fk.foreignColumns, par),
      });
    }
  }
  return found;
}

/**
 * The relationships an embed names, by PostgREST's rules: the target is a table (with a hint
 * naming the constraint or a column of either side), a constraint or a column of the parent's; a
 * self-referencing key embeds its children by the table's name and its parent by the column's.
 */
function findRelationships(
  snapshot: SchemaSnapshot,
  parent: string,
  item: EmbedItem,
): Relationship[] {
  const target = item.relation;
  const hint = item.hint;
  const single = (cols: string[], name: string | undefined) =>
    cols.length === 1 && cols[0] === name;
  return relationshipsOf(snapshot, parent).filter((r) => {
    if (r.self) {
      if (hint === undefined) {
        return (
          (r.target === target && r.cardinality === 'one-to-many') ||
          (single(r.columns, target) && r.cardinality === 'many-to-one')
        );
      }
      return (
        r.target === target && r.cardinality === 'one-to-many' && single(r.targetColumns, hint)
      );
    }
    if (hint === undefined) {
      return r.target === target || r.fk.name === target || single(r.columns, target);
    }
    return (
      r.target === target &&
      (r.fk.name === hint || single(r.columns, hint) || single(r.targetColumns, hint))
    );
  });
}

function resolveRelationship(ctx: BuildContext, parent: string, item: EmbedItem): Relationship {
  const found = findRelationships(ctx.snapshot, parent, item);
  if (found.length === 1) return found[0];
  if (found.length === 0) {
    if (ctx.strict) throw new SchemaMiss(item.relation);
    const computed = computedRelationship(ctx.snapshot, parent, item.relation);
    if (computed) {
      throw noRelationship(
        parent,
        item.relation,
        `'${item.relation}' is a computed relationship (the function ${EXPOSED_SCHEMA}.${item.relation}(${computed})); the local stack embeds only through foreign keys between tables.`,
      );
    }
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent}' and '${item.relation}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent}' and '${item.relation}'${
        item.hint ? ` using the hint '${item.hint}'` : ''
      } in the schema '${EXPOSED_SCHEMA}', but no matches were found.`,
      null,
    );
  }
  const fmt = (cols: string[]) => `(${cols.join(', ')})`;
  throw new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent}' and '${item.relation}'`,
    found.map((r) => ({
      cardinality: r.cardinality,
      embedding: `${parent} with ${item.relation}`,
      relationship: `${r.fk.name} using ${r.fk.table}${fmt(r.fk.columns)} and ${r.fk.foreignTable}${fmt(r.fk.foreignColumns)}`,
    })),
    `Try changing '${item.relation}' to one of the following: ${found
      .map((r) => `'${item.relation}!${r.fk.name}'`)
      .join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}

interface EmbedPlan {
  /** The correlated subquery yielding the embedded JSON, given the parent alias. */
  valueSql: (parentAlias: string) => string;
  /** One column of a to-one embedded row, for ordering the parents by it. */
  columnSql: (parentAlias: string, column: string, jsonPath: JsonStep[]) => string;
  /** For spreads: `left join lateral (…) as alias on true`, whose columns join the parent's. */
  lateralSql: (parentAlias: string, lateralAlias: string) => string;
  /** `select 1 from … where join and filters`, for `!inner` and `embed=not.is.null`. */
  existsSql: (parentAlias: string) => string;
  inner: boolean;
}

interface Level {
  table?: TableInfo;
  embeds: Map<string, EmbedPlan>;
}

/** One level of the tree: its select list, where clauses, order and paging, for `alias`. */
export interface RenderedLevel {
  list: string;
  /** Lateral joins of spread embeds, to follow the level's FROM item. */
  joins: string;
  where: string[];
  order: string;
  limit?: number;
  offset?: number;
}

/**
 * Renders a level reading `tableName` (or a function's rows when `table` is undefined) under
 * `alias`. `withOrder: false` leaves the order out where only the filters are used: every
 * parameter placed in the statement must appear in its text.
 */
export function renderLevel(
  ctx: BuildContext,
  tableName: string,
  table: TableInfo | undefined,
  alias: string,
  select: SelectItem[],
  path: string,
  withOrder = true,
): RenderedLevel {
  ctx.usedLevels.add(path);
  const options = ctx.levels.get(path) ?? { predicates: [] };
  const level: Level = { table, embeds: new Map() };
  const list: string[] = [];
  const joins: string[] = [];
  const embedNames = new Set<string>();

  for (const item of select) {
    if (item.kind === 'embed') checkEmbedName(embedNames, tableName, item, path);
    if (item.kind === 'star') {
      list.push(`${ident(alias)}.*`);
    } else if (item.kind === 'column') {
      checkColumn(ctx, table, item.name);
      const out =
        item.alias ??
        (item.jsonPath.length ? item.jsonPath[item.jsonPath.length - 1].key : item.name);
      const ref = columnRef(ctx, alias, item.name, item.jsonPath);
      list.push(`${item.cast ? castSql(ref, item.cast) : ref} as ${ident(out)}`);
    } else if (item.spread) {
      const plan = planEmbed(
        ctx,
        tableName,
        item,
        path ? `${path}.${item.relation}` : item.relation,
      );
      if (item.select.length === 0) continue;
      const lateral = `pgrst_spread_${++ctx.aliasCount}`;
      joins.push(plan.lateralSql(alias, lateral));
      list.push(`${ident(lateral)}.*`);
    } else {
      const out = item.alias ?? item.relation;
      const plan = planEmbed(ctx, tableName, item, path ? `${path}.${out}` : out);
      level.embeds.set(out, plan);
      // An embed without columns only filters; it is left out of the rows, as in PostgREST.
      if (item.select.length > 0) list.push(`${plan.valueSql(alias)} as ${ident(out)}`);
    }
  }

  const where = options.predicates.map((p) => renderPredicate(ctx, p, alias, level));
  for (const plan of level.embeds.values()) {
    if (plan.inner) where.push(`exists (${plan.existsSql(alias)})`);
  }
  return {
    list: list.join(', ') || 'null',
    joins: joins.map((j) => ` ${j}`).join(''),
    where,
    order: options.order && withOrder ? renderOrder(ctx, options.order, alias, level) : '',
    limit: options.limit,
    offset: options.offset,
  };
}

/**
 * PostgREST joins each embed of a level under the alias `<parent>_<name>_<depth>`, so Postgres
 * refuses the same name twice (42712) rather than answering a row with a duplicated key.
 */
function checkEmbedName(seen: Set<string>, parent: string, item: EmbedItem, path: string) {
  const depth = path === '' ? 1 : path.split('.').length + 1;
  const joinAlias = `${parent}_${item.alias ?? item.relation}_${depth}`;
  if (seen.has(joinAlias)) {
    throw new RestError(400, '42712', `table name "${joinAlias}" specified more than once`);
  }
  seen.add(joinAlias);
}

/** 400 PGRST200 for an embed the local stack does not serve, saying why in `details`. */
function noRelationship(parent: string, relation: string, details: string): RestError {
  return new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${parent}' and '${relation}' in the schema cache`,
    details,
  );
}

/**
 * A function PostgREST would embed as a computed relationship: one parameter of the parent's row
 * type, rows as its result. Its parameter type, if there is one.
 */
function computedRelationship(
  snapshot: SchemaSnapshot,
  parent: string,
  name: string,
): string | undefined {
  for (const fn of snapshot.functions.get(name) ?? []) {
    const ins = fn.params.filter((p) => p.mode === 'i' || p.mode === 'b' || p.mode === 'v');
    const rowType = [parent, `${EXPOSED_SCHEMA}.${parent}`, ident(parent)];
    if (fn.resultColumns && ins.length === 1 && rowType.includes(ins[0].type)) return ins[0].type;
  }
  return undefined;
}

function planEmbed(ctx: BuildContext, parent: string, item: EmbedItem, path: string): EmbedPlan {
  if (!ctx.snapshot.tables.has(parent) && ctx.snapshot.functions.has(parent)) {
    throw noRelationship(
      parent,
      item.relation,
      `Embedding in the rows of a function (/rpc/${parent}) is not supported by the local stack; read the table instead.`,
    );
  }
  if (!ctx.snapshot.tables.has(parent)) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent}' and '${item.relation}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent}' and '${item.relation}' in the schema '${EXPOSED_SCHEMA}', but no matches were found.`,
    );
  }
  const rel = resolveRelationship(ctx, parent, item);
  if (item.spread && !rel.toOne) {
    throw new RestError(
      400,
      'PGRST127',
      'Feature not implemented',
      `Spreading the ${rel.cardinality} relationship '${item.relation}' is not supported by the local stack.`,
    );
  }
  const target = ctx.snapshot.tables.get(rel.target);
  const from = qualified(EXPOSED_SCHEMA, rel.target);
  const alias = `${rel.target}_${++ctx.aliasCount}`;
  // Rendered when the embed's rows are used: the parameters of an embed that only filters
  // (`embed()`) must not reach the statement, whose every parameter has to appear in its text.
  ctx.usedLevels.add(path);
  let renderedLevel: RenderedLevel | undefined;
  const rendered = () =>
    (renderedLevel ??= renderLevel(ctx, rel.target, target, alias, item.select, path));

  const whereOf = (conds: string[], join: string) => [join, ...conds].join(' and ');
  const paging = (l: RenderedLevel) =>
    `${l.order ? ` order by ${l.order}` : ''}${l.limit !== undefined ? ` limit ${l.limit}` : ''}${
      l.offset !== undefined ? ` offset ${l.offset}` : ''
    }`;
  return {
    inner: item.inner,
    columnSql: (parentAlias, column, jsonPath) => {
      if (!rel.toOne) {
        throw new RestError(
          400,
          'PGRST118',
          `A related order on '${item.relation}' is not possible`,
          `'${parent}' and '${item.relation}' do not form a many-to-one or one-to-one relationship`,
        );
      }
      checkColumn(ctx, target, column);
      const orderAlias = `${rel.target}_${++ctx.aliasCount}`;
      return `(select ${columnRef(ctx, orderAlias, column, jsonPath)} from ${from} as ${ident(
        orderAlias,
      )} where ${rel.join(orderAlias, parentAlias)})`;
    },
    lateralSql: (parentAlias, lateralAlias) =>
      `left join lateral (select ${rendered().list} from ${from} as ${ident(alias)}${rendered().joins} where ${whereOf(
        rendered().where,
        rel.join(alias, parentAlias),
      )}) as ${ident(lateralAlias)} on true`,
    valueSql: (parentAlias) => {
      const level = rendered();
      const inner = `select ${level.list} from ${from} as ${ident(alias)}${level.joins} where ${whereOf(
        level.where,
        rel.join(alias, parentAlias),
      )}${paging(level)}`;
      return rel.toOne
        ? `(select pg_catalog.to_json(pgrst_e) from (${inner}) as pgrst_e)`
        : `(select coalesce(pg_catalog.json_agg(pgrst_e), '[]') from (${inner}) as pgrst_e)`;
    },
    // The embed's filters render again for each exists() test, under their own alias, and only
    // when used: every parameter placed in the statement must appear in its text.
    existsSql: (parentAlias) => {
      const existsAlias = `${rel.target}_${++ctx.aliasCount}`;
      const existsLevel = renderLevel(ctx, rel.target, target, existsAlias, [], path, false);
      return `select 1 from ${from} as ${ident(existsAlias)} where ${whereOf(
        existsLevel.where,
        rel.join(existsAlias, parentAlias),
      )}`;
    },
  };
}

/** Fails with PGRST108 when a dotted parameter names a resource that is not embedded. */
export function checkUnusedLevels(ctx: BuildContext) {
  for (const path of ctx.levels.keys()) {
    if (!ctx.usedLevels.has(path)) {
      const name = path.split('.').pop() as string;
      throw new RestError(
        400,
        'PGRST108',
        `'${name}' is not an embedded resource in this request`,
        null,
        `Verify that '${name}' is included in the 'select' query parameter.`,
      );
    }
  }
}

export type BodyShape = 'array' | 'object' | 'csv' | 'none';

/**
 * The statement that answers a read: `total` (when counted), `page_total` and `body` (JSON text).
 * `source` is a FROM item ending in `alias` (a table, a CTE of written rows, or a function call).
 */
export function buildReadStatement(opts: {
  ctx: BuildContext;
  from: string;
  alias: string;
  tableName: string;
  table?: TableInfo;
  select: SelectItem[];
  count: boolean;
  limit?: number;
  offset?: number;
  shape: BodyShape;
  stripNulls: boolean;
  extraWhere?: string[];
}): string {
  const { ctx } = opts;
  const level = renderLevel(ctx, opts.tableName, opts.table, opts.alias, opts.select, '');
  checkUnusedLevels(ctx);
  const where = [...(opts.extraWhere ?? []), ...level.where];
  const whereSql = where.length ? ` where ${where.join(' and ')}` : '';
  const limit = opts.limit ?? level.limit;
  const offset = opts.offset ?? level.offset;
  const source =
    `select ${level.list} from ${opts.from}${level.joins}${whereSql}` +
    (level.order ? ` order by ${level.order}` : '') +
    (limit !== undefined ? ` limit ${limit}` : '') +
    (offset ? ` offset ${offset}` : '');
  const total = opts.count
    ? `(select pg_catalog.count(*) from ${opts.from}${whereSql})`
    : 'null::bigint';
  return `with pgrst_source as (${source}) select ${total} as total, pg_catalog.count(_postgrest_t) as page_total, ${bodyExpression(
    opts.shape,
    opts.stripNulls,
  )} as body from (select * from pgrst_source) as _postgrest_t`;
}

/**
 * CSV as PostgREST renders it: a header of the first row's keys, then each row in Postgres' own
 * record text form without its parentheses (values quoted as record output quotes them).
 */
const CSV_BODY = `coalesce((select pg_catalog.string_agg(pgrst_k, pg_catalog.chr(44)) from pg_catalog.json_object_keys(pg_catalog.json_agg(_postgrest_t) -> 0) as pgrst_k), '') || pg_catalog.chr(10) || coalesce(pg_catalog.string_agg(pg_catalog.substring(_postgrest_t::text, 2, pg_catalog.length(_postgrest_t::text) - 2), pg_catalog.chr(10)), '')`;

/** The aggregate rendering the rows `_postgrest_t` as PostgREST's response body, as text. */
export function bodyExpression(shape: BodyShape, stripNulls: boolean): string {
  if (shape === 'none') return 'null::text';
  if (shape === 'csv') return CSV_BODY;
  const agg = stripNulls
    ? `pg_catalog.json_agg(pg_catalog.json_strip_nulls(pg_catalog.to_json(_postgrest_t)))`
    : `pg_catalog.json_agg(_postgrest_t)`;
  return shape === 'object'
    ? `coalesce((${agg}) -> 0, 'null')::text`
    : `coalesce(${agg}, '[]')::text`;
}
