// POST /logout?scope=global|local|others: ends sessions; their refresh tokens go with them.
import { authenticate } from '../deps.ts';
import { sendAuthJson, validationFailed } from '../errors.ts';
import { endSessions, type LogoutScope } from '../sessions.ts';
import type { AuthHandler } from './types.ts';

const SCOPES: LogoutScope[] = ['global', 'local', 'others'];

export const logout: AuthHandler = async (deps, { req, res, url }) => {
  const scope = (url.searchParams.get('scope') || 'global') as LogoutScope;
  if (!SCOPES.includes(scope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
  const caller = await authenticate(deps, req);
  await endSessions(deps.pool, caller.user.id, caller.session?.id ?? null, scope);
  sendAuthJson(res, 204, undefined);
};
