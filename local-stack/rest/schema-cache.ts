// PostgREST's schema cache for the exposed schema `public`: tables and views with their columns,
// primary keys and foreign-key relationships, functions with their parameters, and the per-role
// settings applied to each request, read with the stack's catalog reader (postgres/catalog.ts).
// Reloaded on `NOTIFY pgrst, 'reload schema'` and on a miss.
import pg from 'pg';
import {
  readConstraints,
  readFunctions,
  readRelations,
  readRoleSettings,
  type CatalogParam,
} from '../postgres/catalog.ts';

export const EXPOSED_SCHEMA = 'public';

interface ColumnInfo {
  name: string;
  type: string;
}

export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  foreignTable: string;
  foreignColumns: string[];
}

export interface TableInfo {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, ColumnInfo>;
  primaryKey: string[];
  /** Column sets with a unique guarantee (primary key and unique constraints). */
  uniqueKeys: string[][];
}

export type FunctionParam = CatalogParam;

export interface FunctionInfo {
  name: string;
  params: FunctionParam[];
  /** How many trailing input parameters have defaults. */
  defaultCount: number;
  returnsSet: boolean;
  returnType: string;
  /** Result columns when the function returns rows (a table type, OUT or TABLE parameters). */
  resultColumns: string[] | null;
}

export interface SchemaSnapshot {
  tables: Map<string, TableInfo>;
  foreignKeys: ForeignKey[];
  functions: Map<string, FunctionInfo[]>;
  /** Role → settings such as `statement_timeout` from `alter role … set`. */
  roleSettings: Map<string, [string, string][]>;
}

/** PostgREST's kinds of relation: tables (plain, partitioned, foreign), views, materialized views. */
const RELATION_KINDS = ['r', 'v', 'm', 'f', 'p'];

async function introspect(pool: pg.Pool): Promise<SchemaSnapshot> {
  const [relations, constraints, functions, roles] = await Promise.all([
    readRelations(pool, EXPOSED_SCHEMA, RELATION_KINDS),
    readConstraints(pool, EXPOSED_SCHEMA),
    readFunctions(pool, EXPOSED_SCHEMA),
    readRoleSettings(pool),
  ]);

  const snapshot: SchemaSnapshot = {
    tables: new Map(),
    foreignKeys: [],
    functions: new Map(),
    roleSettings: new Map(),
  };
  for (const t of relations) {
    snapshot.tables.set(t.name, {
      name: t.name,
      kind: t.kind === 'v' || t.kind === 'm' ? 'view' : 'table',
      columns: new Map(t.columns.map((c) => [c.name, { name: c.name, type: c.typeSql }])),
      primaryKey: [],
      uniqueKeys: [],
    });
  }
  for (const c of constraints) {
    const table = snapshot.tables.get(c.table);
    if (!table) continue;
    if (c.type === 'p') table.primaryKey = c.columns;
    if (c.type === 'p' || c.type === 'u') table.uniqueKeys.push(c.columns);
    if (c.type === 'f' && c.foreign_table && c.foreign_exposed) {
      snapshot.foreignKeys.push({
        name: c.name,
        table: c.table,
        columns: c.columns,
        foreignTable: c.foreign_table,
        foreignColumns: c.foreign_columns,
      });
    }
  }
  for (const f of functions) {
    const outColumns = f.params.filter((p) => p.mode === 'o' || p.mode === 'b' || p.mode === 't');
    const info: FunctionInfo = {
      name: f.name,
      params: f.params,
      defaultCount: f.default_count,
      returnsSet: f.returns_set,
      returnType: f.return_type,
      resultColumns: outColumns.length
        ? outColumns.map((p) => p.name)
        : f.return_relid
          ? (f.relation_columns ?? [])
          : null,
    };
    const list = snapshot.functions.get(f.name) ?? [];
    list.push(info);
    snapshot.functions.set(f.name, list);
  }
  for (const r of roles) {
    const pairs = snapshot.roleSettings.get(r.role) ?? [];
    for (const entry of r.config ?? []) {
      const eq = entry.indexOf('=');
      if (eq > 0) pairs.push([entry.slice(0, eq), entry.slice(eq + 1)]);
    }
    snapshot.roleSettings.set(r.role, pairs);
  }
  return snapshot;
}

export class SchemaCache {
  private current: Promise<SchemaSnapshot> | null = null;
  private loadStartedAt = 0;
  private listener: pg.Client | null = null;
  private closed = false;

  constructor(
    private pool: pg.Pool,
    private dbUrl: string,
    private log: (message: string) => void,
  ) {}

  get(): Promise<SchemaSnapshot> {
    if (!this.current) this.reload();
    return this.current as Promise<SchemaSnapshot>;
  }

  reload(): Promise<SchemaSnapshot> {
    this.loadStartedAt = performance.now();
    const next = introspect(this.pool);
    // A failed load must not poison the cache: the next request tries again.
    next.catch(() => {
      if (this.current === next) this.current = null;
    });
    this.current = next;
    return next;
  }

  /**
   * Reloads after a table, column, function or relationship was not found: a migration may have
   * just created it and the NOTIFY may not have arrived yet. Requests that miss while a reload
   * started after they arrived share that reload.
   */
  reloadOnMiss(requestStartedAt: number): Promise<SchemaSnapshot> {
    if (this.current && this.loadStartedAt >= requestStartedAt) return this.current;
    return this.reload();
  }

  /**
   * Listens on the `pgrst` channel as PostgREST does (`NOTIFY pgrst, 'reload schema'`). A lost
   * connection (e.g. Postgres restarted) is opened again every second until it succeeds, and the
   * schema reloaded, since a NOTIFY sent meanwhile was missed.
   */
  async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.dbUrl });
    let lost = false;
    const reconnect = () => {
      if (lost || this.closed) return;
      lost = true;
      if (this.listener === client) this.listener = null;
      void client.end().catch(() => undefined);
      this.relistenLater();
    };
    client.on('error', (err) => {
      this.log(`schema listener: ${err.message}`);
      reconnect();
    });
    client.on('end', reconnect);
    client.on('notification', (msg) => {
      if (msg.channel !== 'pgrst') return;
      const payload = (msg.payload ?? '').trim();
      // PostgREST reloads its configuration on `reload config`; here that is the role settings.
      if (payload === '' || payload === 'reload schema' || payload === 'reload config') {
        this.reload().catch((err: Error) => this.log(`schema reload failed: ${err.message}`));
      }
    });
    try {
      await client.connect();
      await client.query('listen pgrst');
    } catch (err) {
      reconnect();
      throw err;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.listener = client;
  }

  private relistenTimer: NodeJS.Timeout | null = null;
  private relistenLater() {
    if (this.closed || this.relistenTimer) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = null;
      this.listen().then(
        () => {
          if (!this.closed) this.reload().catch(() => undefined);
        },
        () => undefined, // the failed attempt scheduled the next one
      );
    }, 1000);
    this.relistenTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => undefined);
  }
}
