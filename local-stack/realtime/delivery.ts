// Decides who receives each change and what they see, as Supabase's `realtime.apply_rls` does:
// event and filter match (with Postgres' casts and comparisons), the subscriber's role may SELECT
// the columns, and for INSERT/UPDATE on RLS tables the row is visible to that subscriber's claims.
// Changes are processed one at a time in commit order. Subscribers whose filters hold many values
// are served in a slow lane of their own, one delivery at a time, so however much they cost they
// never delay anybody else's events nor take more than one database connection.
import type pg from 'pg';
import type { Claims } from '../jwt.ts';
import type { Catalog, ColumnInfo, TableInfo } from './catalog.ts';
import {
  matchWithoutDatabase,
  OPERATOR_SQL,
  type FilterCondition,
  type FilterOperator,
} from './filters.ts';
import type { Change } from './replication.ts';
import type { Binding } from './subscriptions.ts';
import { renderTuples, type JsonRecord, type RawTuple } from './values.ts';

export interface Subscriber {
  topic: string;
  claims: Claims;
  bindings: readonly Binding[];
  send(payload: unknown): void;
  /** False once the channel has left or been replaced (a lane may still hold its changes). */
  readonly active: boolean;
  /** Ends the subscription with a `system` error (a subscriber too slow to keep up). */
  shutdown(message: string): void;
}

/** Subscribers whose filters hold more values than this are served in the slow lane. */
const HEAVY_FILTER_VALUES = 100;
/** Changes a heavy subscriber may fall behind by before its channel is shut down. */
const MAX_LANE_BACKLOG = 1000;
const LANE_OVERFLOW = 'Too many messages per second';

/** The number of filter values a subscriber's bindings carry, computed once per binding set. */
const filterWeights = new WeakMap<readonly Binding[], number>();
function filterWeight(bindings: readonly Binding[]): number {
  let weight = filterWeights.get(bindings);
  if (weight === undefined) {
    weight = 0;
    for (const b of bindings)
      for (const f of b.filters) weight += Array.isArray(f.value) ? f.value.length : 1;
    filterWeights.set(bindings, weight);
  }
  return weight;
}

const wants = (subscriber: Subscriber, key: string, change: Change) =>
  subscriber.bindings.some(
    (b) => b.tables.has(key) && (b.event === '*' || b.event === change.type),
  );

interface Candidate {
  subscriber: Subscriber;
  bindings: Binding[];
}

/** Condition keys, computed once per parsed condition (a subscriber may carry thousands). */
const conditionKeys = new WeakMap<FilterCondition, string>();
function conditionKey(f: FilterCondition): string {
  let key = conditionKeys.get(f);
  if (key === undefined) conditionKeys.set(f, (key = JSON.stringify([f.column, f.op, f.value])));
  return key;
}

/** Conditions on one column with one operator, answered by one statement. */
interface FilterGroup {
  col: ColumnInfo;
  op: FilterOperator;
  /** The row's replicated text for the column. */
  rowValue: string;
  items: { key: string; values: string[] }[];
}

export class Delivery {
  private queue: Promise<void> = Promise.resolve();
  /** The slow lane: heavy subscribers' deliveries, one at a time, each subscriber in order. */
  private slowLane: Promise<void> = Promise.resolve();
  private backlog = new WeakMap<Subscriber, number>();

  constructor(
    private pool: pg.Pool,
    private catalog: Catalog,
    private subscribers: () => Iterable<Subscriber>,
    private log: (message: string) => void,
  ) {}

  /**
   * Keeps commit order: each transaction waits for the previous one, and the slow lane receives
   * the changes each heavy subscriber wants in the same order.
   */
  enqueue(changes: Change[]): Promise<void> {
    this.queue = this.queue.then(async () => {
      for (const change of changes) {
        const key = `${change.schema}.${change.table}`;
        const light: Subscriber[] = [];
        for (const subscriber of this.subscribers()) {
          if (filterWeight(subscriber.bindings) <= HEAVY_FILTER_VALUES) light.push(subscriber);
          else if (wants(subscriber, key, change)) this.enqueueSlow(subscriber, change);
        }
        await this.deliverSafely(change, light);
      }
    });
    return this.queue;
  }

  /** Resolves once every change handed over so far has been delivered (or failed). */
  async drain(): Promise<void> {
    await this.queue;
    await this.slowLane;
  }

  private enqueueSlow(subscriber: Subscriber, change: Change) {
    const pending = this.backlog.get(subscriber) ?? 0;
    if (pending >= MAX_LANE_BACKLOG) {
      // Supabase disconnects a channel that cannot keep up with its event rate.
      if (pending === MAX_LANE_BACKLOG) {
        this.backlog.set(subscriber, pending + 1);
        this.log(`${subscriber.topic} fell ${MAX_LANE_BACKLOG} changes behind; shutting it down`);
        subscriber.shutdown(LANE_OVERFLOW);
      }
      return;
    }
    this.backlog.set(subscriber, pending + 1);
    this.slowLane = this.slowLane.then(async () => {
      if (subscriber.active) await this.deliverSafely(change, [subscriber]);
      this.backlog.set(subscriber, (this.backlog.get(subscriber) ?? 1) - 1);
    });
  }

  private async deliverSafely(change: Change, subscribers: Iterable<Subscriber>) {
    try {
      await this.deliver(change, subscribers);
    } catch (err) {
      this.log(
        `delivery of ${change.type} on ${change.schema}.${change.table} failed: ${(err as Error).message}`,
      );
    }
  }

  private async deliver(change: Change, subscribers: Iterable<Subscriber>) {
    const key = `${change.schema}.${change.table}`;
    const candidates: Candidate[] = [];
    for (const subscriber of subscribers) {
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

  /**
   * Evaluates every distinct filter condition once. Exact comparisons on canonical-text types are
   * made here (see matchWithoutDatabase); the rest go to Postgres with its casts, one statement
   * per column and operator however many values they hold, so a subscriber with thousands of
   * filters costs every other subscriber little more than one with a few.
   */
  private async evaluateFilters(table: TableInfo, row: RawTuple, candidates: Candidate[]) {
    const results = new Map<string, boolean>();
    const groups = new Map<string, FilterGroup>();
    for (const c of candidates) {
      for (const b of c.bindings) {
        for (const f of b.filters) {
          const key = conditionKey(f);
          if (results.has(key)) continue;
          const col = table.columns.find((column) => column.name === f.column);
          const value = row[f.column];
          // A filter on a column the row does not carry (a DELETE's key-only tuple) fails closed.
          if (!col || value === undefined || value === null) {
            results.set(key, false);
            continue;
          }
          const known = matchWithoutDatabase(col.typname, f, value);
          // Until Postgres answers, a condition counts as not matching.
          results.set(key, known ?? false);
          if (known !== undefined) continue;
          const groupKey = JSON.stringify([f.column, f.op]);
          let group = groups.get(groupKey);
          if (!group) groups.set(groupKey, (group = { col, op: f.op, rowValue: value, items: [] }));
          group.items.push({ key, values: Array.isArray(f.value) ? f.value : [f.value] });
        }
      }
    }
    for (const group of groups.values()) {
      try {
        for (const key of await this.matchGroup(group)) results.set(key, true);
      } catch {
        // One value Postgres refuses must not hide the others: ask one condition at a time.
        for (const item of group.items) {
          const one = { ...group, items: [item] };
          const matched = await this.matchGroup(one).catch(() => []);
          if (matched.length) results.set(item.key, true);
        }
      }
    }
    return results;
  }

  /** The keys of the group's conditions the row's value satisfies (`in`: any of its values). */
  private async matchGroup(group: FilterGroup): Promise<string[]> {
    const values: string[] = [];
    const owners: number[] = [];
    group.items.forEach((item, i) => {
      for (const v of item.values) {
        values.push(v);
        owners.push(i);
      }
    });
    if (values.length === 0) return [];
    const type = group.col.typeSql;
    const op = group.op === 'in' ? '=' : OPERATOR_SQL[group.op];
    const { rows } = await this.pool.query<{ i: number }>(
      `select distinct t.i from unnest($2::text[], $3::int[]) as t(v, i)
       where $1::${type} ${op} t.v::${type}`,
      [group.rowValue, values, owners],
    );
    return rows.map((r) => group.items[r.i].key);
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
            : `${client.escapeIdentifier(k)} = ${client.escapeLiteral(value)}::${col.typeSql}`;
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
