// Property tests of the REST query grammar and its planners: random `select`, filter, logic-tree
// and `order` strings (well-formed, nearly so and hostile) never fail with a server error, never
// take more than linear work, and always plan one statement whose names are quoted and whose
// values are `$n` parameters. `FUZZ_RUNS` sets the number of runs (`npm run fuzz:rest`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RestError } from './errors.ts';
import {
  hostileText,
  queryArb,
  statementProblems,
  type FuzzSchema,
} from '../../tests/support/rest-query-fuzz.ts';
import { parseQueryParams, parseSelect } from './query-grammar.ts';
import { buildReadStatement, newBuildContext, SchemaMiss } from './read-query.ts';
import type { SchemaSnapshot, TableInfo } from './schema-cache.ts';
import { Params } from './sql.ts';
import { buildDelete, buildInsert, buildUpdate } from './write-query.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** The long run (`npm run fuzz:rest`) needs more than the project's default test timeout. */
const TIMEOUT = Math.max(20_000, RUNS * 20);

function table(name: string, columns: string[]): TableInfo {
  return {
    name,
    kind: 'table',
    columns: new Map(columns.map((c) => [c, { name: c, type: 'text' }])),
    primaryKey: ['id'],
    uniqueKeys: [['id']],
  };
}

const fk = (name: string, from: string, column: string, to: string) => ({
  name,
  table: from,
  columns: [column],
  foreignTable: to,
  foreignColumns: ['id'],
});

/** items → parents (to-one), items ← tags (to-many), two keys items → owners (ambiguous). */
const snapshot: SchemaSnapshot = {
  tables: new Map([
    ['items', table('items', ['id', 'title', 'qty', 'meta', 'parent_id', 'owner_a', 'owner_b'])],
    ['parents', table('parents', ['id', 'name'])],
    ['tags', table('tags', ['id', 'item_id', 'label'])],
    ['owners', table('owners', ['id', 'email'])],
  ]),
  foreignKeys: [
    fk('items_parent_id_fkey', 'items', 'parent_id', 'parents'),
    fk('tags_item_id_fkey', 'tags', 'item_id', 'items'),
    fk('fk', 'items', 'owner_a', 'owners'),
    fk('items_owner_b_fkey', 'items', 'owner_b', 'owners'),
  ],
  functions: new Map(),
  roleSettings: new Map(),
};
const items = snapshot.tables.get('items')!;

const schema: FuzzSchema = {
  columns: ['id', 'title', 'qty', 'meta', 'parent_id', 'name', 'label', 'nope'],
  embeddable: ['parents', 'tags'],
  relations: ['parents', 'tags', 'owners', 'items', 'nope'],
};

interface Planned {
  text: string;
  values: unknown[];
}

/**
 * What a request may fail with: PostgREST's client errors (and, on a strict first pass, the
 * cache miss that makes the service reload its schema). Anything else would be a 5xx.
 */
function expectClientError(err: unknown, strict: boolean) {
  if (strict && err instanceof SchemaMiss) return;
  if (err instanceof RestError && err.status < 500) return;
  throw err;
}

/** Plans a read and the three writes for the query, as index.ts does; returns what was planned. */
function planAll(pairs: [string, string][], strict = false): Planned[] {
  const planned: Planned[] = [];
  const attempt = (build: (params: Params) => string) => {
    const params = new Params();
    try {
      planned.push({ text: build(params), values: params.values });
    } catch (err) {
      expectClientError(err, strict);
    }
  };
  let query: ReturnType<typeof parseQueryParams>;
  let select: ReturnType<typeof parseSelect>;
  try {
    query = parseQueryParams(new URLSearchParams(pairs));
    select = parseSelect(query.select ?? '*');
  } catch (err) {
    expectClientError(err, strict);
    return planned;
  }
  const ctx = (params: Params) => newBuildContext(snapshot, params, new Map(query.levels), strict);
  const common = (params: Params) =>
    ({
      ctx: ctx(params),
      table: items,
      returning: 'representation',
      select,
      shape: 'array',
      stripNulls: false,
      count: true,
    }) as const;
  attempt((params) =>
    buildReadStatement({
      ctx: ctx(params),
      from: '"public"."items" as "items"',
      alias: 'items',
      tableName: 'items',
      table: items,
      select,
      count: true,
      shape: 'array',
      stripNulls: false,
    }),
  );
  attempt((params) => buildDelete(common(params)));
  // Unknown write columns are refused before planning (PGRST204), as index.ts does.
  const columns = (query.columns ?? ['title', 'qty']).filter((c) => items.columns.has(c));
  const onConflict = (query.onConflict ?? ['id']).filter((c) => items.columns.has(c));
  const row = Object.fromEntries(columns.map((c) => [c, `value of ${c}`]));
  attempt((params) => buildUpdate({ ...common(params), values: row, columns }));
  attempt((params) =>
    buildInsert({
      ...common(params),
      rows: [row, row],
      columns,
      missingDefault: columns.length % 2 === 0,
      upsert: { resolution: 'merge-duplicates', onConflict },
    }),
  );
  return planned;
}

describe('the REST query grammar under random input', () => {
  it(
    'never fails with a server error and plans only quoted names and $n values',
    () => {
      fc.assert(
        fc.property(queryArb(schema), fc.boolean(), (pairs, strict) => {
          for (const { text, values } of planAll(pairs, strict)) {
            expect(statementProblems(text, values.length), text).toEqual([]);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  // Counterexamples the property found: each planned a `$n` that its statement never used, which
  // Postgres refuses (42P18) although the request is valid.
  it.each<[string, [string, string][]]>([
    [
      'a written representation with an !inner embed',
      [
        ['select', '*,parents!inner(id),tags(id)'],
        ['parents.id->0', 'is.null'],
      ],
    ],
    [
      'an ordered write without limit',
      [
        ['order', 'id->k'],
        ['id', 'neq.1'],
      ],
    ],
    [
      'an ordered !inner embed',
      [
        ['select', '*,tags!inner(*)'],
        ['tags.order', 'id->k'],
      ],
    ],
  ])('uses every parameter it places: %s', (_, pairs) => {
    const planned = planAll(pairs);
    expect(planned.length).toBeGreaterThan(1);
    for (const { text, values } of planned) {
      expect(statementProblems(text, values.length), text).toEqual([]);
    }
  });

  it('keeps a cast, a quoted name and a value out of the statement text', () => {
    // The issue's payload: the cast becomes one quoted (unknown) type name, Postgres' 42704.
    const [injected] = planAll([
      ['select', 'title::text from pg_roles union all select rolname,"a\\"":title'],
      ['title', "eq.x'; drop table items; --"],
    ]);
    expect(injected.text).toContain(
      'cast("items"."title" as "textfrompg_rolesunionallselectrolname")',
    );
    expect(statementProblems(injected.text, injected.values.length)).toEqual([]);
    const [plan] = planAll([
      ['select', '"a\\" b",title::int,t:title::char,qty::TEXT[]'],
      ['title', "eq.x'; drop table items; --"],
    ]);
    expect(plan.text).toContain('cast("items"."title" as "int4")');
    expect(plan.text).toContain('cast("items"."title" as "bpchar"(1))');
    expect(plan.text).toContain('cast("items"."qty" as "text"[])');
    expect(plan.text).toContain('"items"."a"" b"');
    expect(plan.values).toContain("x'; drop table items; --");
    expect(statementProblems(plan.text, plan.values.length)).toEqual([]);
  });

  it('tells a smuggled statement apart from a planned one', () => {
    expect(statementProblems('select "a" from "t" where "a" = $1', 1)).toEqual([]);
    expect(statementProblems('select a::text from pg_roles', 0)).toEqual([
      'bare word a',
      'bare word pg_roles',
    ]);
    expect(statementProblems(`select "a" from "t"; select 'x' -- $1`, 1)).toEqual([
      'character ";" at 19',
      "string literal 'x'",
      'comment at 32',
    ]);
  });
});

// --- work ------------------------------------------------------------------------------------------
// Linear time without a clock: the grammar's scanners are single passes over `input[i]`; what
// made them super-linear before (the cubic parser took 7.5 s on 3 000 characters) is handing the
// rest of the input to string and regular-expression primitives again and again. Those are counted
// here, in characters they may read, and ten times the input must cost about ten times the count,
// not a hundred. Machine speed and load play no part.

/** Long enough that a quadratic parser's count is far off a linear one's. */
const N = 30_000;
/** Ten times the input may cost this many times the characters (linear: about 10). */
const MAX_GROWTH = 15;
/**
 * Characters read per input character that count as linear whatever the shorter input did (it
 * may stop early, e.g. on a quote its cut left open): a quadratic plan of N characters reads
 * about N² / 2, 300 times this.
 */
const LINEAR_PER_CHARACTER = 50;

type Sized = (self: string, args: unknown[]) => number;
const whole: Sized = (self) => self.length;
const fromIndex: Sized = (self, [, at]) => self.length - Math.max(0, Number(at) || 0);
const piece: Sized = (self, [from, to]) => {
  const start = Math.max(0, Number(from) || 0);
  return Math.max(0, (to === undefined ? self.length : Number(to)) - start);
};
const STRING_WORK: Record<string, Sized> = {
  slice: piece,
  substring: piece,
  substr: (_, [, length]) => Number(length) || 0,
  indexOf: fromIndex,
  includes: fromIndex,
  lastIndexOf: whole,
  startsWith: (_, [search]) => String(search).length,
  endsWith: (_, [search]) => String(search).length,
  split: whole,
  trim: whole,
  trimStart: whole,
  trimEnd: whole,
  replace: whole,
  replaceAll: whole,
  match: whole,
  matchAll: whole,
  search: whole,
  toLowerCase: whole,
  toUpperCase: whole,
  normalize: whole,
  localeCompare: whole,
  codePointAt: () => 1,
  charAt: () => 1,
  charCodeAt: () => 1,
  at: () => 1,
};
/**
 * What one `exec` read: a sticky match (split's) its match at lastIndex, a global one on from
 * lastIndex to its match's end, any other the whole text. test, replace, match and split call
 * `exec` once it is replaced, so counting it counts them all.
 */
function execWork(regexp: RegExp, text: string, from: number, found: RegExpExecArray | null) {
  if (regexp.sticky) return (found?.[0].length ?? 0) + 1;
  if (regexp.global)
    return Math.max(1, (found ? found.index + found[0].length : text.length) - from);
  return text.length;
}

/** Characters `run` hands to string and RegExp primitives (a bound on what they read). */
function charactersRead(run: () => void): number {
  let total = 0;
  const restore: (() => void)[] = [];
  const count = (proto: object, work: Record<string, Sized>) => {
    const methods = proto as Record<string, (...args: unknown[]) => unknown>;
    for (const [name, size] of Object.entries(work)) {
      const original = methods[name]!;
      methods[name] = function (this: unknown, ...args: unknown[]) {
        total += size(typeof this === 'string' ? this : String(this), args);
        return original.apply(this, args);
      };
      restore.push(() => (methods[name] = original));
    }
  };
  count(String.prototype, STRING_WORK);
  const regexp = RegExp.prototype as unknown as { exec: RegExp['exec'] };
  const exec = regexp.exec;
  regexp.exec = function (this: RegExp, text: string) {
    const from = this.lastIndex;
    const found = exec.call(this, text);
    total += execWork(this, String(text), from, found);
    return found;
  };
  restore.push(() => (regexp.exec = exec));
  try {
    run();
  } finally {
    for (const undo of restore) undo();
  }
  return total;
}

/**
 * The count at 30 000 characters is at most MAX_GROWTH times the count at 3 000, or within
 * LINEAR_PER_CHARACTER a character.
 */
function expectLinear(make: (n: number) => [string, string][]) {
  const [smallInput, largeInput] = [make(N / 10), make(N)];
  const small = charactersRead(() => planAll(smallInput));
  const large = charactersRead(() => planAll(largeInput));
  expect(large, `characters read at ${N} against ${small} at ${N / 10}`).toBeLessThanOrEqual(
    Math.max(MAX_GROWTH * Math.max(small, N / 10), LINEAR_PER_CHARACTER * N),
  );
}

const rep = (s: string, length: number) => s.repeat(Math.ceil(length / s.length)).slice(0, length);

const ADVERSARIAL: [string, (n: number) => [string, string][]][] = [
  ['select: spaces then one quote (the issue’s payload)', (n) => [['select', `id${rep(' ', n)}"`]]],
  ['select: quotes', (n) => [['select', rep('"', n)]]],
  ['select: escaped quotes', (n) => [['select', `"${rep('\\"', n)}`]]],
  ['select: spaces inside quotes', (n) => [['select', `"${rep(' ', n)}"`]]],
  ['select: quotes and spaces', (n) => [['select', rep(' " ', n)]]],
  ['select: colons', (n) => [['select', `a${rep(':', n)}`]]],
  ['select: casts', (n) => [['select', `a${rep('::a', n)}`]]],
  ['select: an alias-like run', (n) => [['select', `${rep('a', n)}:`]]],
  ['select: many items', (n) => [['select', rep('id,', n)]]],
  ['select: JSON paths', (n) => [['select', `meta${rep('->a', n)}`]]],
  ['select: opening parens', (n) => [['select', rep('(', n)]]],
  [
    'select: embeds at the nesting limit',
    // 100 levels (the most the grammar takes) around one long column name.
    (n) => [['select', `id,${rep('tags(', 5 * 99)}${rep('b', n)}${rep(')', 99)}`]],
  ],
  ['select: aggregate-like relations', (n) => [['select', `${rep('a.', n)}()`]]],
  ['select: bangs', (n) => [['select', `a${rep('!', n)}(id)`]]],
  ['filter: a long value', (n) => [['title', `eq.${rep('a', n)}`]]],
  ['filter: a long in list', (n) => [['title', `in.(${rep('a,', n)})`]]],
  ['filter: a long column with a path', (n) => [[`meta${rep('->a', n)}`, 'eq.1']]],
  ['or: many conditions', (n) => [['or', `(${rep('id.eq.1,', n)}id.eq.1)`]]],
  [
    'or: nesting at the limit',
    (n) => [['or', `(${rep('or(', 3 * 99)}${rep('id.eq.1,', n)}id.eq.1${rep(')', 99)})`]],
  ],
  ['order: dots', (n) => [['order', `a${rep('.', n)}`]]],
  ['order: many terms', (n) => [['order', rep('id.desc.nullslast,', n)]]],
  ['order: a relation with parens', (n) => [['order', `a(${rep('(b', n)})`]]],
  ['1 000 parameters', (n) => Array.from({ length: n / 30 }, (_, i) => [`c${i}`, 'eq.1'])],
  ['columns: quotes and spaces', (n) => [['columns', rep('" ', n)]]],
];

describe('the REST query grammar’s work', () => {
  it.each(ADVERSARIAL)('%s: 30 000 characters plan in linear work', (_, make) => {
    expectLinear(make);
  });

  it(
    'plans any repeated hostile pattern of 30 000 characters in linear work',
    () => {
      const pattern = fc.tuple(hostileText(6), hostileText(6)).filter(([a]) => a.length > 0);
      const where = fc.constantFrom('select', 'title', 'or', 'order', 'columns');
      fc.assert(
        fc.property(pattern, where, ([unit, tail], key) => {
          expectLinear((n) => {
            const value = key === 'or' ? `(${rep(unit, n)}${tail})` : `${rep(unit, n)}${tail}`;
            return [[key, key === 'title' ? `eq.${value}` : value]];
          });
        }),
        { numRuns: Math.max(20, Math.round(RUNS / 15)) },
      );
    },
    TIMEOUT,
  );
});
