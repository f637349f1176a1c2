// `/rpc/<fn>`: picks the overload of a public function by its named arguments, as PostgREST does,
// and builds the FROM item that calls it with arguments decoded by Postgres (json_to_record).
import { RestError } from './errors.ts';
import { bodyExpression, SchemaMiss, type BodyShape, type BuildContext } from './read-query.ts';
import {
  EXPOSED_SCHEMA,
  type FunctionInfo,
  type FunctionParam,
  type SchemaSnapshot,
} from './schema-cache.ts';
import { ident, qualified } from './sql.ts';

type ResultKind = 'rows' | 'row' | 'scalars' | 'scalar' | 'void';

export interface FunctionCall {
  fn: FunctionInfo;
  /** FROM item(s) ending in `alias`. */
  from: string;
  alias: string;
  kind: ResultKind;
}

const inputParams = (fn: FunctionInfo): FunctionParam[] =>
  fn.params.filter((p) => p.mode === 'i' || p.mode === 'b' || p.mode === 'v');

/** A function of one unnamed parameter, which PostgREST calls with the whole body. */
const isSingleUnnamed = (fn: FunctionInfo) => {
  const ins = inputParams(fn);
  return ins.length === 1 && ins[0].name === '';
};

const isSingleJson = (fn: FunctionInfo) =>
  isSingleUnnamed(fn) && ['json', 'jsonb'].includes(inputParams(fn)[0].type);

/**
 * PostgREST's match of argument names to parameters: every required parameter named, the rest of
 * the names among the optional ones (a single unnamed parameter is named "").
 */
function matchesParams(fn: FunctionInfo, keys: string[]): boolean {
  const ins = inputParams(fn);
  if (ins.length === 0) return keys.length === 0;
  const required = ins.slice(0, ins.length - fn.defaultCount).map((p) => p.name);
  const optional = new Set(ins.slice(ins.length - fn.defaultCount).map((p) => p.name));
  const left = new Set(keys.filter((k) => !optional.has(k)));
  return left.size === new Set(required).size && required.every((r) => left.has(r));
}

/** Every input parameter name of the functions called `name` (to tell GET arguments from filters). */
export function argumentNames(snapshot: SchemaSnapshot, name: string): Set<string> {
  const names = new Set<string>();
  for (const fn of snapshot.functions.get(name) ?? []) {
    for (const p of inputParams(fn)) if (p.name) names.add(p.name);
  }
  return names;
}

/**
 * Chooses the overload whose parameters match the given argument names. `jsonBody` allows a
 * function with a single unnamed json/jsonb parameter to take the whole body.
 */
export function resolveFunction(
  snapshot: SchemaSnapshot,
  name: string,
  keys: string[],
  jsonBody: boolean,
  strict: boolean,
): { fn: FunctionInfo; wholeBody: boolean } {
  const overloads = snapshot.functions.get(name) ?? [];
  const matches = overloads.filter((fn) => matchesParams(fn, keys));
  // As PostgREST: a function of one json/jsonb parameter takes the body when no other matches.
  const candidates = matches.length ? matches : jsonBody ? overloads.filter(isSingleJson) : [];
  if (candidates.length === 1) {
    return { fn: candidates[0], wholeBody: isSingleUnnamed(candidates[0]) };
  }
  if (candidates.length > 1) {
    // Never a guess Postgres might refuse (42725) or resolve otherwise than PostgREST.
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${candidates
        .map(
          (fn) =>
            `${EXPOSED_SCHEMA}.${fn.name}(${inputParams(fn)
              .map((p) => (p.name ? `${p.name} => ${p.type}` : p.type))
              .join(', ')})`,
        )
        .join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  if (strict) throw new SchemaMiss(name);
  const sorted = [...keys].sort();
  const withParams = sorted.length
    ? ` with parameter${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`
    : ' without parameters';
  throw new RestError(
    404,
    'PGRST202',
    `Could not find the function ${EXPOSED_SCHEMA}.${name}${sorted.length ? `(${sorted.join(', ')})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${EXPOSED_SCHEMA}.${name}${withParams}${
      jsonBody ? ' or with a single unnamed json/jsonb parameter' : ''
    }, but no matches were found in the schema cache.`,
    null,
  );
}

/**
 * Builds the call. `args` is the JSON object of named arguments; `wholeBody` (the request body as
 * sent) is the one argument of a function of a single unnamed parameter, as PostgREST passes it.
 */
export function buildCall(
  ctx: BuildContext,
  fn: FunctionInfo,
  args: unknown,
  wholeBody: string | undefined,
): FunctionCall {
  const callee = qualified(EXPOSED_SCHEMA, fn.name);
  let call: string;
  let argsFrom = '';
  if (wholeBody !== undefined) {
    // The type is the catalog's own text, as in json_to_record below.
    call = `${callee}(${ctx.params.add(wholeBody)}::${inputParams(fn)[0].type})`;
  } else {
    const given = Object.keys((args ?? {}) as object);
    const used = inputParams(fn).filter((p) => given.includes(p.name));
    if (used.length) {
      // Postgres decodes each argument with its declared type, as for table columns.
      const p = ctx.params.add(JSON.stringify(args));
      argsFrom = `pg_catalog.json_to_record(${p}::json) as pgrst_args(${used
        .map((u) => `${ident(u.name)} ${u.type}`)
        .join(', ')}) cross join lateral `;
    }
    call = `${callee}(${used
      .map(
        (u) =>
          `${u.mode === 'v' ? 'variadic ' : ''}${ident(u.name)} => pgrst_args.${ident(u.name)}`,
      )
      .join(', ')})`;
  }
  const alias = fn.name;
  if (fn.returnType === 'void')
    return { fn, from: `${argsFrom}${call} as pgrst_void`, alias, kind: 'void' };
  if (fn.resultColumns) {
    return {
      fn,
      from: `${argsFrom}${call} as ${ident(alias)}`,
      alias,
      kind: fn.returnsSet ? 'rows' : 'row',
    };
  }
  return {
    fn,
    from: `${argsFrom}${call} as pgrst_scalar_t(pgrst_scalar)`,
    alias,
    kind: fn.returnsSet ? 'scalars' : 'scalar',
  };
}

/**
 * Statement for functions that do not return rows: a scalar, a set of scalars or void. Each is
 * one row set (`_postgrest_t`), counted as PostgREST counts it (a scalar or void is one row).
 */
export function buildScalarStatement(call: FunctionCall, shape: BodyShape, count: boolean): string {
  const rows = `(select ${call.kind === 'void' ? 'null' : 'pgrst_scalar_t.pgrst_scalar'} as pgrst_scalar from ${call.from}) as _postgrest_t`;
  const body =
    call.kind === 'void'
      ? 'null::text'
      : shape === 'csv'
        ? bodyExpression('csv', false)
        : call.kind === 'scalar' || shape === 'object'
          ? `coalesce(pg_catalog.json_agg(_postgrest_t.pgrst_scalar) -> 0, 'null')::text`
          : `coalesce(pg_catalog.json_agg(_postgrest_t.pgrst_scalar), '[]')::text`;
  const total = count ? 'pg_catalog.count(*)' : 'null::bigint';
  return `select ${total} as total, pg_catalog.count(*) as page_total, ${body} as body from ${rows}`;
}
