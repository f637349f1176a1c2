// The user store: SQL on auth.users and auth.identities with GoTrue's column names, so database
// triggers defined by migrations (e.g. creating public.profiles) fire as they do on Supabase.
import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type pg from 'pg';
import type { JsonObject } from './request.ts';

export type Db = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** GoTrue's single-tenant instance id. */
const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';
/** bcrypt.DefaultCost in Go, which GoTrue uses. */
const BCRYPT_COST = 10;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmed_at: Date | null;
  /** When the last sign-up confirmation mail went out (confirmations on). */
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  /** The address an e-mail change is waiting to be confirmed for ('' or null when none). */
  email_change: string | null;
  email_change_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: JsonObject | null;
  raw_user_meta_data: JsonObject | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  banned_until: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: JsonObject;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmed_at,
  confirmation_sent_at, recovery_sent_at, email_change, email_change_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, phone, phone_confirmed_at,
  banned_until, created_at, updated_at, deleted_at, is_anonymous`;

const hashPassword = (password: string) => bcrypt.hash(password, BCRYPT_COST);

/** Compares against bcrypt hashes from us or from pgcrypto's `crypt(…, gen_salt('bf'))` in seeds. */
export async function passwordMatches(user: UserRow, password: string): Promise<boolean> {
  if (!user.encrypted_password) return false;
  try {
    return await bcrypt.compare(password, user.encrypted_password);
  } catch {
    return false;
  }
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and is_sso_user = false
     order by created_at limit 1`,
    [email],
  );
  return rows[0] ?? null;
}

export async function listIdentities(db: Db, userId: string): Promise<IdentityRow[]> {
  return (await identitiesByUser(db, [userId])).get(userId) ?? [];
}

/** The identities of several users in one query, keyed by user id. */
export async function identitiesByUser(
  db: Db,
  userIds: string[],
): Promise<Map<string, IdentityRow[]>> {
  const { rows } = await db.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
     from auth.identities where user_id = any($1::uuid[]) order by created_at`,
    [userIds],
  );
  const byUser = new Map<string, IdentityRow[]>();
  for (const row of rows) {
    const list = byUser.get(row.user_id);
    if (list) list.push(row);
    else byUser.set(row.user_id, [row]);
  }
  return byUser;
}

export interface NewUser {
  email: string;
  password: string | null;
  userMetadata: JsonObject;
  appMetadata?: JsonObject;
  confirmed: boolean;
  /**
   * `admin`: created through the admin API, whose users GoTrue gives only the metadata asked for
   * (and an identity of sub and e-mail, never marked verified).
   */
  by?: 'signup' | 'admin';
}

/**
 * Inserts the user and its e-mail identity in one transaction-bound call sequence. As GoTrue's
 * sign-up does, the identity's claims (sub, email, email_verified, phone_verified) are merged into
 * user_metadata; the admin API leaves user_metadata as given.
 */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const id = randomUUID();
  const admin = user.by === 'admin';
  const identityData = {
    sub: id,
    email: user.email,
    email_verified: !admin && user.confirmed,
    phone_verified: false,
  };
  const appMetadata = { provider: 'email', providers: ['email'], ...user.appMetadata };
  const userMetadata = admin ? user.userMetadata : { ...user.userMetadata, ...identityData };
  const encrypted = user.password === null ? '' : await hashPassword(user.password);
  const { rows } = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at,
       confirmation_token, recovery_token, email_change_token_new, email_change)
     values ($1, $2, 'authenticated', 'authenticated', $3, $4, case when $5 then now() end,
       $6, $7, false, now(), now(), '', '', '', '')
     returning ${USER_COLUMNS}`,
    [INSTANCE_ID, id, user.email, encrypted, user.confirmed, appMetadata, userMetadata],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, 'email', now(), now(), now())`,
    [id, id, identityData],
  );
  return rows[0];
}

/** Merges `data` into a metadata column; a null value removes the key, as GoTrue's UpdateUserMetaData. */
async function mergeMetadata(
  db: Db,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  userId: string,
  data: JsonObject,
): Promise<void> {
  const removed = Object.keys(data).filter((k) => data[k] === null);
  const set = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
  await db.query(
    `update auth.users
     set ${column} = (coalesce(${column}, '{}'::jsonb) - $2::text[]) || $3::jsonb, updated_at = now()
     where id = $1`,
    [userId, removed, set],
  );
}

export const mergeUserMetadata = (db: Db, userId: string, data: JsonObject) =>
  mergeMetadata(db, 'raw_user_meta_data', userId, data);

export const mergeAppMetadata = (db: Db, userId: string, data: JsonObject) =>
  mergeMetadata(db, 'raw_app_meta_data', userId, data);

export async function setPassword(db: Db, userId: string, password: string): Promise<void> {
  const encrypted = await hashPassword(password);
  await db.query(
    `update auth.users set encrypted_password = $2, updated_at = now() where id = $1`,
    [userId, encrypted],
  );
}

/**
 * Changes the address (a confirmed e-mail change, or the admin API), ends any pending change and
 * its one-time tokens, and keeps the identity and user_metadata in step, as GoTrue's
 * ConfirmEmailChange does.
 */
export async function setEmail(db: Db, userId: string, email: string): Promise<void> {
  // `$2::text` everywhere: Postgres must deduce one type for the parameter (varchar vs text).
  await db.query(
    `update auth.users
     set email = $2::text, email_change = '', email_change_token_new = '',
         email_change_token_current = '', email_change_confirm_status = 0,
         email_confirmed_at = coalesce(email_confirmed_at, now()),
         raw_user_meta_data = case when raw_user_meta_data ? 'email'
           then jsonb_set(raw_user_meta_data, '{email}', to_jsonb($2::text)) else raw_user_meta_data end,
         updated_at = now()
     where id = $1`,
    [userId, email],
  );
  await db.query(
    `update auth.identities set identity_data = jsonb_set(identity_data, '{email}', to_jsonb($2::text)), updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId, email],
  );
  await db.query(
    `delete from auth.one_time_tokens
     where user_id = $1 and token_type in ('email_change_token_new', 'email_change_token_current')`,
    [userId],
  );
}

/**
 * GoTrue's `User.Confirm`: the address is confirmed, the sign-up confirmation token is spent,
 * user_metadata says `email_verified: true`, and every one-time token of the user goes.
 */
export async function confirmEmail(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users
     set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
         raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
         updated_at = now()
     where id = $1`,
    [userId],
  );
  await db.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
}

export async function touchLastSignIn(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1`,
    [userId],
  );
  await db.query(`update auth.identities set last_sign_in_at = now() where user_id = $1`, [userId]);
}

export async function deleteUser(db: Db, userId: string): Promise<boolean> {
  const { rowCount } = await db.query(`delete from auth.users where id = $1`, [userId]);
  return (rowCount ?? 0) > 0;
}

export async function listUsers(
  db: Db,
  page: number,
  perPage: number,
): Promise<{ users: UserRow[]; total: number }> {
  const { rows } = await db.query<UserRow & { total: string }>(
    `select ${USER_COLUMNS}, count(*) over () as total from auth.users
     order by created_at desc, id limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page > 1) {
    const count = await db.query<{ n: string }>(`select count(*) as n from auth.users`);
    total = Number(count.rows[0].n);
  }
  return { users: rows.map(({ total: _total, ...user }) => user), total };
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

/** The user object as GoTrue serialises it (`models.User`); optional timestamps are omitted when unset. */
export function userJson(user: UserRow, identities: IdentityRow[]): JsonObject {
  const json: JsonObject = {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  };
  return json;
}

/** Loads the user with identities and serialises it. */
export async function loadUserJson(db: Db, userId: string): Promise<JsonObject | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  return userJson(user, await listIdentities(db, userId));
}
