// Parses postgres_changes `filter` strings (`column=op.value`, `col=in.(a,b)`, several conditions
// joined by commas) into the conditions Supabase Realtime supports.
export const FILTER_OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'] as const;
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
