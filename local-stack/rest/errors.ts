// PostgREST's error shape (`{code, message, details, hint}`) and its SQLSTATE → HTTP status mapping,
// so supabase-js sees the same `error` objects and statuses as against the real service.

export interface ErrorBody {
  code: string;
  message: string;
  details: unknown;
  hint: string | null;
}

/** An error answered to the client as-is: PostgREST's own `PGRSTxxx` errors and mapped database errors. */
export class RestError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public details: unknown = null,
    public hint: string | null = null,
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

/** PGRST100: a query parameter that does not follow PostgREST's grammar. */
export function queryParamError(param: string, value: string, details: string): RestError {
  return new RestError(400, 'PGRST100', `"failed to parse ${param} parameter (${value})"`, details);
}

/** PGRST116: a single object was asked for (`vnd.pgrst.object+json`) and the result is not one row. */
export function singularityError(rows: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
}

/** Fields node-postgres puts on errors that come from the server. */
interface PgServerError {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isPgServerError(err: unknown): err is PgServerError {
  return (
    err instanceof Error &&
    typeof (err as PgServerError).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((err as PgServerError).code ?? '')
  );
}

/** `mapSQLtoHTTP` of PostgREST v14: `authed` is false only for the anonymous role. */
export function statusForSqlState(code: string, message: string, authed: boolean): number {
  const prefix = code.slice(0, 2);
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '21000':
      // pg-safeupdate's refusal is the client's fault; other cardinality errors are the server's.
      return message.endsWith('requires a WHERE clause') ? 400 : 500;
    case '22023':
      return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
    case '53400':
      return 500;
    case '57P01':
      return 503;
    case 'P0001':
      return 400;
    case '42883':
      return message.startsWith('function xmlagg(') ? 406 : 404;
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return authed ? 403 : 401;
  }
  if (prefix === 'PT') {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  switch (prefix) {
    case '08':
      return 503;
    case '09':
      return 500;
    case '0L':
    case '0P':
      return 403;
    case '25':
      return 500;
    case '28':
      return 403;
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
    case '53':
      return 503;
  }
  return 400;
}

/** Turns anything thrown while serving a request into the error PostgREST would answer. */
export function toRestError(err: unknown, authed: boolean): RestError {
  if (err instanceof RestError) return err;
  if (isPgServerError(err)) {
    const code = err.code as string;
    const status = statusForSqlState(code, err.message, authed);
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    return new RestError(status, code, err.message, err.detail ?? null, err.hint ?? null, headers);
  }
  // A fault of this stand-in rather than of the database: answer it plainly instead of blaming
  // the connection.
  if (err instanceof TypeError || err instanceof RangeError || err instanceof URIError) {
    return new RestError(500, 'PGRSTX00', 'Internal error', err.message);
  }
  // A lost connection or a pool failure: PostgREST answers 503 and retries the connection.
  return new RestError(
    503,
    'PGRST000',
    'Database connection error. Retrying the connection.',
    err instanceof Error ? err.message : String(err),
  );
}
