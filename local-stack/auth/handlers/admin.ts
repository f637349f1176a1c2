// The admin API (service_role JWT only): create, list, read, update and delete users, for tests,
// seeds and tools (supabase-js `auth.admin.*`).
import { withTransaction } from '../deps.ts';
import { notFound, sendAuthJson, unprocessable, validationFailed } from '../errors.ts';
import {
  booleanField,
  objectField,
  readJsonObject,
  requireAdmin,
  stringField,
} from '../request.ts';
import { endSessions } from '../sessions.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import {
  confirmEmail,
  deleteUser,
  findUserByEmail,
  findUserById,
  identitiesByUser,
  insertUser,
  isUuid,
  listUsers,
  loadUserJson,
  mergeAppMetadata,
  mergeUserMetadata,
  setEmail,
  setPassword,
  userJson,
} from '../users.ts';
import type { AuthHandler } from './types.ts';

const emailExists = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

function userIdParam(params: Record<string, string>): string {
  const id = params.id ?? '';
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  return id;
}

export const adminCreateUser: AuthHandler = async (deps, { req, res }) => {
  await requireAdmin(req, deps.tokens.jwtSecret);
  const body = await readJsonObject(req);
  const rawEmail = stringField(body, 'email');
  const password = stringField(body, 'password');
  if (stringField(body, 'phone'))
    throw validationFailed('Phone users are not supported by the local stack');
  if (!rawEmail) throw validationFailed('Unable to validate email address: invalid format');
  const email = validateEmail(rawEmail);
  if (password)
    checkPasswordStrength(password, deps.ctx.settings.project.auth.minimumPasswordLength);
  const userMetadata = objectField(body, 'user_metadata') ?? objectField(body, 'data') ?? {};
  const appMetadata = objectField(body, 'app_metadata') ?? {};
  const confirmed = booleanField(body, 'email_confirm');
  const user = await withTransaction(deps.pool, async (client) => {
    await client.query(`select pg_advisory_xact_lock(hashtext('auth.signup:' || $1))`, [email]);
    if (await findUserByEmail(client, email)) throw emailExists();
    const created = await insertUser(client, {
      email,
      password: password || null,
      userMetadata,
      appMetadata,
      confirmed,
      by: 'admin',
    });
    return loadUserJson(client, created.id);
  });
  sendAuthJson(res, 200, user);
};

/** `page`/`per_page` as GoTrue reads them: absent or empty takes the default, else an unsigned integer. */
function pageParameter(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name) ?? '';
  if (raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    throw validationFailed(
      `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`,
    );
  }
  return Number(raw);
}

export const adminListUsers: AuthHandler = async (deps, { req, res, url }) => {
  await requireAdmin(req, deps.tokens.jwtSecret);
  const page = Math.max(1, pageParameter(url, 'page', 1));
  const perPage = Math.min(1000, Math.max(1, pageParameter(url, 'per_page', 50)));
  const { users, total } = await listUsers(deps.pool, page, perPage);
  const identities = await identitiesByUser(
    deps.pool,
    users.map((u) => u.id),
  );
  const json = users.map((u) => userJson(u, identities.get(u.id) ?? []));
  const links: string[] = [];
  const base = `${deps.externalUrl}/admin/users`;
  const last = Math.max(1, Math.ceil(total / perPage));
  if (page < last) links.push(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`<${base}?page=${last}&per_page=${perPage}>; rel="last"`);
  sendAuthJson(
    res,
    200,
    { users: json, aud: 'authenticated' },
    { 'X-Total-Count': String(total), Link: links.join(', ') },
  );
};

export const adminGetUser: AuthHandler = async (deps, { req, res, params }) => {
  await requireAdmin(req, deps.tokens.jwtSecret);
  const user = await loadUserJson(deps.pool, userIdParam(params));
  if (!user) throw notFound('user_not_found', 'User not found');
  sendAuthJson(res, 200, user);
};

export const adminUpdateUser: AuthHandler = async (deps, { req, res, params }) => {
  await requireAdmin(req, deps.tokens.jwtSecret);
  const id = userIdParam(params);
  const body = await readJsonObject(req);
  const user = await findUserById(deps.pool, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  const password = stringField(body, 'password');
  const rawEmail = stringField(body, 'email');
  const userMetadata = objectField(body, 'user_metadata');
  const appMetadata = objectField(body, 'app_metadata');
  if (password)
    checkPasswordStrength(password, deps.ctx.settings.project.auth.minimumPasswordLength);
  const email = rawEmail ? validateEmail(rawEmail) : undefined;
  if (email && email !== user.email) {
    const other = await findUserByEmail(deps.pool, email);
    if (other && other.id !== id) throw emailExists();
  }
  await withTransaction(deps.pool, async (client) => {
    if (userMetadata) await mergeUserMetadata(client, id, userMetadata);
    if (appMetadata) await mergeAppMetadata(client, id, appMetadata);
    if (password) {
      await setPassword(client, id, password);
      await endSessions(client, id, null, 'global');
    }
    if (email && email !== user.email) await setEmail(client, id, email);
    if (booleanField(body, 'email_confirm')) await confirmEmail(client, id);
  });
  sendAuthJson(res, 200, await loadUserJson(deps.pool, id));
};

export const adminDeleteUser: AuthHandler = async (deps, { req, res, params }) => {
  await requireAdmin(req, deps.tokens.jwtSecret);
  const id = userIdParam(params);
  if (!(await deleteUser(deps.pool, id))) throw notFound('user_not_found', 'User not found');
  sendAuthJson(res, 200, {});
};
