// How a call by name and named arguments (supabase-js's `rpc`) becomes one SQL statement over a
// direct connection, answered as PostgREST answers it. Pure: database.ts runs the statement.

/** How a public function is called and answered, read from the catalog once per name. */
export interface Signature {
  /** Argument name → its SQL type as format_type writes it (`jsonb`, `text[]`, `uuid`…). */
  types: Map<string, string>;
  returns: 'set' | 'value' | 'void';
}

/** The overloads of public.<$1>, fewest arguments first; rows for signaturesFromRows. */
export const SIGNATURES_QUERY = `
  select p.proargnames as names,
         array(select format_type(t, null) from unnest(p.proargtypes) t) as types,
         p.proretset as retset, p.prorettype = 'void'::regtype as void
    from pg_catalog.pg_proc p
   where p.pronamespace = 'public'::regnamespace and p.proname = $1
   order by p.pronargs`;

export interface SignatureRow {
  names: string[] | null;
  types: string[];
  retset: boolean;
  void: boolean;
}

export function signaturesFromRows(rows: readonly SignatureRow[]): Signature[] {
  return rows.map((row) => ({
    types: new Map((row.names ?? []).map((name, i) => [name, row.types[i]])),
    returns: row.void ? 'void' : row.retset ? 'set' : 'value',
  }));
}

/** One parameter as text, in the form Postgres reads for its declared type. */
export function paramText(value: unknown, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb' || type === 'json') return JSON.stringify(value);
  if (type.endsWith('[]') && Array.isArray(value)) return arrayLiteral(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A one-dimensional array literal: `{"a","b \"c\"",NULL}`. */
function arrayLiteral(items: readonly unknown[]): string {
  const quoted = items.map((item) =>
    item === null || item === undefined
      ? 'NULL'
      : `"${String(item).replace(/[\\"]/g, (c) => `\\${c}`)}"`,
  );
  return `{${quoted.join(',')}}`;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export type SqlCall = { query: string } | { error: string };

/**
 * The statement for public.<name>(args): like PostgREST, the overload whose arguments include
 * every name given; its one column `data` is the answer as JSON (a set as an array, bigint as a
 * number), null for a void function. Each argument is a text literal (`literal` quotes it: the
 * driver's escapeLiteral) cast to its declared type, so the call needs no parameters and can share
 * one round trip with other statements.
 */
export function sqlCall(
  name: string,
  args: Record<string, unknown>,
  overloads: readonly Signature[],
  literal: (text: string) => string,
): SqlCall {
  const keys = Object.keys(args);
  const signature = overloads.find((s) => keys.every((k) => s.types.has(k)));
  if (!signature)
    return { error: `Could not find the function public.${name}(${keys.join(', ')})` };
  const type = (key: string) => signature.types.get(key)!;
  const value = (key: string) => {
    const text = paramText(args[key], type(key));
    return text === null ? 'null' : literal(text);
  };
  const call = `public.${ident(name)}(${keys
    .map((key) => `${ident(key)} => ${value(key)}::${type(key)}`)
    .join(', ')})`;
  const query =
    signature.returns === 'set'
      ? `select coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb) as data from ${call} r`
      : signature.returns === 'void'
        ? `select ${call}, null::jsonb as data`
        : `select to_jsonb(${call}) as data`;
  return { query };
}
