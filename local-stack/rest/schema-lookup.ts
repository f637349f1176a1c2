// Names of a request looked up in the schema cache: while planning strictly a miss is a
// SchemaMiss (the cache is reloaded once and the plan tried again), after that PostgREST's error.
import { RestError } from './errors.ts';
import { SchemaMiss } from './read-query.ts';
import { EXPOSED_SCHEMA, type SchemaSnapshot, type TableInfo } from './schema-cache.ts';
import { closest } from './suggest.ts';

function tableNotFound(snapshot: SchemaSnapshot, name: string): RestError {
  const suggestion = closest(name, snapshot.tables.keys());
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${EXPOSED_SCHEMA}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${EXPOSED_SCHEMA}.${suggestion}'` : null,
  );
}

export function lookupTable(snapshot: SchemaSnapshot, name: string, strict: boolean): TableInfo {
  const table = snapshot.tables.get(name);
  if (table) return table;
  if (strict) throw new SchemaMiss(name);
  throw tableNotFound(snapshot, name);
}

export function checkWriteColumns(table: TableInfo, columns: string[], strict: boolean) {
  for (const c of columns) {
    if (table.columns.has(c)) continue;
    if (strict) throw new SchemaMiss(c);
    throw new RestError(
      400,
      'PGRST204',
      `Could not find the '${c}' column of '${table.name}' in the schema cache`,
    );
  }
}
