// The page a read asks for: `limit`/`offset` in the query, a `Range` header, `[api] max_rows`.
import type { IncomingMessage } from 'node:http';
import { RestError } from './errors.ts';
import { rangeFromHeader } from './negotiation.ts';
import type { parseQueryParams } from './query-grammar.ts';

/** The offset and the smallest limit of the query's, the Range header's and max_rows. */
export function limitsOf(
  levels: ReturnType<typeof parseQueryParams>['levels'],
  req: IncomingMessage,
  maxRows: number | null,
): { offset: number; limit?: number } {
  const root = levels.get('') ?? { predicates: [] };
  const range = rangeFromHeader(req);
  if (root.limit !== undefined && root.limit < 0) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'Limit should be greater than or equal to zero.',
    );
  }
  if (root.offset !== undefined && root.offset < 0) {
    throw new RestError(
      400,
      'PGRST100',
      '"failed to parse offset parameter"',
      'offset must be zero or more',
    );
  }
  const offset = root.offset ?? range?.offset ?? 0;
  const limits = [
    root.limit,
    range && root.offset === undefined ? range.limit : undefined,
    maxRows ?? undefined,
  ].filter((n): n is number => n !== undefined);
  return { offset, limit: limits.length ? Math.min(...limits) : undefined };
}
