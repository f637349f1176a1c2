// Parses postgres_changes `filter` strings (`column=op.value`, `col=in.(a,b)`, several conditions
// joined by commas) into the conditions Supabase Realtime supports.
const FILTER_OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterCondition {
  column: string;
  op: FilterOperator;
  /** A single value, or the list for `in`. */
  value: string | string[];
}

/** Supabase caps `in` lists at 100 values. */
export const MAX_IN_VALUES = 100;

export class FilterParseError extends Error {}

/** Splits on commas that are not inside parentheses or double quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0 && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

const unquote = (v: string) =>
  v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;

function parseInList(raw: string, segment: string): string[] {
  const m = /^\((.*)\)$/s.exec(raw.trim());
  if (!m)
    throw new FilterParseError(`\`in\` filter value must be wrapped by parentheses: ${segment}`);
  const values = m[1].trim() === '' ? [] : splitTopLevel(m[1]).map((v) => unquote(v.trim()));
  if (values.length > MAX_IN_VALUES) {
    throw new FilterParseError(`too many values for \`in\` filter. Maximum is ${MAX_IN_VALUES}`);
  }
  return values;
}

/** Returns the AND-ed conditions; an empty or blank filter means "no filter". */
export function parseFilter(filter: string | null | undefined): FilterCondition[] {
  if (filter === null || filter === undefined || filter.trim() === '') return [];
  return splitTopLevel(filter).map((segment) => {
    const trimmed = segment.trim();
    const m = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(trimmed);
    if (!m) throw new FilterParseError(`${JSON.stringify(trimmed)}`);
    const column = unquote(m[1].trim());
    const op = m[2] as FilterOperator;
    if (!FILTER_OPERATORS.includes(op)) {
      throw new FilterParseError(`unsupported operator \`${m[2]}\` in ${JSON.stringify(trimmed)}`);
    }
    if (column === '') throw new FilterParseError(`missing column in ${JSON.stringify(trimmed)}`);
    const value = op === 'in' ? parseInList(m[3], trimmed) : unquote(m[3]);
    return { column, op, value };
  });
}

/** SQL comparison for an operator (the caller casts both sides to the column's type). */
export const OPERATOR_SQL: Record<Exclude<FilterOperator, 'in'>, string> = {
  eq: '=',
  neq: '<>',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

/**
 * Types whose text output is canonical (equal values print alike), so a filter value brought to
 * that form can be compared with the row's replicated text without asking Postgres.
 */
const CANONICAL_TEXT_TYPES = new Set(['text', 'varchar', 'int2', 'int4', 'int8', 'uuid', 'bool']);
const INT_TYPES = new Set(['int2', 'int4', 'int8']);

/**
 * A filter value as Postgres would print it after casting to `typname`, or undefined when the
 * input is one this function does not reproduce exactly (Postgres then decides).
 */
export function canonicalText(typname: string, raw: string): string | undefined {
  if (typname === 'text' || typname === 'varchar') return raw;
  if (INT_TYPES.has(typname)) {
    const m = /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(raw);
    return m ? BigInt(m[1] + m[2].replace(/_/g, '')).toString() : undefined;
  }
  if (typname === 'uuid') {
    const hex = raw.replace(/^\{(.*)\}$/s, '$1').replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) return undefined;
    const h = hex.toLowerCase();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  if (typname === 'bool') {
    // boolin: trimmed, case-insensitive, any unambiguous prefix of true/false/yes/no, on/off, 1/0.
    const v = raw.trim().toLowerCase();
    if (!v) return undefined;
    if ('true'.startsWith(v) || 'yes'.startsWith(v) || v === 'on' || v === '1') return 't';
    if ('false'.startsWith(v) || 'no'.startsWith(v) || v === 'off' || v === 'of' || v === '0')
      return 'f';
    return undefined;
  }
  return undefined;
}

/**
 * Evaluates one condition against the row's replicated text where that is exact (equality and
 * `in` on canonical-text types, order on integers); undefined leaves it to Postgres.
 */
export function matchWithoutDatabase(
  typname: string,
  condition: Pick<FilterCondition, 'op' | 'value'>,
  rowText: string,
): boolean | undefined {
  if (!CANONICAL_TEXT_TYPES.has(typname)) return undefined;
  const { op, value } = condition;
  if (op === 'in') {
    const list = Array.isArray(value) ? value : [value];
    const canon = list.map((v) => canonicalText(typname, v));
    if (canon.some((v) => v === undefined)) return undefined;
    return canon.includes(rowText);
  }
  if (Array.isArray(value)) return undefined;
  const canon = canonicalText(typname, value);
  if (canon === undefined) return undefined;
  if (op === 'eq') return rowText === canon;
  if (op === 'neq') return rowText !== canon;
  if (!INT_TYPES.has(typname) || !/^-?\d+$/.test(rowText)) return undefined;
  const a = BigInt(rowText);
  const b = BigInt(canon);
  if (op === 'lt') return a < b;
  if (op === 'lte') return a <= b;
  if (op === 'gt') return a > b;
  return a >= b;
}
