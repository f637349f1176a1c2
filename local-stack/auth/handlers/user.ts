// GET /user and PUT /user: read and update the signed-in user (metadata, password, e-mail).
import { authenticate, withTransaction } from '../deps.ts';
import { forbidden, sendAuthJson, unprocessable } from '../errors.ts';
import { objectField, readJsonObject, stringField } from '../request.ts';
import { endSessions } from '../sessions.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import {
  findUserByEmail,
  listIdentities,
  loadUserJson,
  mergeUserMetadata,
  passwordMatches,
  setEmail,
  setPassword,
  userJson,
} from '../users.ts';
import type { AuthHandler } from './types.ts';

export const getUser: AuthHandler = async (deps, { req, res }) => {
  const { user } = await authenticate(deps, req);
  sendAuthJson(res, 200, userJson(user, await listIdentities(deps.pool, user.id)));
};

export const updateUser: AuthHandler = async (deps, { req, res }) => {
  const caller = await authenticate(deps, req);
  const body = await readJsonObject(req);
  const data = objectField(body, 'data');
  const password = body.password === undefined ? undefined : stringField(body, 'password');
  const rawEmail = stringField(body, 'email');
  if (objectField(body, 'app_metadata'))
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  const auth = deps.ctx.settings.project.auth;
  const user = caller.user;

  if (password !== undefined) {
    checkPasswordStrength(password, auth.minimumPasswordLength);
    if (await passwordMatches(user, password)) {
      throw unprocessable(
        'same_password',
        'New password should be different from the old password.',
      );
    }
  }
  const email = rawEmail ? validateEmail(rawEmail) : undefined;
  if (email && email !== user.email) {
    const other = await findUserByEmail(deps.pool, email);
    if (other && other.id !== user.id) {
      throw unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
  }

  await withTransaction(deps.pool, async (client) => {
    if (data) await mergeUserMetadata(client, user.id, data);
    if (password !== undefined) {
      await setPassword(client, user.id, password);
      // A new password signs the user out everywhere else, as GoTrue does.
      await endSessions(
        client,
        user.id,
        caller.session?.id ?? null,
        caller.session ? 'others' : 'global',
      );
    }
    // With confirmations off the change applies at once (GoTrue's autoconfirm path).
    if (email && email !== user.email) await setEmail(client, user.id, email);
  });
  sendAuthJson(res, 200, await loadUserJson(deps.pool, user.id));
};
