// What the Auth handlers share: settings derived from the stack, the database pool, the rate
// limits, the mailer, and the two operations most handlers end with (issue a session, resolve the
// caller).
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import type { StackContext } from '../context.ts';
import type { Claims } from '../jwt.ts';
import { sendMail, type OutgoingMail } from '../mail/send.ts';
import { AuthLimits } from './limits.ts';
import { forbidden } from './errors.ts';
import { requireClaims } from './request.ts';
import {
  createSession,
  findSession,
  sessionAmr,
  type AuthMethod,
  type SessionRow,
} from './sessions.ts';
import { sessionResponse, type SessionResponse, type TokenSettings } from './tokens.ts';
import { findUserById, isUuid, listIdentities, userJson, type Db, type UserRow } from './users.ts';

export interface AuthDeps {
  ctx: StackContext;
  pool: pg.Pool;
  tokens: TokenSettings;
  /** Public base URL of this service, e.g. http://127.0.0.1:54321/auth/v1 */
  externalUrl: string;
  /** Per-client budgets and per-address mail frequency (config.toml's, or the stack's override). */
  limits: AuthLimits;
  /** Sends Auth's mail over SMTP to the stack's mail catcher. */
  mail: (message: OutgoingMail) => Promise<void>;
}

export function makeDeps(ctx: StackContext): AuthDeps {
  const externalUrl = `${ctx.settings.apiUrl}/auth/v1`;
  const { settings } = ctx;
  return {
    ctx,
    pool: ctx.pool,
    externalUrl,
    limits: new AuthLimits(settings.project.auth.rateLimit, settings.project.auth.maxFrequencyMs),
    mail: (message) => sendMail({ host: settings.host, port: settings.ports.smtp }, message),
    tokens: {
      issuer: externalUrl,
      jwtSecret: ctx.settings.jwtSecret,
      jwtExpiry: ctx.settings.project.auth.jwtExpiry,
    },
  };
}

/** Runs `fn` in one transaction, so a user and its session appear together or not at all. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Builds the session response for an existing session and refresh token. */
export async function sessionFor(
  deps: AuthDeps,
  db: Db,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<SessionResponse> {
  const user = await findUserById(db, userId);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const session = await findSession(db, sessionId);
  const amr = await sessionAmr(db, sessionId);
  return sessionResponse(
    deps.tokens,
    user,
    userJson(user, await listIdentities(db, userId)),
    { id: sessionId, aal: session?.aal ?? 'aal1', amr },
    refreshToken,
  );
}

/** Starts a new session for the user (sign-in, sign-up, recovery) and returns the response. */
export async function startSession(deps: AuthDeps, db: Db, userId: string, method: AuthMethod) {
  const { sessionId, refreshToken } = await createSession(db, userId, method);
  return sessionFor(deps, db, userId, sessionId, refreshToken);
}

export interface Caller {
  claims: Claims;
  user: UserRow;
  /** Null when the JWT carries no session_id (e.g. one minted by hand). */
  session: SessionRow | null;
}

/** GoTrue's requireAuthentication + maybeLoadUserOrSession. */
export async function authenticate(deps: AuthDeps, req: IncomingMessage): Promise<Caller> {
  const claims = await requireClaims(req, deps.tokens.jwtSecret);
  if (typeof claims.sub !== 'string' || !claims.sub) {
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  }
  const user = await findUserById(deps.pool, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  let session: SessionRow | null = null;
  const sessionId = claims.session_id;
  // GoTrue parses the claim as a UUID; anything else is a bad token, not a database error.
  if (
    sessionId !== undefined &&
    sessionId !== '' &&
    (typeof sessionId !== 'string' || !isUuid(sessionId))
  ) {
    throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
  }
  if (typeof sessionId === 'string' && sessionId) {
    session = await findSession(deps.pool, sessionId);
    if (!session)
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  return { claims, user, session };
}
