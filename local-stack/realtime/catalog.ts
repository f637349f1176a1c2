// What Realtime needs to know about published tables: columns with their types, primary key,
// whether RLS is on, the publication's members and which columns a role may SELECT.
import pg from 'pg';

export const PUBLICATION = 'supabase_realtime';

export interface ColumnInfo {
  name: string;
  attnum: number;
  /** `pg_type.typname`, what Supabase reports in `columns[].type` (e.g. `int8`, `_text`). */
  typname: string;
  /** `format_type()`, safe to use in a cast. */
  typeSql: string;
}

export interface TableInfo {
  oid: number;
  schema: string;
  name: string;
  /** `"schema"."table"`, already quoted. */
  qualified: string;
  rlsEnabled: boolean;
  columns: ColumnInfo[];
  primaryKey: string[];
}

const TABLE_SQL = `
select c.oid::int as oid, n.nspname as schema, c.relname as name, c.relrowsecurity as rls,
  coalesce((select json_agg(json_build_object('name', a.attname, 'attnum', a.attnum, 'typname', t.typname,
                                             'typeSql', format_type(a.atttypid, a.atttypmod)) order by a.attnum)
            from pg_attribute a join pg_type t on t.oid = a.atttypid
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns,
  coalesce((select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
            from pg_index i join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey::int2[])
            where i.indrelid = c.oid and i.indisprimary), '[]') as pk
from pg_class c join pg_namespace n on n.oid = c.relnamespace`;

/** Relation messages announce most table changes; the TTL covers the rest (e.g. new policies). */
const TABLE_TTL_MS = 5000;

/** Column privileges change with GRANTs, which logical replication does not announce. */
const PRIVILEGE_TTL_MS = 1000;

export class Catalog {
  private tables = new Map<string, { at: number; info: Promise<TableInfo | null> }>();
  private privileges = new Map<string, { at: number; columns: Promise<Set<string>> }>();

  constructor(private pool: pg.Pool) {}

  /** Tables currently in the `supabase_realtime` publication (including `FOR ALL TABLES`). */
  async publishedTables(): Promise<{ schema: string; name: string }[]> {
    const { rows } = await this.pool.query<{ schema: string; name: string }>(
      'select schemaname as schema, tablename as name from pg_publication_tables where pubname = $1',
      [PUBLICATION],
    );
    return rows;
  }

  table(schema: string, name: string): Promise<TableInfo | null> {
    const key = `${schema}.${name}`;
    const cached = this.tables.get(key);
    if (cached && Date.now() - cached.at < TABLE_TTL_MS) return cached.info;
    const entry = this.pool
      .query(`${TABLE_SQL} where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')`, [
        schema,
        name,
      ])
      .then(({ rows }) => {
        const r = rows[0];
        if (!r) return null;
        return {
          oid: r.oid,
          schema: r.schema,
          name: r.name,
          qualified: `${pg.escapeIdentifier(r.schema)}.${pg.escapeIdentifier(r.name)}`,
          rlsEnabled: r.rls,
          columns: r.columns,
          primaryKey: r.pk,
        } satisfies TableInfo;
      });
    // Failures and unknown tables are not cached, so a table created later is found.
    const forget = () => this.tables.get(key)?.info === entry && this.tables.delete(key);
    entry.then((t) => t === null && forget(), forget);
    this.tables.set(key, { at: Date.now(), info: entry });
    return entry;
  }

  /** Called when the replication stream announces a (possibly changed) relation. */
  invalidate(schema: string, name: string) {
    this.tables.delete(`${schema}.${name}`);
    for (const key of this.privileges.keys())
      if (key.startsWith(`${schema}.${name}|`)) this.privileges.delete(key);
  }

  /** Columns `role` may SELECT; an empty set when the role does not exist or has no grant. */
  selectableColumns(table: TableInfo, role: string): Promise<Set<string>> {
    const key = `${table.schema}.${table.name}|${role}`;
    const cached = this.privileges.get(key);
    if (cached && Date.now() - cached.at < PRIVILEGE_TTL_MS) return cached.columns;
    const columns = this.pool
      .query<{ name: string }>(
        `select a.attname as name from pg_attribute a
         where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
           and exists (select 1 from pg_roles where rolname = $2)
           and has_column_privilege($2, a.attrelid, a.attnum, 'SELECT')`,
        [table.oid, role],
      )
      .then(({ rows }) => new Set(rows.map((r) => r.name)))
      .catch(() => new Set<string>());
    this.privileges.set(key, { at: Date.now(), columns });
    return columns;
  }
}
