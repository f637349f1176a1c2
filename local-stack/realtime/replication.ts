// Change capture: a logical replication slot with pgoutput on the `supabase_realtime` publication.
// Emits each committed transaction's INSERT/UPDATE/DELETE changes, in commit order, with the raw
// text values Postgres sent (rendering happens later, per table).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';
import { PUBLICATION } from './catalog.ts';
import type { RawTuple } from './values.ts';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

export interface Change {
  type: ChangeType;
  schema: string;
  table: string;
  /** `YYYY-MM-DDTHH:MM:SS.mmmZ`, the transaction's commit time. */
  commitTimestamp: string;
  record: RawTuple | null;
  /** Key columns (or the full row with REPLICA IDENTITY FULL) before the change, when sent. */
  oldRecord: RawTuple | null;
}

/** Slots of this stand-in are named with this prefix so stale ones can be recognised and dropped. */
const SLOT_PREFIX = 'tinyback_realtime_';

/** How often handled progress is reported to the server (besides answering its keepalives). */
const STATUS_INTERVAL_MS = 1000;

/** Keeps pgoutput's text values as text: the `pg` type parsers would turn them into JS values. */
class RawPgoutputPlugin extends PgoutputPlugin {
  parse(buffer: Buffer): Pgoutput.Message {
    const msg = super.parse(buffer);
    if (msg.tag === 'relation') for (const col of msg.columns) col.parser = (raw: unknown) => raw;
    return msg;
  }
}

function toIso(commitTimeMicros: bigint): string {
  return new Date(Number(commitTimeMicros / 1000n)).toISOString();
}

export interface ChangeStreamOptions {
  pool: pg.Pool;
  dbUrl: string;
  onTransaction: (changes: Change[]) => void;
  /** The stream announces a relation before its first change and again after it is altered. */
  onRelation: (schema: string, table: string) => void;
  log: (message: string) => void;
}

export class ChangeStream {
  readonly slot = `${SLOT_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  private service: LogicalReplicationService | null = null;
  private closed = false;
  private pending: Change[] = [];
  private commitTime = '';
  private retryTimer: NodeJS.Timeout | null = null;
  /** End of the last transaction handed on, and what was last reported to the server. */
  private handledLsn: string | null = null;
  private reportedLsn: string | null = null;
  private statusTimer: NodeJS.Timeout | null = null;

  constructor(private opts: ChangeStreamOptions) {}

  async start(): Promise<void> {
    try {
      await this.dropStaleSlots();
      // Must be its own statement: slot creation cannot run in a transaction that wrote.
      await this.opts.pool.query(`select pg_create_logical_replication_slot($1, 'pgoutput')`, [
        this.slot,
      ]);
      await this.subscribe();
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  /** Slots left by a crashed run keep WAL forever; drop the inactive ones with our prefix. */
  private async dropStaleSlots() {
    const { rows } = await this.opts.pool.query<{ slot_name: string }>(
      `select slot_name from pg_replication_slots
       where slot_name like $1 and not active and database = current_database()`,
      [`${SLOT_PREFIX}%`],
    );
    for (const { slot_name } of rows) {
      await this.opts.pool
        .query('select pg_drop_replication_slot($1)', [slot_name])
        .catch((e: Error) => this.opts.log(`could not drop stale slot ${slot_name}: ${e.message}`));
    }
  }

  private async subscribe() {
    // Progress is reported as real replication clients do (pg_recvlogical, Realtime): periodically
    // and whenever the server asks, not with a socket write per message (the library's `auto`),
    // which cost the stack's process a write per begin, change and commit of every transaction.
    const service = new LogicalReplicationService(
      { connectionString: this.opts.dbUrl },
      { acknowledge: { auto: false, timeoutSeconds: 0 } },
    );
    this.service = service;
    service.on('data', (_lsn: string, msg: Pgoutput.Message) => this.handle(msg));
    // When the server asks where we are, answer with exactly its end of WAL: every change before it
    // was handled synchronously already. A fast shutdown waits for that answer (walsender's
    // WalSndDone needs flush == its position), and the library's own acknowledgements, one past
    // the position they were given and only every 10 s, would keep Postgres shutting down forever.
    service.on('heartbeat', (lsn: string, _timestamp: number, shouldRespond: boolean) => {
      if (!shouldRespond) return;
      this.reportedLsn = lsn;
      void service.acknowledge(lsnBefore(lsn)).catch(() => undefined);
    });
    service.on('error', (err: Error) => {
      if (this.closed) return;
      this.opts.log(`replication error: ${err.message}`);
      this.scheduleRetry();
    });
    const plugin = new RawPgoutputPlugin({ protoVersion: 1, publicationNames: [PUBLICATION] });
    // Resolves when the stream ends; failures are reported through 'error'.
    service.subscribe(plugin, this.slot).then(
      () => !this.closed && this.service === service && this.scheduleRetry(),
      () => undefined,
    );
    await new Promise<void>((resolve, reject) => {
      service.once('start', () => resolve());
      service.once('error', reject);
    });
    this.startStatusUpdates();
  }

  /**
   * Once a second, tells the server how far the handled transactions go (so the slot releases
   * their WAL), if that moved. Unref'd: it never keeps the process alive.
   */
  private startStatusUpdates() {
    if (this.statusTimer) return;
    this.statusTimer = setInterval(() => {
      const lsn = this.handledLsn;
      const service = this.service;
      // Never backwards: a keepalive's answer may already have reported past it.
      if (!lsn || !service) return;
      if (this.reportedLsn && lsnValue(lsn) <= lsnValue(this.reportedLsn)) return;
      this.reportedLsn = lsn;
      void service.acknowledge(lsnBefore(lsn)).catch(() => undefined);
    }, STATUS_INTERVAL_MS);
    this.statusTimer.unref();
  }

  private scheduleRetry() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed) return;
      // The failed service still holds its client and a 1 s status timer that would keep the
      // process alive after close(): end it before subscribing again.
      const failed = this.service;
      this.service = null;
      void (failed ? retire(failed) : Promise.resolve())
        .then(() => (this.closed ? undefined : this.subscribe()))
        .catch((e: Error) => this.opts.log(`replication restart failed: ${e.message}`));
    }, 1000);
  }

  private handle(msg: Pgoutput.Message) {
    switch (msg.tag) {
      case 'begin':
        this.pending = [];
        this.commitTime = toIso(msg.commitTime as bigint);
        return;
      case 'relation':
        this.opts.onRelation(msg.schema, msg.name);
        return;
      case 'insert':
      case 'update':
      case 'delete': {
        const rel = msg.relation;
        const type: ChangeType =
          msg.tag === 'insert' ? 'INSERT' : msg.tag === 'update' ? 'UPDATE' : 'DELETE';
        const oldTuple = msg.tag === 'insert' ? null : (msg.old ?? msg.key);
        this.pending.push({
          type,
          schema: rel.schema,
          table: rel.name,
          commitTimestamp: this.commitTime,
          record: msg.tag === 'delete' ? null : onlyDefined(msg.new),
          oldRecord: oldTuple ? onlyDefined(oldTuple) : null,
        });
        return;
      }
      case 'commit': {
        const changes = this.pending;
        this.pending = [];
        if (changes.length) this.opts.onTransaction(changes);
        // Handled synchronously above: the next status update may report it.
        if (msg.commitEndLsn) this.handledLsn = msg.commitEndLsn;
        return;
      }
      default:
        return;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.statusTimer) clearInterval(this.statusTimer);
    if (this.service) await retire(this.service);
    // The walsender may take a moment to release the slot after the connection ends.
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await this.opts.pool.query(
          'select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1',
          [this.slot],
        );
        return;
      } catch (err) {
        // Only a slot still in use (55006) is worth waiting for. A database that is stopping or
        // gone (Ctrl-C reaches Postgres as well) keeps the slot, and the next start drops it as
        // a stale one.
        if ((err as { code?: string }).code !== '55006') {
          this.opts.log(`replication slot ${this.slot} left for the next start to drop`);
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.opts.log(`could not drop replication slot ${this.slot}`);
  }
}

/**
 * The WAL position one byte before `lsn` (`X/Y` in hex): LogicalReplicationService.acknowledge()
 * reports the position it is given plus one.
 */
export function lsnBefore(lsn: string): string {
  const [hi, lo] = lsn.split('/').map((part) => parseInt(part, 16)) as [number, number];
  if (lo > 0) return `${hi.toString(16).toUpperCase()}/${(lo - 1).toString(16).toUpperCase()}`;
  if (hi > 0) return `${(hi - 1).toString(16).toUpperCase()}/FFFFFFFF`;
  return '0/0';
}

/** An LSN (`X/Y` in hex) as a number, for comparing positions. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

/** Stops a service for good; a late 'error' from it must not go unhandled and crash the process. */
async function retire(service: LogicalReplicationService) {
  service.removeAllListeners();
  service.on('error', () => undefined);
  await service.stop().catch(() => undefined);
}

/** Unchanged TOASTed values without a fallback decode as `undefined`: leave them out. */
function onlyDefined(tuple: Record<string, unknown>): RawTuple {
  const out: RawTuple = {};
  for (const [k, v] of Object.entries(tuple)) {
    if (v === undefined) continue;
    out[k] = v === null ? null : String(v);
  }
  return out;
}
