// SQL text helpers: identifier quoting and a collector that turns values into `$n` parameters,
// so request values never become part of the statement text.
import pg from 'pg';
import { RestError } from './errors.ts';
import type { TypeName } from './query-grammar.ts';

/**
 * Quotes an identifier with node-postgres' `escapeIdentifier` (always, to keep case and symbols),
 * the one quoter of the local stack.
 */
export function ident(name: string): string {
  // The parser refuses such names first; a NUL in the statement text would break the connection.
  if (name.includes('\u0000')) {
    throw new RestError(
      400,
      'PGRST100',
      '"failed to parse the request"',
      'a name must not contain a NUL byte',
    );
  }
  return pg.escapeIdentifier(name);
}

/** `"public"."t"` */
export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/**
 * `cast(expr as "type"(n)[])`, as PostgREST writes a select item's cast; the type name is always
 * quoted, so a cast can only ever name a type (an unknown one is Postgres' 42704).
 */
export function castSql(expr: string, type: TypeName): string {
  const length = type.length !== undefined ? `(${type.length})` : '';
  return `cast(${expr} as ${ident(type.name)}${length}${type.array ? '[]' : ''})`;
}

/** Collects the values of one statement; `add` returns the placeholder to put in the text. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
