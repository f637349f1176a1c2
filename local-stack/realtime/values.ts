// Renders decoded WAL values (Postgres text output) as Postgres' `to_jsonb` would, which is what
// Supabase Realtime sends: numbers as numbers, json/jsonb nested, timestamps as ISO-like text.
import type pg from 'pg';
import type { TableInfo } from './catalog.ts';

/** A row as decoded from the WAL: column name → text output, or null. */
export type RawTuple = Record<string, string | null>;
export type JsonRecord = Record<string, unknown>;

const NUMERIC_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const JSON_TYPES = new Set(['json', 'jsonb']);

/** Best-effort conversion without a database round trip, used when Postgres cannot render. */
export function fallbackValue(typname: string, text: string | null): unknown {
  if (text === null) return null;
  if (NUMERIC_TYPES.has(typname)) {
    const n = Number(text);
    return Number.isFinite(n) && /^-?\d/.test(text) ? n : text;
  }
  if (typname === 'bool') return text === 't' || text === 'true';
  if (JSON_TYPES.has(typname)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (typname === 'timestamptz') {
    // `2025-01-02 03:04:05.678+00` → `2025-01-02T03:04:05.678+00:00`, as to_jsonb prints it.
    return text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  }
  if (typname === 'timestamp') return text.replace(' ', 'T');
  return text;
}

function fallbackRecord(table: TableInfo, tuple: RawTuple): JsonRecord {
  const out: JsonRecord = {};
  for (const col of table.columns) {
    if (col.name in tuple) out[col.name] = fallbackValue(col.typname, tuple[col.name]);
  }
  return out;
}

/**
 * Renders several tuples of one table in one query by letting Postgres parse each value with the
 * column's input function (`jsonb_populate_record`) and print it with `to_jsonb`. Only the keys
 * present in each tuple are kept, so a DELETE's key-only tuple stays key-only.
 */
export async function renderTuples(
  pool: pg.Pool,
  table: TableInfo,
  tuples: RawTuple[],
): Promise<JsonRecord[]> {
  if (tuples.length === 0) return [];
  const jsonTypes = new Set(
    table.columns.filter((c) => JSON_TYPES.has(c.typname)).map((c) => c.name),
  );
  // json/jsonb columns must be passed as JSON values, everything else as strings to be parsed.
  try {
    const input = tuples.map((tuple) => {
      const obj: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(tuple)) {
        obj[k] = v !== null && jsonTypes.has(k) ? (JSON.parse(v) as unknown) : v;
      }
      return obj;
    });
    const { rows } = await pool.query<{ rec: JsonRecord }>(
      `select to_jsonb(jsonb_populate_record(null::${table.qualified}, x.value)) as rec
       from jsonb_array_elements($1::jsonb) with ordinality as x(value, n) order by x.n`,
      [JSON.stringify(input)],
    );
    return rows.map((row, i) => {
      const out: JsonRecord = {};
      for (const col of table.columns) if (col.name in tuples[i]) out[col.name] = row.rec[col.name];
      return out;
    });
  } catch {
    return tuples.map((tuple) => fallbackRecord(table, tuple));
  }
}
