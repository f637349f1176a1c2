// SQL text helpers: identifier quoting and a collector that turns values into `$n` parameters,
// so request values never become part of the statement text.

/** Quotes an identifier the way Postgres' `quote_ident` does (always, to keep case and symbols). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"public"."t"` */
export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/** Collects the values of one statement; `add` returns the placeholder to put in the text. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
