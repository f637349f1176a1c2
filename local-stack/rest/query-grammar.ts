// Parses PostgREST's query-string grammar as postgrest-js writes it: `select=` trees with aliases,
// casts, JSON paths and embeds; `col=op.value` filters with `not.`; `or=(…)`/`and=(…)` trees;
// `order=`; and the dotted keys that target embedded resources. Pure: no SQL, no schema.
import { nestingDepth } from '../http.ts';
import { queryParamError, RestError } from './errors.ts';

export type JsonStep = { arrow: '->' | '->>'; key: string };

/**
 * A validated `::type` of a select item: one type name (PostgreSQL's own spelling, lower case),
 * an optional length for the SQL types whose bare keyword implies one (`char` is `char(1)`), and
 * `[]`. Planners quote the name, so a cast can never carry SQL of its own.
 */
export interface TypeName {
  name: string;
  length?: number;
  array: boolean;
}

interface ColumnItem {
  kind: 'column';
  name: string;
  alias?: string;
  jsonPath: JsonStep[];
  cast?: TypeName;
}

export interface EmbedItem {
  kind: 'embed';
  relation: string;
  alias?: string;
  hint?: string;
  inner: boolean;
  /** `...rel(cols)`: the related row's columns join the parent's (to-one relationships only). */
  spread: boolean;
  select: SelectItem[];
}

export type SelectItem = { kind: 'star' } | ColumnItem | EmbedItem;

export const OPERATORS = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  isdistinct: 'is distinct from',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
} as const;

type SimpleOperator = keyof typeof OPERATORS;
type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';
type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

type Condition =
  | { op: SimpleOperator; quantifier?: 'any' | 'all'; value: string }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: IsValue }
  | { op: FtsOperator; config?: string; value: string };

export interface Filter {
  kind: 'filter';
  column: string;
  jsonPath: JsonStep[];
  negate: boolean;
  condition: Condition;
}

export interface LogicTree {
  kind: 'logic';
  operator: 'and' | 'or';
  negate: boolean;
  children: (Filter | LogicTree)[];
}

export type Predicate = Filter | LogicTree;

export interface OrderTerm {
  /** `order=form(name)`: a column of a to-one embedded resource, by its name in `select`. */
  relation?: string;
  column: string;
  jsonPath: JsonStep[];
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Splits on `sep` at depth 0, honouring parentheses and double-quoted strings (one pass). */
export function splitTopLevel(input: string, sep = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === sep && depth === 0) {
      parts.push(input.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(input.slice(start));
  return parts;
}

/**
 * Removes whitespace outside double-quoted names in one pass, as postgrest-js does before sending
 * `select` (hand-written URLs may still carry it). Linear in the input, whatever it holds.
 */
function stripWhitespace(input: string, param: string): string {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (WHITESPACE.test(ch)) {
      if (i > start) out.push(input.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) throw queryParamError(param, input, 'unterminated double quote');
  if (start < input.length) out.push(input.slice(start));
  return out.join('');
}

const WHITESPACE = /\s/;

/**
 * Postgres cannot hold a NUL byte in a name (its protocol ends strings with one), so a name that
 * carries one is refused here rather than breaking the connection.
 */
function checkName(name: string, param: string, raw: string): string {
  if (name.includes('\u0000'))
    throw queryParamError(param, raw, 'a name must not contain a NUL byte');
  return name;
}

/** Embeds and logic trees are parsed recursively; this keeps hostile nesting off the stack. */
const MAX_NESTING = 100;

function checkNesting(param: string, value: string) {
  if (nestingDepth(value, '(', ')') > MAX_NESTING) {
    throw queryParamError(param, value, `nested deeper than ${MAX_NESTING} levels`);
  }
}

/** Removes surrounding double quotes and their backslash escapes. */
function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** Splits `data->a->>b` into the column and its JSON path. */
function parseFieldPath(
  field: string,
  param: string,
  raw: string,
): { name: string; jsonPath: JsonStep[] } {
  const parts = field.split(/(->>|->)/);
  const name = checkName(unquote(parts[0]), param, raw);
  if (!name) throw queryParamError(param, raw, `missing column name in "${field}"`);
  const jsonPath: JsonStep[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const key = checkName(unquote(parts[i + 1] ?? ''), param, raw);
    if (!key) throw queryParamError(param, raw, `missing JSON key after "${parts[i]}"`);
    jsonPath.push({ arrow: parts[i] as JsonStep['arrow'], key });
  }
  return { name, jsonPath };
}

/** One type name, optionally an array: letters, digits, `_` and `$`, as PostgREST reads a cast. */
const CAST = /^([A-Za-z_][A-Za-z0-9_$]*)(\[\])?$/;

/**
 * SQL's keyword spellings of built-in types and the `pg_type` names they stand for; a quoted
 * name must be the catalog's (`"int"` does not exist, `"char"` is another type than `char`).
 */
const TYPE_KEYWORDS: Record<string, { name: string; length?: number }> = {
  int: { name: 'int4' },
  integer: { name: 'int4' },
  smallint: { name: 'int2' },
  bigint: { name: 'int8' },
  real: { name: 'float4' },
  float: { name: 'float8' },
  decimal: { name: 'numeric' },
  dec: { name: 'numeric' },
  boolean: { name: 'bool' },
  char: { name: 'bpchar', length: 1 },
  character: { name: 'bpchar', length: 1 },
  nchar: { name: 'bpchar', length: 1 },
  bit: { name: 'bit', length: 1 },
};

/** Validates `::type` and names it as the catalog does. */
function parseCast(cast: string, param: string, raw: string): TypeName {
  const m = CAST.exec(cast);
  if (!m) throw queryParamError(param, raw, `invalid cast "${cast}"`);
  const lower = m[1].toLowerCase();
  const keyword = Object.prototype.hasOwnProperty.call(TYPE_KEYWORDS, lower)
    ? TYPE_KEYWORDS[lower]
    : { name: lower };
  return { ...keyword, array: Boolean(m[2]) };
}

/** Parses the `select` parameter into a tree. */
export function parseSelect(raw: string, param = 'select'): SelectItem[] {
  // postgrest-js strips whitespace outside quotes; do the same for hand-written URLs.
  const input = stripWhitespace(raw, param);
  if (input === '') return [{ kind: 'star' }];
  checkNesting(param, raw);
  return parseSelectList(input, param, raw);
}

function parseSelectList(input: string, param: string, raw: string): SelectItem[] {
  return splitTopLevel(input).map((part) => parseSelectItem(part, param, raw));
}

const AGGREGATE = /^(?:(?:[^.]+\.)?(?:sum|avg|max|min)|(?:[^.]+\.)?count)$/;

function parseSelectItem(part: string, param: string, raw: string): SelectItem {
  if (part === '') throw queryParamError(param, raw, 'unexpected empty item in select list');
  if (part === '*') return { kind: 'star' };
  let rest = part;
  let alias: string | undefined;
  // `alias:field` — a single colon; `::` is a cast.
  const aliasMatch = /^("(?:[^"\\]|\\.)*"|[^:"(]+):(?!:)/.exec(rest);
  if (aliasMatch) {
    alias = checkName(unquote(aliasMatch[1]), param, raw);
    rest = rest.slice(aliasMatch[0].length);
  }
  const spread = rest.startsWith('...');
  if (spread) rest = rest.slice(3);
  const paren = rest.indexOf('(');
  if (paren >= 0) {
    if (!rest.endsWith(')'))
      throw queryParamError(param, raw, `unbalanced parentheses in "${part}"`);
    const head = rest.slice(0, paren);
    const inside = rest.slice(paren + 1, -1);
    // `col::varchar(3)`: PostgREST's casts take no modifiers, and this is no embed either.
    if (/^[^"]*::/.test(head)) throw queryParamError(param, raw, `invalid cast in "${part}"`);
    const [relation, ...modifiers] = head.split('!');
    if (!relation) throw queryParamError(param, raw, `missing relation name in "${part}"`);
    // `count()`, `col.sum()`: aggregates, off on Supabase (db-aggregates-enabled = false).
    if (inside === '' && AGGREGATE.test(relation)) {
      throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
    }
    let inner = false;
    let hint: string | undefined;
    for (const m of modifiers) {
      if (m === 'inner') inner = true;
      else if (m === 'left') inner = false;
      else if (m && hint === undefined) hint = checkName(unquote(m), param, raw);
      else throw queryParamError(param, raw, `unexpected "!${m}" in "${part}"`);
    }
    if (spread && alias !== undefined) {
      throw queryParamError(param, raw, `a spread embed takes no alias in "${part}"`);
    }
    return {
      kind: 'embed',
      relation: checkName(unquote(relation), param, raw),
      alias,
      hint,
      inner,
      spread,
      // `embed()` selects nothing: the embed only filters (PostgREST leaves it out of the rows).
      select: inside === '' ? [] : parseSelectList(inside, param, raw),
    };
  }
  if (rest.includes(')')) throw queryParamError(param, raw, `unbalanced parentheses in "${part}"`);
  if (spread) throw queryParamError(param, raw, `"..." spreads an embedded resource: "${part}"`);
  let cast: TypeName | undefined;
  const castAt = rest.indexOf('::');
  if (castAt >= 0) {
    cast = parseCast(rest.slice(castAt + 2), param, raw);
    rest = rest.slice(0, castAt);
  }
  const { name, jsonPath } = parseFieldPath(rest, param, raw);
  return { kind: 'column', name, alias, jsonPath, cast };
}

const FTS = new Set(['fts', 'plfts', 'phfts', 'wfts']);
const QUANTIFIABLE = new Set(['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);

/** Parses `[not.]op.value` (the right-hand side of `col=…`, or the tail inside a logic tree). */
function parseCondition(
  value: string,
  param: string,
  inLogicTree = false,
): { negate: boolean; condition: Condition } {
  let rest = value;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  if (dot < 0) throw queryParamError(param, value, 'expected "operator.value"');
  const opToken = rest.slice(0, dot);
  let operand = rest.slice(dot + 1);
  if (inLogicTree) operand = unquote(operand);
  const m = /^([a-z]+)(?:\(([^)]*)\))?$/.exec(opToken);
  if (!m) throw queryParamError(param, value, `unknown operator "${opToken}"`);
  const [, op, modifier] = m;
  if (op === 'in') {
    if (!/^\(.*\)$/s.test(operand)) throw queryParamError(param, value, 'expected "in.(a,b,…)"');
    const inside = operand.slice(1, -1);
    const values = inside === '' ? [] : splitTopLevel(inside).map(unquote);
    return { negate, condition: { op: 'in', values } };
  }
  if (op === 'is') {
    const v = operand.toLowerCase();
    if (!['null', 'not_null', 'true', 'false', 'unknown'].includes(v)) {
      throw queryParamError(param, value, `"is" accepts null, not_null, true, false or unknown`);
    }
    return { negate, condition: { op: 'is', value: v as IsValue } };
  }
  if (FTS.has(op)) {
    return {
      negate,
      condition: { op: op as FtsOperator, config: modifier || undefined, value: operand },
    };
  }
  if (op in OPERATORS) {
    let quantifier: 'any' | 'all' | undefined;
    if (modifier !== undefined) {
      if (modifier !== 'any' && modifier !== 'all') {
        throw queryParamError(param, value, `unknown modifier "${modifier}"`);
      }
      // PostgREST quantifies only these; `is distinct from any(…)` is not even SQL.
      if (!QUANTIFIABLE.has(op)) {
        throw queryParamError(param, value, `"${op}" takes no (any)/(all) modifier`);
      }
      quantifier = modifier;
    }
    return { negate, condition: { op: op as SimpleOperator, quantifier, value: operand } };
  }
  throw queryParamError(param, value, `unknown operator "${op}"`);
}

/** A `col=op.value` filter. */
export function parseFilter(column: string, value: string): Filter {
  const { name, jsonPath } = parseFieldPath(column, column, value);
  const { negate, condition } = parseCondition(value, column);
  return { kind: 'filter', column: name, jsonPath, negate, condition };
}

/** The value of `or=`/`and=`: `(cond,cond,…)` where a cond is `col.op.v` or a nested tree. */
export function parseLogicTree(operator: 'and' | 'or', negate: boolean, value: string): LogicTree {
  const param = negate ? `not.${operator}` : operator;
  checkNesting(param, value);
  return parseGroup(operator, negate, value, param, value);
}

/** One `(…)` level. Only prefixes and suffixes are tested, so each level costs one split. */
function parseGroup(
  operator: 'and' | 'or',
  negate: boolean,
  group: string,
  param: string,
  raw: string,
): LogicTree {
  if (group.length < 2 || !group.startsWith('(') || !group.endsWith(')')) {
    throw queryParamError(param, raw, 'expected "(…)"');
  }
  const children = splitTopLevel(group.slice(1, -1)).map((part) =>
    parseLogicChild(part, param, raw),
  );
  return { kind: 'logic', operator, negate, children };
}

const NESTED_TREE = /^(not\.)?(and|or)\(/;

function parseLogicChild(part: string, param: string, raw: string): Predicate {
  const nested = NESTED_TREE.exec(part);
  if (nested && part.endsWith(')')) {
    const operator = nested[2] as 'and' | 'or';
    return parseGroup(operator, Boolean(nested[1]), part.slice(nested[0].length - 1), param, raw);
  }
  // `col.op.value` or `col->a.op.value`; the column ends at its first dot.
  let i = 0;
  if (part.startsWith('"')) i = part.indexOf('"', 1) + 1;
  const dot = part.indexOf('.', i);
  if (dot <= 0) throw queryParamError(param, raw, `expected "column.operator.value" in "${part}"`);
  const { name, jsonPath } = parseFieldPath(part.slice(0, dot), param, raw);
  const { negate, condition } = parseCondition(part.slice(dot + 1), param, true);
  return { kind: 'filter', column: name, jsonPath, negate, condition };
}

/** `order=a.desc.nullslast,b` */
export function parseOrder(value: string, param = 'order'): OrderTerm[] {
  return splitTopLevel(value).map((term) => {
    if (term === '') throw queryParamError(param, value, 'unexpected empty order term');
    const pieces = term.split('.');
    let end = pieces.length;
    let direction: OrderTerm['direction'];
    let nulls: OrderTerm['nulls'];
    const last = pieces[end - 1];
    if (end > 1 && (last === 'nullsfirst' || last === 'nullslast')) {
      nulls = last === 'nullsfirst' ? 'first' : 'last';
      end--;
    }
    const dir = pieces[end - 1];
    if (end > 1 && (dir === 'asc' || dir === 'desc')) {
      direction = dir;
      end--;
    }
    const field = pieces.slice(0, end).join('.');
    const related = /^([^()]+)\(([^()]+)\)$/.exec(field);
    if (field.includes('(') && !related) {
      throw queryParamError(param, value, `expected "relation(column)" in "${field}"`);
    }
    const { name, jsonPath } = parseFieldPath(related ? related[2] : field, param, value);
    return {
      relation: related ? checkName(unquote(related[1]), param, value) : undefined,
      column: name,
      jsonPath,
      direction,
      nulls,
    };
  });
}

/** Parses a non-negative integer parameter such as `limit` or `offset`. */
function parseCount(param: string, value: string): number {
  if (!/^-?\d+$/.test(value)) throw queryParamError(param, value, 'expected an integer');
  return Number(value);
}

/** `columns="a","b"` (postgrest-js quotes every name). */
export function parseColumns(value: string, param = 'columns'): string[] {
  const names = splitTopLevel(stripWhitespace(value, param)).map((n) =>
    checkName(unquote(n), param, value),
  );
  if (names.some((n) => n === ''))
    throw queryParamError(param, value, 'unexpected empty column name');
  return names;
}

/** Options of one level of the request tree (the root, or an embedded resource by its path). */
export interface LevelOptions {
  predicates: Predicate[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface QueryParams {
  select?: string;
  columns?: string[];
  onConflict?: string[];
  /** Keyed by the embed path joined with '.', '' for the root. */
  levels: Map<string, LevelOptions>;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict']);

/** Splits the query string into the request tree's options. `skip` names keys that are rpc arguments. */
export function parseQueryParams(
  search: URLSearchParams,
  skip: Set<string> = new Set(),
): QueryParams {
  const result: QueryParams = { levels: new Map() };
  const level = (path: string) => {
    let l = result.levels.get(path);
    if (!l) result.levels.set(path, (l = { predicates: [] }));
    return l;
  };
  level('');
  for (const [key, value] of search) {
    if (skip.has(key)) continue;
    if (key === 'select') result.select = value;
    else if (key === 'columns') result.columns = parseColumns(value);
    else if (key === 'on_conflict') result.onConflict = parseColumns(value, key);
    if (RESERVED.has(key)) continue;
    const segments = key.split('.');
    const last = segments[segments.length - 1];
    if (last === 'order' || last === 'limit' || last === 'offset') {
      const l = level(segments.slice(0, -1).join('.'));
      if (last === 'order') l.order = parseOrder(value, key);
      else if (last === 'limit') l.limit = parseCount(key, value);
      else l.offset = parseCount(key, value);
    } else if (last === 'or' || last === 'and') {
      const negate = segments[segments.length - 2] === 'not';
      const path = segments.slice(0, negate ? -2 : -1).join('.');
      level(path).predicates.push(parseLogicTree(last, negate, value));
    } else {
      // The column may carry a JSON path (`data->>a`), whose keys are not embed paths.
      const arrow = key.indexOf('->');
      const head = arrow >= 0 ? key.slice(0, arrow) : key;
      const dot = head.lastIndexOf('.');
      const path = dot >= 0 ? key.slice(0, dot) : '';
      const column = dot >= 0 ? key.slice(dot + 1) : key;
      level(path).predicates.push(parseFilter(column, value));
    }
  }
  return result;
}
