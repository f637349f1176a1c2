// `/rpc/<fn>`: picks the overload of a public function by its named arguments, as PostgREST does,
// and builds the FROM item that calls it with arguments decoded by Postgres (json_to_record).
import { RestError } from './errors.ts';
import { SchemaMiss, type BuildContext } from './read-query.ts';
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

const isSingleJson = (fn: FunctionInfo) => {
  const ins = inputParams(fn);
  return (
    ins.length === 1 && ins[0].name === '' && (ins[0].type === 'json' || ins[0].type === 'jsonb')
  );
};

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
): { fn: FunctionInfo; singleJson: boolean } {
  const overloads = snapshot.functions.get(name) ?? [];
  const matches = overloads.filter((fn) => {
    const ins = inputParams(fn);
    const required = ins.slice(0, ins.length - fn.defaultCount);
    return (
      keys.every((k) => ins.some((p) => p.name === k)) &&
      required.every((p) => keys.includes(p.name))
    );
  });
  if (matches.length === 1) return { fn: matches[0], singleJson: false };
  if (matches.length > 1) {
    const exact = matches.filter((fn) => inputParams(fn).length === keys.length);
    if (exact.length === 1) return { fn: exact[0], singleJson: false };
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${matches
        .map(
          (fn) =>
            `${EXPOSED_SCHEMA}.${fn.name}(${inputParams(fn)
              .map((p) => `${p.name} => ${p.type}`)
              .join(', ')})`,
        )
        .join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  const single = jsonBody ? overloads.find(isSingleJson) : undefined;
  if (single) return { fn: single, singleJson: true };
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

/** Builds the call. `args` is the JSON object of named arguments (or the whole body for singleJson). */
export function buildCall(
  ctx: BuildContext,
  fn: FunctionInfo,
  args: unknown,
  singleJson: boolean,
): FunctionCall {
  const callee = qualified(EXPOSED_SCHEMA, fn.name);
  let call: string;
  let argsFrom = '';
  if (singleJson) {
    call = `${callee}(${ctx.params.add(JSON.stringify(args ?? {}))}::${inputParams(fn)[0].type})`;
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

/** Statement for functions that do not return rows: a scalar, a set of scalars or void. */
export function buildScalarStatement(call: FunctionCall): string {
  if (call.kind === 'void')
    return `select null::bigint as total, 1 as page_total, null::text as body from ${call.from}`;
  if (call.kind === 'scalar') {
    return `select null::bigint as total, 1 as page_total, pg_catalog.to_json(pgrst_scalar_t.pgrst_scalar)::text as body from ${call.from}`;
  }
  return `select null::bigint as total, pg_catalog.count(*) as page_total, coalesce(pg_catalog.json_agg(pgrst_scalar_t.pgrst_scalar), '[]')::text as body from ${call.from}`;
}
