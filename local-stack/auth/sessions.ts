// Sessions and rotating refresh tokens in auth.sessions / auth.refresh_tokens /
// auth.mfa_amr_claims, following GoTrue's rotation and reuse-interval rules.
import { randomInt, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Db } from './users.ts';

/** How the session was established; becomes the access token's `amr` method. */
export type AuthMethod = 'password' | 'recovery' | 'otp';

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  aal: string | null;
}

export interface AmrEntry {
  method: string;
  timestamp: number;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** GoTrue's classic refresh token: 12 random alphanumeric characters. */
function newRefreshToken(): string {
  let token = '';
  for (let i = 0; i < 12; i++) token += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return token;
}

export interface IssuedTokens {
  sessionId: string;
  refreshToken: string;
}

export async function createSession(
  db: Db,
  userId: string,
  method: AuthMethod,
): Promise<IssuedTokens> {
  const sessionId = randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at)
     values ($1, $2, now(), now(), 'aal1', null)`,
    [sessionId, userId],
  );
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values ($1, $2, now(), now(), $3)`,
    [randomUUID(), sessionId, method],
  );
  const refreshToken = await insertRefreshToken(db, userId, sessionId, null);
  return { sessionId, refreshToken };
}

async function insertRefreshToken(
  db: Db,
  userId: string,
  sessionId: string,
  parent: string | null,
) {
  const token = newRefreshToken();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  );
  return token;
}

export async function findSession(db: Db, sessionId: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `select id, user_id, created_at, aal from auth.sessions where id = $1`,
    [sessionId],
  );
  return rows[0] ?? null;
}

export async function sessionAmr(db: Db, sessionId: string): Promise<AmrEntry[]> {
  const { rows } = await db.query<{ method: string; at: Date }>(
    `select authentication_method as method, created_at as at from auth.mfa_amr_claims
     where session_id = $1 order by created_at desc`,
    [sessionId],
  );
  return rows.map((r) => ({ method: r.method, timestamp: Math.floor(r.at.getTime() / 1000) }));
}

export type RefreshOutcome =
  | { ok: true; userId: string; sessionId: string; refreshToken: string }
  | { ok: false; reason: 'not_found' | 'already_used' | 'session_not_found' };

interface TokenRow {
  token: string;
  user_id: string;
  revoked: boolean;
  session_id: string | null;
  updated_at: Date;
  now: Date;
}

/**
 * Exchanges a refresh token for its successor inside the caller's transaction. A revoked token
 * presented within `reuseIntervalSeconds` of its rotation yields the session's current token (so
 * racing tabs both succeed); later, reuse revokes the whole token family, as GoTrue does.
 */
export async function rotateRefreshToken(
  client: pg.PoolClient,
  presented: string,
  reuseIntervalSeconds: number,
): Promise<RefreshOutcome> {
  const { rows } = await client.query<TokenRow>(
    `select token, user_id, revoked, session_id, updated_at, now() as now
     from auth.refresh_tokens where token = $1 for update`,
    [presented],
  );
  const row = rows[0];
  if (!row) return { ok: false, reason: 'not_found' };
  if (!row.session_id) return { ok: false, reason: 'session_not_found' };
  // Lock the session so concurrent refreshes of one session serialise.
  const session = await client.query(`select id from auth.sessions where id = $1 for update`, [
    row.session_id,
  ]);
  if (!session.rowCount) return { ok: false, reason: 'session_not_found' };

  if (row.revoked) {
    const sinceRotation = (row.now.getTime() - row.updated_at.getTime()) / 1000;
    if (sinceRotation < reuseIntervalSeconds) {
      const active = await client.query<{ token: string }>(
        `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
        [row.session_id],
      );
      if (active.rows[0]) {
        return {
          ok: true,
          userId: row.user_id,
          sessionId: row.session_id,
          refreshToken: active.rows[0].token,
        };
      }
    }
    await client.query(
      `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false`,
      [row.session_id],
    );
    return { ok: false, reason: 'already_used' };
  }

  await client.query(
    `update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1`,
    [presented],
  );
  const next = await insertRefreshToken(client, row.user_id, row.session_id, presented);
  await client.query(
    `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`,
    [row.session_id],
  );
  return { ok: true, userId: row.user_id, sessionId: row.session_id, refreshToken: next };
}

export type LogoutScope = 'global' | 'local' | 'others';

/** Deletes sessions (their refresh tokens cascade) for the given scope. */
export async function endSessions(
  db: Db,
  userId: string,
  sessionId: string | null,
  scope: LogoutScope,
) {
  if (scope === 'local' && sessionId) {
    await db.query(`delete from auth.sessions where id = $1`, [sessionId]);
  } else if (scope === 'others') {
    await db.query(`delete from auth.sessions where user_id = $1 and id is distinct from $2`, [
      userId,
      sessionId,
    ]);
  } else {
    await db.query(`delete from auth.sessions where user_id = $1`, [userId]);
  }
}
