// Planning against the schema cache: a name the cache does not know may have just been created
// (the NOTIFY may not have arrived yet), so a miss reloads the cache once and plans again.
import { SchemaMiss } from './read-query.ts';
import type { SchemaCache, SchemaSnapshot } from './schema-cache.ts';

/** Plans with the cached schema; on a miss reloads it once, then lets the final errors through. */
export async function plan<T>(
  cache: SchemaCache,
  startedAt: number,
  build: (snapshot: SchemaSnapshot, strict: boolean) => T,
): Promise<T> {
  let snapshot = await cache.get();
  try {
    return build(snapshot, true);
  } catch (err) {
    if (!(err instanceof SchemaMiss)) throw err;
  }
  snapshot = await cache.reloadOnMiss(startedAt);
  try {
    return build(snapshot, true);
  } catch (err) {
    if (!(err instanceof SchemaMiss)) throw err;
  }
  return build(snapshot, false);
}
