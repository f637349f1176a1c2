// Keeps a lost database connection from crashing the stack: node-postgres emits a connection's
// error (e.g. 57P01 when Postgres restarts) on the client, and a client checked out of a pool but
// between queries has no listener of its own, so the error would be uncaught. The query that
// uses the client next fails, and the pool drops it when it is released with that error.
import type pg from 'pg';

export function logConnectionErrors(pool: pg.Pool, log: (message: string) => void): void {
  pool.on('error', (err) => log(`pool: ${err.message}`));
  pool.on('connect', (client) =>
    client.on('error', (err) => log(`connection lost: ${err.message}`)),
  );
}
