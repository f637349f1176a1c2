// Turns the `postgres_changes` params of a join into active bindings, checking them the way
// Supabase's `realtime.subscription` insert does: the table must be in the publication, the
// filter must parse, name existing columns the role may SELECT, and carry castable values.
import type { Claims } from '../jwt.ts';
import type { Catalog, TableInfo } from './catalog.ts';
import { bindingId } from './binding-id.ts';
import { FilterParseError, parseFilter, type FilterCondition } from './filters.ts';
import type { ChangeType } from './replication.ts';
import type pg from 'pg';

type BindingEvent = '*' | ChangeType;

export interface Binding {
  id: number;
  event: BindingEvent;
  filters: FilterCondition[];
  /** `schema.table` of every published table this binding covers, fixed when subscribing. */
  tables: Set<string>;
}

export type ResolveResult = { ok: true; bindings: Binding[] } | { ok: false; message: string };

const EVENTS: readonly string[] = ['*', 'INSERT', 'UPDATE', 'DELETE'];

function describe(params: Record<string, unknown>, filters: FilterCondition[]): string {
  const list = filters
    .map(
      (f) => `{${JSON.stringify(f.column)}, ${JSON.stringify(f.op)}, ${JSON.stringify(f.value)}}`,
    )
    .join(', ');
  return `[event: ${String(params.event)}, schema: ${String(params.schema ?? 'public')}, table: ${String(
    params.table ?? '*',
  )}, filters: [${list}]]`;
}

const unableToSubscribe = (params: Record<string, unknown>, filters: FilterCondition[]) =>
  'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the ' +
  `given connect parameters: ${describe(params, filters)}`;

async function checkFilterColumns(
  pool: pg.Pool,
  catalog: Catalog,
  table: TableInfo,
  filters: FilterCondition[],
  role: string,
): Promise<string | null> {
  const selectable = await catalog.selectableColumns(table, role);
  for (const f of filters) {
    const col = table.columns.find((c) => c.name === f.column);
    if (!col) return `invalid column for filter ${f.column}`;
    if (!selectable.has(col.name)) return `invalid column for filter ${f.column}`;
    try {
      if (Array.isArray(f.value))
        await pool.query(`select $1::text[]::${col.typeSql}[]`, [f.value]);
      else await pool.query(`select $1::${col.typeSql}`, [f.value]);
    } catch {
      return `invalid value for filter ${f.column}: ${JSON.stringify(f.value)}`;
    }
  }
  return null;
}

/** All-or-nothing, like the single insert of every subscription of a channel. */
export async function resolveBindings(
  pool: pg.Pool,
  catalog: Catalog,
  paramsList: Record<string, unknown>[],
  claims: Claims,
): Promise<ResolveResult> {
  const role = String(claims.role);
  const published = await catalog.publishedTables();
  const bindings: Binding[] = [];
  for (const params of paramsList) {
    const event = typeof params.event === 'string' ? params.event.toUpperCase() : '';
    const schema = typeof params.schema === 'string' ? params.schema : 'public';
    const table = typeof params.table === 'string' ? params.table : '*';
    let filters: FilterCondition[];
    try {
      filters = parseFilter(typeof params.filter === 'string' ? params.filter : undefined);
    } catch (err) {
      if (err instanceof FilterParseError)
        return { ok: false, message: `Error parsing \`filter\` params: ${err.message}` };
      throw err;
    }
    if (!EVENTS.includes(event)) return { ok: false, message: unableToSubscribe(params, filters) };
    const matches = published.filter(
      (t) => (schema === '*' || t.schema === schema) && (table === '*' || t.name === table),
    );
    if (matches.length === 0) return { ok: false, message: unableToSubscribe(params, filters) };
    const tables = new Set<string>();
    for (const m of matches) {
      const info = await catalog.table(m.schema, m.name);
      if (!info) continue;
      if (filters.length) {
        const problem = await checkFilterColumns(pool, catalog, info, filters, role);
        if (problem) return { ok: false, message: `Error parsing \`filter\` params: ${problem}` };
      }
      tables.add(`${m.schema}.${m.name}`);
    }
    if (tables.size === 0) return { ok: false, message: unableToSubscribe(params, filters) };
    bindings.push({ id: bindingId(params), event: event as BindingEvent, filters, tables });
  }
  return { ok: true, bindings };
}
