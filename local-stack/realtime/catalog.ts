// What Realtime needs to know about published tables: columns with their types, primary key,
// whether RLS is on, the publication's members and which columns a role may SELECT, read with
// the stack's catalog reader (postgres/catalog.ts) and kept for a short while.
import pg from 'pg';
import {
  readPublishedTables,
  readRelations,
  readSelectableColumns,
  type CatalogColumn,
} from '../postgres/catalog.ts';

export const PUBLICATION = 'supabase_realtime';

export type ColumnInfo = CatalogColumn;

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

/** Kinds of relation a publication can hold: tables and partitioned tables. */
const TABLE_KINDS = ['r', 'p'];

/** Relation messages announce most table changes; the TTL covers the rest (e.g. new policies). */
const TABLE_TTL_MS = 5000;

/** Column privileges change with GRANTs, which logical replication does not announce. */
const PRIVILEGE_TTL_MS = 1000;

export class Catalog {
  private tables = new Map<string, { at: number; info: Promise<TableInfo | null> }>();
  private privileges = new Map<string, { at: number; columns: Promise<Set<string>> }>();

  constructor(private pool: pg.Pool) {}

  /** Tables currently in the `supabase_realtime` publication (including `FOR ALL TABLES`). */
  publishedTables(): Promise<{ schema: string; name: string }[]> {
    return readPublishedTables(this.pool, PUBLICATION);
  }

  table(schema: string, name: string): Promise<TableInfo | null> {
    const key = `${schema}.${name}`;
    const cached = this.tables.get(key);
    if (cached && Date.now() - cached.at < TABLE_TTL_MS) return cached.info;
    const entry = readRelations(this.pool, schema, TABLE_KINDS, name).then(([r]) => {
      if (!r) return null;
      return {
        oid: r.oid,
        schema: r.schema,
        name: r.name,
        qualified: `${pg.escapeIdentifier(r.schema)}.${pg.escapeIdentifier(r.name)}`,
        rlsEnabled: r.rlsEnabled,
        columns: r.columns,
        primaryKey: r.primaryKey,
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
    const columns = readSelectableColumns(this.pool, table.oid, role)
      .then((names) => new Set(names))
      .catch(() => new Set<string>());
    this.privileges.set(key, { at: Date.now(), columns });
    return columns;
  }
}
