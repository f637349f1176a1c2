// Decides who receives each change and what they see, as Supabase's `realtime.apply_rls` does:
// event and filter match (compared with Postgres casts), the subscriber's role may SELECT the
// columns, and for INSERT/UPDATE on RLS tables the row is visible to that subscriber's claims.
// Changes are processed one at a time in commit order.
import type pg from 'pg';
import type { Claims } from '../jwt.ts';
import type { Catalog, TableInfo } from './catalog.ts';
import { quoteIdent } from './catalog.ts';
import { OPERATOR_SQL, type FilterCondition } from './filters.ts';
import type { Change } from './replication.ts';
import type { Binding } from './subscriptions.ts';
import { renderTuples, type JsonRecord, type RawTuple } from './values.ts';

export interface Subscriber {
  topic: string;
  claims: Claims;
  bindings: readonly Binding[];
  send(payload: unknown): void;
}

interface Candidate {
  subscriber: Subscriber;
  bindings: Binding[];
}

const conditionKey = (f: FilterCondition) => JSON.stringify([f.column, f.op, f.value]);

export class Delivery {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private pool: pg.Pool,
    private catalog: Catalog,
    private subscribers: () => Iterable<Subscriber>,
    private log: (message: string) => void,
  ) {}

  /** Keeps commit order: each transaction waits for the previous one. */
  enqueue(changes: Change[]): Promise<void> {
    this.queue = this.queue.then(async () => {
      for (const change of changes) {
        try {
          await this.deliver(change);
        } catch (err) {
          this.log(
            `delivery of ${change.type} on ${change.schema}.${change.table} failed: ${(err as Error).message}`,
          );
        }
      }
    });
    return this.queue;
  }

  private async deliver(change: Change) {
    const key = `${change.schema}.${change.table}`;
    const candidates: Candidate[] = [];
    for (const subscriber of this.subscribers()) {
      const bindings = subscriber.bindings.filter(
        (b) => b.tables.has(key) && (b.event === '*' || b.event === change.type),
      );
      if (bindings.length) candidates.push({ subscriber, bindings });
    }
    if (candidates.length === 0) return;
    const table = await this.catalog.table(change.schema, change.table);
    if (!table) return;

    // The row the filters look at: the new row, or for DELETE the old key/identity.
    const row = change.type === 'DELETE' ? change.oldRecord : change.record;
    const passes = await this.evaluateFilters(table, row ?? {}, candidates);

    const groups = new Map<string, { claims: Claims; members: Candidate[] }>();
    for (const c of candidates) {
      c.bindings = c.bindings.filter((b) =>
        b.filters.every((f) => passes.get(conditionKey(f)) === true),
      );
      if (!c.bindings.length) continue;
      const claimsKey = JSON.stringify(c.subscriber.claims);
      const group = groups.get(claimsKey) ?? { claims: c.subscriber.claims, members: [] };
      group.members.push(c);
      groups.set(claimsKey, group);
    }
    if (groups.size === 0) return;

    const selectable = new Map<string, Set<string>>();
    for (const [claimsKey, group] of groups) {
      const columns = await this.catalog.selectableColumns(table, String(group.claims.role));
      const pkVisible = table.primaryKey.every((k) => columns.has(k));
      if (columns.size === 0 || !pkVisible) groups.delete(claimsKey);
      else selectable.set(claimsKey, columns);
    }

    if (table.rlsEnabled && change.type !== 'DELETE') {
      if (table.primaryKey.length === 0 || !change.record) return;
      const visible = await this.checkVisibility(
        table,
        change.record,
        [...groups.values()].map((g) => g.claims),
      );
      for (const claimsKey of [...groups.keys()])
        if (!visible.has(claimsKey)) groups.delete(claimsKey);
    }
    if (groups.size === 0) return;

    const { record, oldRecord } = await this.render(table, change);
    for (const [claimsKey, group] of groups) {
      const columns = selectable.get(claimsKey)!;
      const pick = (rec: JsonRecord) =>
        Object.fromEntries(Object.entries(rec).filter(([name]) => columns.has(name)));
      const data: Record<string, unknown> = {
        schema: change.schema,
        table: change.table,
        commit_timestamp: change.commitTimestamp,
        type: change.type,
        columns: table.columns
          .filter((c) => columns.has(c.name))
          .map((c) => ({ name: c.name, type: c.typname })),
      };
      if (record) data.record = pick(record);
      if (oldRecord) data.old_record = pick(oldRecord);
      data.errors = null;
      for (const member of group.members) {
        const ids = [...new Set(member.bindings.map((b) => b.id))];
        try {
          member.subscriber.send({ ids, data });
        } catch (err) {
          this.log(`send to ${member.subscriber.topic} failed: ${(err as Error).message}`);
        }
      }
    }
  }

  /** Renders the record and old record; the old record is the key only on RLS tables' DELETEs. */
  private async render(
    table: TableInfo,
    change: Change,
  ): Promise<{ record: JsonRecord | null; oldRecord: JsonRecord | null }> {
    let old: RawTuple | null = change.oldRecord;
    if (change.type === 'UPDATE' && !old && change.record) {
      // Without an old tuple (key unchanged, default identity) Supabase reports the key columns.
      old = Object.fromEntries(
        table.primaryKey.filter((k) => k in change.record!).map((k) => [k, change.record![k]]),
      );
    }
    if (change.type === 'DELETE' && old && table.rlsEnabled) {
      old = Object.fromEntries(table.primaryKey.filter((k) => k in old!).map((k) => [k, old![k]]));
    }
    const tuples = [change.record, old].filter((t): t is RawTuple => t !== null);
    const rendered = await renderTuples(this.pool, table, tuples);
    return {
      record: change.record ? rendered[0] : null,
      oldRecord: old ? rendered[change.record ? 1 : 0] : null,
    };
  }

  /** Evaluates every distinct filter condition once, in one query, with Postgres casts. */
  private async evaluateFilters(table: TableInfo, row: RawTuple, candidates: Candidate[]) {
    const results = new Map<string, boolean>();
    const conditions = new Map<string, FilterCondition>();
    for (const c of candidates)
      for (const b of c.bindings) for (const f of b.filters) conditions.set(conditionKey(f), f);
    const exprs: { key: string; sql: string; params: unknown[] }[] = [];
    for (const [key, f] of conditions) {
      const col = table.columns.find((c) => c.name === f.column);
      const value = row[f.column];
      // A filter on a column the row does not carry (e.g. a DELETE's key-only tuple) fails closed.
      if (!col || value === undefined || value === null) {
        results.set(key, false);
        continue;
      }
      const sql = Array.isArray(f.value)
        ? `$A::${col.typeSql} = any($B::text[]::${col.typeSql}[])`
        : `$A::${col.typeSql} ${OPERATOR_SQL[f.op as Exclude<typeof f.op, 'in'>]} $B::${col.typeSql}`;
      exprs.push({ key, sql, params: [value, f.value] });
    }
    if (exprs.length === 0) return results;
    const run = async (list: typeof exprs) => {
      const params: unknown[] = [];
      const select = list.map((e, i) => {
        params.push(...e.params);
        const a = params.length - 1;
        return `coalesce(${e.sql.replace('$A', () => `$${a}`).replace('$B', () => `$${a + 1}`)}, false) as c${i}`;
      });
      const { rows } = await this.pool.query(`select ${select.join(', ')}`, params);
      list.forEach((e, i) => results.set(e.key, rows[0][`c${i}`] === true));
    };
    try {
      await run(exprs);
    } catch {
      // One bad value must not hide the others: retry one by one, failures count as no match.
      for (const e of exprs) await run([e]).catch(() => results.set(e.key, false));
    }
    return results;
  }

  /**
   * One read-only transaction per change; per distinct claims set one round trip that switches
   * to the subscriber's role and claims and asks whether the row (by primary key) is visible.
   * Returns the claims keys that may see the row.
   */
  private async checkVisibility(
    table: TableInfo,
    record: RawTuple,
    claimsList: Claims[],
  ): Promise<Set<string>> {
    const visible = new Set<string>();
    if (claimsList.length === 0) return visible;
    const client = await this.pool.connect();
    try {
      await client.query('begin read only');
      const where = table.primaryKey
        .map((k) => {
          const col = table.columns.find((c) => c.name === k)!;
          const value = record[k];
          return value === null || value === undefined
            ? 'false'
            : `${quoteIdent(k)} = ${client.escapeLiteral(value)}::${col.typeSql}`;
        })
        .join(' and ');
      for (const claims of claimsList) {
        const claimsKey = JSON.stringify(claims);
        const sql =
          'savepoint rt_check; ' +
          `select set_config('role', ${client.escapeLiteral(String(claims.role))}, true), ` +
          `set_config('request.jwt.claims', ${client.escapeLiteral(claimsKey)}, true); ` +
          `select exists(select 1 from ${table.qualified} where ${where}) as visible; ` +
          'release savepoint rt_check';
        try {
          const results = (await client.query(sql)) as unknown as pg.QueryResult[];
          if (results[2]?.rows[0]?.visible === true) visible.add(claimsKey);
        } catch (err) {
          // A failing policy or unknown role hides the row from this subscriber only.
          this.log(`visibility check as ${String(claims.role)} failed: ${(err as Error).message}`);
          await client.query('rollback to savepoint rt_check; release savepoint rt_check');
        }
      }
      await client.query('rollback');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return visible;
  }
}
