// Test support for the REST fuzz tests (query-grammar.fuzz.test.ts beside the grammar, and
// tests/conformance/rest-fuzz.test.ts through real Postgres): fast-check arbitraries of PostgREST
// query strings — well-formed, nearly well-formed and hostile — and a checker that a planned
// statement is a single statement whose names are all quoted and whose values are all `$n`.
import fc from 'fast-check';

/** Characters and tokens that mean something to the grammar, to URLs or to SQL. */
const HOSTILE_UNITS = [
  'a',
  'b',
  'id',
  '_',
  '$',
  '0',
  '1',
  ' ',
  '"',
  '\\',
  '(',
  ')',
  ',',
  ':',
  '.',
  '!',
  '-',
  '>',
  '*',
  ';',
  "'",
  '%',
  '+',
  '&',
  '=',
  '\n',
  '\t',
  '\u0000',
  '--',
  '/*',
  '::',
  '->',
  '->>',
  '...',
  'not.',
  'eq.',
  'or',
  'and',
  'select',
  'from',
  'union all select',
  'pg_roles',
  'é',
  '\u{1F600}',
];

/** Free text made of the units above (the strings a fuzzer should try in every position). */
export const hostileText = (maxLength = 24): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...HOSTILE_UNITS), maxLength });

/** Double-quotes a name the way postgrest-js does, escaping `"` and `\`. */
const quoteName = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** A name: one of the table's, an unknown one, or hostile text, sometimes double-quoted. */
export function nameArb(known: readonly string[]): fc.Arbitrary<string> {
  const plain = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/) },
    { weight: 2, arbitrary: hostileText(12) },
  );
  return fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: plain.map(quoteName) });
}

/** Casts: type names, words that could continue a statement, and free text. */
const castArb = fc.oneof(
  fc.constantFrom('text', 'int', 'bigint', 'int[]', 'char', 'TEXT', 'jsonb', 'date', 'bool'),
  fc
    .tuple(
      fc.constantFrom('text', 'int'),
      fc.array(
        fc.constantFrom(' from', ' pg_roles', ' as', ' items', ' union', ' all', ' select'),
        {
          minLength: 1,
          maxLength: 7,
        },
      ),
    )
    .map(([type, words]) => type + words.join('')),
  hostileText(16),
);

const jsonPathArb = (key: fc.Arbitrary<string>) =>
  fc
    .array(fc.tuple(fc.constantFrom('->', '->>'), fc.oneof(key, fc.nat(3).map(String))), {
      maxLength: 2,
    })
    .map((steps) => steps.map(([arrow, k]) => arrow + k).join(''));

export interface FuzzSchema {
  columns: readonly string[];
  relations: readonly string[];
}

/** `select=` values: trees of columns, aliases, casts, JSON paths, embeds and spreads. */
export function selectArb(schema: FuzzSchema): fc.Arbitrary<string> {
  const name = nameArb(schema.columns);
  const alias = fc.option(
    nameArb(['x', 'alias']).map((a) => `${a}:`),
    { nil: '' },
  );
  const column = fc
    .tuple(
      alias,
      name,
      jsonPathArb(name),
      fc.option(
        castArb.map((c) => `::${c}`),
        { nil: '' },
      ),
    )
    .map((parts) => parts.join(''));
  const tree = fc.letrec<{ item: string; list: string }>((tie) => ({
    item: fc.oneof(
      { depthSize: 'small' },
      column,
      fc.constant('*'),
      fc
        .tuple(
          alias,
          fc.constantFrom('', '', '...'),
          nameArb(schema.relations),
          fc.constantFrom('', '!inner', '!left', '!fk', '!inner!fk', '!!'),
          tie('list'),
        )
        .map(([a, spread, rel, hint, list]) => `${spread ? '' : a}${spread}${rel}${hint}(${list})`),
    ),
    // Hand-written URLs may space the list out; postgrest-js strips that whitespace.
    list: fc
      .tuple(fc.array(tie('item'), { minLength: 1, maxLength: 4 }), fc.constantFrom(',', ', '))
      .map(([items, separator]) => items.join(separator)),
  }));
  return fc.oneof(
    { weight: 6, arbitrary: tree.list },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: hostileText(60) },
  );
}

const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
];

/** The right-hand side of `col=…`: `[not.]op[(modifier)].value`, valid or not. */
export const conditionArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', '', 'not.'),
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...OPERATORS) }, hostileText(6)),
        fc.constantFrom('', '', '(any)', '(all)', '(english)', '(x'),
        fc.oneof(
          hostileText(20),
          fc.constantFrom('null', 'true', 'not_null', '(1,2)', '("a,b",c)', '{a,b}', '1'),
        ),
      )
      .map(([not, op, mod, value]) => `${not}${op}${mod}.${value}`),
  },
  { weight: 1, arbitrary: hostileText(30) },
);

/** `or=`/`and=` values: `(cond,cond,…)` with nested trees. */
export function logicArb(schema: FuzzSchema): fc.Arbitrary<string> {
  const name = nameArb(schema.columns);
  const tree = fc.letrec<{ node: string; group: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.tuple(name, jsonPathArb(name), conditionArb).map(([c, p, cond]) => `${c}${p}.${cond}`),
      fc
        .tuple(fc.constantFrom('', 'not.'), fc.constantFrom('and', 'or'), tie('group'))
        .map(([not, op, group]) => `${not}${op}${group}`),
    ),
    group: fc
      .array(tie('node'), { minLength: 1, maxLength: 4 })
      .map((nodes) => `(${nodes.join(',')})`),
  }));
  return fc.oneof({ weight: 5, arbitrary: tree.group }, { weight: 1, arbitrary: hostileText(40) });
}

/** `order=` values. */
export function orderArb(schema: FuzzSchema): fc.Arbitrary<string> {
  const name = nameArb(schema.columns);
  const term = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.tuple(name, jsonPathArb(name)).map(([n, p]) => n + p) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(nameArb(schema.relations), name)
            .map(([rel, col]) => `${rel}(${col})`),
        },
      ),
      fc.constantFrom('', '.asc', '.desc', '.sideways'),
      fc.constantFrom('', '.nullsfirst', '.nullslast'),
    )
    .map((parts) => parts.join(''));
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.array(term, { minLength: 1, maxLength: 3 }).map((t) => t.join(',')),
    },
    { weight: 1, arbitrary: hostileText(30) },
  );
}

/** A query string's parameters: select, filters (also on embeds), logic trees, order, paging. */
export function queryArb(schema: FuzzSchema): fc.Arbitrary<[string, string][]> {
  const name = nameArb(schema.columns);
  const prefix = fc.option(
    nameArb(schema.relations).map((r) => `${r}.`),
    { nil: '', freq: 4 },
  );
  const param: fc.Arbitrary<[string, string]> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(prefix, name, jsonPathArb(name), conditionArb)
        .map(([p, c, path, cond]): [string, string] => [`${p}${c}${path}`, cond]),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(prefix, fc.constantFrom('or', 'and', 'not.or', 'not.and'), logicArb(schema))
        .map(([p, op, tree]): [string, string] => [`${p}${op}`, tree]),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(prefix, orderArb(schema))
        .map(([p, o]): [string, string] => [`${p}order`, o]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          prefix,
          fc.constantFrom('limit', 'offset'),
          fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), hostileText(8)),
        )
        .map(([p, k, v]): [string, string] => [`${p}${k}`, v]),
    },
    { weight: 1, arbitrary: fc.tuple(hostileText(10), hostileText(20)) },
  );
  return fc
    .tuple(fc.option(selectArb(schema), { nil: undefined }), fc.array(param, { maxLength: 4 }))
    .map(([select, params]) =>
      select === undefined ? params : ([['select', select], ...params] as [string, string][]),
    );
}

// --- the statement checker ----------------------------------------------------------------------

/**
 * Every bare word a planner writes. A request's names and values must never appear as bare words:
 * names are double-quoted, values are `$n` parameters, so a word outside this list means request
 * text became SQL.
 */
const PLANNER_WORDS = new Set(
  `select from where as and or not is null true false unknown distinct any all like ilike exists
  coalesce with limit offset order by asc desc nulls first last left join lateral on cast count
  json_agg to_json json_strip_nulls pg_catalog text bigint int json regconfig to_tsquery
  plainto_tsquery phraseto_tsquery websearch_to_tsquery _postgrest_t pgrst_source pgrst_e
  total page_total body insert into values default update set delete returning conflict do
  nothing excluded json_populate_record json_populate_recordset pgrst_body pgrst_pk location_key
  ctid array variadic cross json_to_record`
    .split(/\s+/)
    .filter(Boolean),
);

/** String literals a planner writes itself (JSON defaults of empty results). */
const PLANNER_LITERALS = new Set(["'[]'", "'null'"]);

const OPERATOR_CHARS = new Set([...'(),.[]:=<>~*@&|-+']);

/**
 * Problems with a planned statement, empty when it is one statement in which every name is
 * quoted and every value is a parameter `$1…$n` (each used): no `;`, no comments, no string
 * literal of the request's, no bare word a planner does not write.
 */
export function statementProblems(sql: string, paramCount: number): string[] {
  const problems: string[] = [];
  const used = new Set<number>();
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === '"') {
      let j = i + 1;
      for (;;) {
        const close = sql.indexOf('"', j);
        if (close < 0) {
          problems.push(`unterminated quoted name at ${i}`);
          return problems;
        }
        if (sql[close + 1] === '"') j = close + 2;
        else {
          j = close + 1;
          break;
        }
      }
      if (sql.slice(i, j).includes('\u0000')) problems.push(`a NUL byte in a name at ${i}`);
      i = j;
    } else if (ch === "'") {
      const close = sql.indexOf("'", i + 1);
      const literal = close < 0 ? sql.slice(i) : sql.slice(i, close + 1);
      if (!PLANNER_LITERALS.has(literal)) problems.push(`string literal ${literal.slice(0, 40)}`);
      i = close < 0 ? sql.length : close + 1;
    } else if (ch === '$') {
      const m = /^\$(\d+)/.exec(sql.slice(i, i + 12));
      const n = m ? Number(m[1]) : 0;
      if (!m || n < 1 || n > paramCount) problems.push(`bad parameter at ${i}`);
      else used.add(n);
      i += m ? m[0].length : 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i, i + 80))![0];
      if (!PLANNER_WORDS.has(word) && !/^pgrst_[a-z_]+\d*$/.test(word)) {
        problems.push(`bare word ${word}`);
      }
      i += word.length;
    } else if (/[0-9]/.test(ch)) {
      const m = /^\d+(\.\d+)?(e[+-]?\d+)?/i.exec(sql.slice(i, i + 40))!;
      i += m[0].length;
    } else if (/\s/.test(ch)) {
      i++;
    } else if (sql.startsWith('--', i) || sql.startsWith('/*', i)) {
      problems.push(`comment at ${i}`);
      i += 2;
    } else if (OPERATOR_CHARS.has(ch)) {
      i++;
    } else {
      problems.push(`character ${JSON.stringify(ch)} at ${i}`);
      i++;
    }
  }
  for (let n = 1; n <= paramCount; n++) if (!used.has(n)) problems.push(`parameter $${n} unused`);
  return problems;
}
