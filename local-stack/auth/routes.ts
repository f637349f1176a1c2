// The Auth route table: method + path pattern → handler (on the stack's one router), with
// GoTrue's 404/405 for the rest.
import { Router } from '../router.ts';
import {
  adminCreateUser,
  adminDeleteUser,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
} from './handlers/admin.ts';
import { logout } from './handlers/logout.ts';
import { health, jwks, settings } from './handlers/meta.ts';
import { recover } from './handlers/recover.ts';
import { resend } from './handlers/resend.ts';
import { signup } from './handlers/signup.ts';
import { token } from './handlers/token.ts';
import type { AuthHandler } from './handlers/types.ts';
import { getUser, updateUser } from './handlers/user.ts';
import { verifyGet, verifyPost } from './handlers/verify.ts';

/** Routes (find-my-way patterns); a trailing slash is ignored, as GoTrue's router does. */
const ROUTES: [string, Record<string, AuthHandler>][] = [
  ['/signup', { POST: signup }],
  ['/token', { POST: token }],
  ['/user', { GET: getUser, PUT: updateUser }],
  ['/logout', { POST: logout }],
  ['/recover', { POST: recover }],
  ['/resend', { POST: resend }],
  ['/verify', { GET: verifyGet, POST: verifyPost }],
  ['/settings', { GET: settings }],
  ['/health', { GET: health }],
  ['/.well-known/jwks.json', { GET: jwks }],
  ['/admin/users', { GET: adminListUsers, POST: adminCreateUser }],
  ['/admin/users/:id', { GET: adminGetUser, PUT: adminUpdateUser, DELETE: adminDeleteUser }],
];

/**
 * GoTrue endpoints the stand-in does not serve (one-time codes, magic links, invites, OAuth, SSO,
 * MFA, passkeys, identity linking, generated links, audit log), whatever the method: answered 400
 * `not_implemented`, so a missing feature is never mistaken for a mistyped path.
 */
const UNSUPPORTED = [
  ...['otp', 'magiclink', 'invite', 'reauthenticate', 'authorize', 'callback'].map((p) => `/${p}`),
  ...['sso', 'factors', 'passkeys', 'oauth', 'user/identities'].flatMap((p) => [
    `/${p}`,
    `/${p}/*`,
  ]),
  ...['generate_link', 'audit', 'sso', 'oauth'].flatMap((p) => [`/admin/${p}`, `/admin/${p}/*`]),
  ...['factors', 'passkeys'].flatMap((p) => [`/admin/users/:id/${p}`, `/admin/users/:id/${p}/*`]),
];

type Target = AuthHandler | 'unsupported';

const router = new Router<Target>({ ignoreTrailingSlash: true, headAsGet: true });
for (const [path, methods] of ROUTES) router.on(path, methods);
router.on(UNSUPPORTED, { all: 'unsupported' });

export type RouteMatch =
  | { kind: 'handler'; handler: AuthHandler; params: Record<string, string> }
  | { kind: 'unsupported' }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allowed: string[] };

export function matchRoute(method: string, path: string): RouteMatch {
  const match = router.match(method, path);
  if (match.kind !== 'found') return match;
  if (match.handler === 'unsupported') return { kind: 'unsupported' };
  const params: Record<string, string> = {};
  for (const [key, raw] of Object.entries(match.params)) {
    if (raw === undefined) continue;
    try {
      params[key] = decodeURIComponent(raw);
    } catch {
      params[key] = raw;
    }
  }
  return { kind: 'handler', handler: match.handler, params };
}
