// Test support for the REST fuzz tests (local-stack/rest/query-grammar.fuzz.test.ts beside the
// grammar, and tests/conformance/rest-fuzz.test.ts through real Postgres): fast-check arbitraries
// of PostgREST query strings — well-formed, nearly well-formed and hostile — and a checker that a
// planned statement is a single statement whose names are all quoted and whose values are all `$n`.
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

/**
 * `wellFormed`: what postgrest-js could send (names of the schema, known operators with fitting
 * values), so the request reaches Postgres; `hostile`: anything, mostly refused while parsing.
 */
type FuzzMode = 'wellFormed' | 'hostile';

export interface FuzzSchema {
  columns: readonly string[];
  /** Tables the root can embed (used by well-formed queries). */
  embeddable: readonly string[];
  /** Any table names, embeddable or not (used by hostile queries). */
  relations: readonly string[];
}

const relationsOf = (schema: FuzzSchema, mode: FuzzMode) =>
  mode === 'wellFormed' ? schema.embeddable : schema.relations;

/** A name: one of the schema's, sometimes double-quoted; in hostile mode also unknown or free text. */
function nameArb(known: readonly string[], mode: FuzzMode = 'hostile'): fc.Arbitrary<string> {
  const plain =
    mode === 'wellFormed'
      ? fc.constantFrom(...known)
      : fc.oneof(
          { weight: 10, arbitrary: fc.constantFrom(...known) },
          { weight: 1, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/) },
          { weight: 2, arbitrary: hostileText(12) },
        );
  return fc.oneof({ weight: 6, arbitrary: plain }, { weight: 1, arbitrary: plain.map(quoteName) });
}

const TYPES = [
  'text',
  'int',
  'bigint',
  'int[]',
  'char',
  'TEXT',
  'jsonb',
  'date',
  'bool',
  'numeric',
];

/** Casts: type names; in hostile mode also words that could continue a statement, and free text. */
const castArb = (mode: FuzzMode) =>
  mode === 'wellFormed'
    ? fc.constantFrom(...TYPES)
    : fc.oneof(
        fc.constantFrom(...TYPES),
        fc
          .tuple(
            fc.constantFrom('text', 'int'),
            fc.array(
              fc.constantFrom(' from', ' pg_roles', ' as', ' items', ' union', ' all', ' select'),
              { minLength: 1, maxLength: 7 },
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

/** `select=` values: trees of columns, aliases, casts, JSON paths, embeds and spreads. */
function selectArb(schema: FuzzSchema, mode: FuzzMode = 'hostile'): fc.Arbitrary<string> {
  const name = nameArb(schema.columns, mode);
  const alias = fc.option(
    nameArb(['x', 'alias'], mode).map((a) => `${a}:`),
    { nil: '' },
  );
  const cast = fc.option(
    castArb(mode).map((c) => `::${c}`),
    { nil: '' },
  );
  const column = fc.tuple(alias, name, jsonPathArb(name), cast).map((parts) => parts.join(''));
  const hints =
    mode === 'wellFormed'
      ? fc.constantFrom('', '', '!inner', '!left')
      : fc.constantFrom('', '!inner', '!left', '!fk', '!inner!fk', '!!');
  const relations = relationsOf(schema, mode);
  const tree = fc.letrec<{ item: string; list: string }>((tie) => ({
    item: fc.oneof(
      { depthSize: 'small' },
      column,
      fc.constant('*'),
      ...(relations.length
        ? [
            fc
              .tuple(
                alias,
                fc.constantFrom('', '', '...'),
                nameArb(relations, mode),
                hints,
                tie('list'),
              )
              .map(
                ([a, spread, rel, hint, list]) =>
                  `${spread ? '' : a}${spread}${rel}${hint}(${list})`,
              ),
          ]
        : []),
    ),
    // Hand-written URLs may space the list out; postgrest-js strips that whitespace.
    list: fc
      .tuple(fc.array(tie('item'), { minLength: 1, maxLength: 4 }), fc.constantFrom(',', ', '))
      .map(([items, separator]) => items.join(separator)),
  }));
  if (mode === 'wellFormed') return tree.list;
  return fc.oneof(
    { weight: 8, arbitrary: tree.list },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: hostileText(60) },
  );
}

const QUANTIFIABLE = ['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'];
const OTHER_OPERATORS = ['neq', 'isdistinct', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'];
const FTS_OPERATORS = ['fts', 'plfts', 'phfts', 'wfts'];

/** A value that fits the operators' grammar (not necessarily the column's type). */
const plainValue = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9*%]{0,6}$/) },
  { weight: 1, arbitrary: fc.constantFrom('1', '-2', '{a,b}', '[1,5)', '{"k":1}', 'é"x') },
);

/** The right-hand side of `col=…`: `[not.]op[(modifier)].value`. */
function conditionArb(mode: FuzzMode = 'hostile'): fc.Arbitrary<string> {
  const not = fc.constantFrom('', '', 'not.');
  const wellFormed = fc.oneof(
    fc
      .tuple(
        not,
        fc.constantFrom(...QUANTIFIABLE),
        fc.constantFrom('', '', '(any)', '(all)'),
        plainValue,
      )
      .map(([n, op, q, v]) =>
        q ? `${n}${op}${q}.{${v.replace(/[{}",]/g, '')},b}` : `${n}${op}.${v}`,
      ),
    fc
      .tuple(not, fc.constantFrom(...OTHER_OPERATORS), plainValue)
      .map(([n, op, v]) => `${n}${op}.${v}`),
    fc
      .tuple(
        not,
        fc.constantFrom(...FTS_OPERATORS),
        fc.constantFrom('', '(english)', '(simple)'),
        plainValue,
      )
      .map(([n, op, config, v]) => `${n}${op}${config}.${v}`),
    fc
      .tuple(not, fc.constantFrom('null', 'not_null', 'true', 'false', 'unknown', 'NULL'))
      .map(([n, v]) => `${n}is.${v}`),
    fc
      .tuple(not, fc.array(fc.oneof(plainValue, plainValue.map(quoteName)), { maxLength: 3 }))
      .map(([n, values]) => `${n}in.(${values.join(',')})`),
  );
  if (mode === 'wellFormed') return wellFormed;
  return fc.oneof(
    { weight: 4, arbitrary: wellFormed },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('', 'not.'),
          fc.oneof(
            fc.constantFrom(...QUANTIFIABLE, ...OTHER_OPERATORS, ...FTS_OPERATORS, 'in', 'is'),
            hostileText(6),
          ),
          fc.constantFrom('', '(any)', '(all)', '(english)', '(x'),
          hostileText(20),
        )
        .map(([n, op, mod, value]) => `${n}${op}${mod}.${value}`),
    },
    { weight: 1, arbitrary: hostileText(30) },
  );
}

/** `or=`/`and=` values: `(cond,cond,…)` with nested trees. */
function logicArb(schema: FuzzSchema, mode: FuzzMode = 'hostile'): fc.Arbitrary<string> {
  const name = nameArb(schema.columns, mode);
  // Inside a tree, values with `,` or `)` must be double-quoted; plain ones are kept simple.
  const condition = conditionArb(mode).filter(
    (c) =>
      mode === 'hostile' ||
      (!/[,()"]/.test(c.replace(/^(not\.)?in\.\(.*\)$/, '')) && !c.includes('"')),
  );
  const tree = fc.letrec<{ node: string; group: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.tuple(name, jsonPathArb(name), condition).map(([c, p, cond]) => `${c}${p}.${cond}`),
      fc
        .tuple(fc.constantFrom('', 'not.'), fc.constantFrom('and', 'or'), tie('group'))
        .map(([not, op, group]) => `${not}${op}${group}`),
    ),
    group: fc
      .array(tie('node'), { minLength: 1, maxLength: 4 })
      .map((nodes) => `(${nodes.join(',')})`),
  }));
  if (mode === 'wellFormed') return tree.group;
  return fc.oneof({ weight: 8, arbitrary: tree.group }, { weight: 1, arbitrary: hostileText(40) });
}

/** `order=` values. */
function orderArb(schema: FuzzSchema, mode: FuzzMode = 'hostile'): fc.Arbitrary<string> {
  const name = nameArb(schema.columns, mode);
  const term = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.tuple(name, jsonPathArb(name)).map(([n, p]) => n + p) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(nameArb(relationsOf(schema, mode), mode), name)
            .map(([rel, col]) => `${rel}(${col})`),
        },
      ),
      mode === 'wellFormed'
        ? fc.constantFrom('', '.asc', '.desc')
        : fc.constantFrom('', '.asc', '.desc', '.sideways'),
      fc.constantFrom('', '.nullsfirst', '.nullslast'),
    )
    .map((parts) => parts.join(''));
  const terms = fc.array(term, { minLength: 1, maxLength: 3 }).map((t) => t.join(','));
  if (mode === 'wellFormed') return terms;
  return fc.oneof({ weight: 8, arbitrary: terms }, { weight: 1, arbitrary: hostileText(30) });
}

/** Filters, logic trees, order and paging, each possibly on an embedded level (`prefix`). */
function levelParams(
  schema: FuzzSchema,
  mode: FuzzMode,
  prefix: fc.Arbitrary<string>,
): fc.Arbitrary<[string, string]> {
  const name = nameArb(schema.columns, mode);
  const paging =
    mode === 'wellFormed'
      ? fc.nat(20).map(String)
      : fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), hostileText(8));
  const params: fc.Arbitrary<[string, string]>[] = [
    fc
      .tuple(prefix, name, jsonPathArb(name), conditionArb(mode))
      .map(([p, c, path, cond]): [string, string] => [`${p}${c}${path}`, cond]),
    fc
      .tuple(prefix, fc.constantFrom('or', 'and', 'not.or', 'not.and'), logicArb(schema, mode))
      .map(([p, op, tree]): [string, string] => [`${p}${op}`, tree]),
    fc.tuple(prefix, orderArb(schema, mode)).map(([p, o]): [string, string] => [`${p}order`, o]),
    fc
      .tuple(prefix, fc.constantFrom('limit', 'offset'), paging)
      .map(([p, k, v]): [string, string] => [`${p}${k}`, v]),
  ];
  if (mode === 'hostile') params.push(fc.tuple(hostileText(10), hostileText(20)));
  return fc.oneof(...params);
}

/**
 * Well-formed: the embeds are chosen first, so the select embeds them and the dotted parameters
 * name only embedded levels, as an application's queries do.
 */
function wellFormedArb(schema: FuzzSchema): fc.Arbitrary<[string, string][]> {
  return fc.subarray([...schema.embeddable]).chain((embeds) => {
    const columns = fc
      .array(selectArb({ ...schema, embeddable: [] }, 'wellFormed'), { maxLength: 2 })
      .map((lists) => lists.join(','));
    const embedItems = fc.tuple(
      ...embeds.map((rel) =>
        fc
          .tuple(
            fc.constantFrom('', '', '!inner', '!left'),
            selectArb({ ...schema, embeddable: [] }, 'wellFormed'),
          )
          .map(([hint, list]) => `${rel}${hint}(${list})`),
      ),
    );
    const select = fc
      .tuple(columns, embedItems)
      .map(([cols, items]) => [cols || '*', ...items].join(','));
    const prefix = embeds.length
      ? fc.option(fc.constantFrom(...embeds.map((r) => `${r}.`)), { nil: '', freq: 2 })
      : fc.constant('');
    return fc
      .tuple(select, fc.array(levelParams(schema, 'wellFormed', prefix), { maxLength: 3 }))
      .map(([sel, rest]): [string, string][] => [['select', sel], ...rest]);
  });
}

/** Anything: select trees with unknown names and free text, parameters of every kind. */
function hostileArb(schema: FuzzSchema): fc.Arbitrary<[string, string][]> {
  const prefix = fc.option(
    nameArb(schema.relations, 'hostile').map((r) => `${r}.`),
    { nil: '', freq: 4 },
  );
  return fc
    .tuple(
      fc.option(selectArb(schema, 'hostile'), { nil: undefined }),
      fc.array(levelParams(schema, 'hostile', prefix), { maxLength: 3 }),
    )
    .map(([select, rest]) =>
      select === undefined ? rest : ([['select', select], ...rest] as [string, string][]),
    );
}

/** A query string's parameters, well-formed (so it reaches Postgres) or hostile, about half each. */
export function queryArb(schema: FuzzSchema): fc.Arbitrary<[string, string][]> {
  return fc.oneof(wellFormedArb(schema), hostileArb(schema));
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
  ctid array variadic cross json_to_record set_config current_setting nullif string_agg
  json_object_keys substring length chr`
    .split(/\s+/)
    .filter(Boolean),
);

/** String literals a planner writes itself (defaults of empty results, the upsert counter). */
const PLANNER_LITERALS = new Set(["'[]'", "'null'", "''", "'pgrst.upsert_updated'"]);

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
