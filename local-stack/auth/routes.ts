// The Auth route table: method + path pattern → handler, with GoTrue's 404/405 for the rest.
import {
  adminCreateUser,
  adminDeleteUser,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
} from './handlers/admin.ts';
import { logout } from './handlers/logout.ts';
import { health, settings } from './handlers/meta.ts';
import { recover } from './handlers/recover.ts';
import { resend } from './handlers/resend.ts';
import { signup } from './handlers/signup.ts';
import { token } from './handlers/token.ts';
import type { AuthHandler } from './handlers/types.ts';
import { getUser, updateUser } from './handlers/user.ts';
import { verifyGet, verifyPost } from './handlers/verify.ts';

interface Route {
  pattern: RegExp;
  /** Names of the pattern's capture groups, in order. */
  keys: string[];
  methods: Record<string, AuthHandler>;
}

function route(path: string, methods: Record<string, AuthHandler>): Route {
  const keys: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_m, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}/?$`), keys, methods };
}

const ROUTES: Route[] = [
  route('/signup', { POST: signup }),
  route('/token', { POST: token }),
  route('/user', { GET: getUser, PUT: updateUser }),
  route('/logout', { POST: logout }),
  route('/recover', { POST: recover }),
  route('/resend', { POST: resend }),
  route('/verify', { GET: verifyGet, POST: verifyPost }),
  route('/settings', { GET: settings }),
  route('/health', { GET: health }),
  route('/admin/users', { GET: adminListUsers, POST: adminCreateUser }),
  route('/admin/users/{id}', { GET: adminGetUser, PUT: adminUpdateUser, DELETE: adminDeleteUser }),
];

/**
 * GoTrue endpoints the stand-in does not serve (one-time codes, magic links, invites, OAuth, SSO,
 * MFA, identity linking, generated links, audit log): answered 400 `not_implemented`, so a missing
 * feature is never mistaken for a mistyped path.
 */
const UNSUPPORTED = [
  /^\/(otp|magiclink|invite|reauthenticate|authorize|callback)\/?$/,
  /^\/(sso|factors|oauth)(\/.*)?$/,
  /^\/user\/identities(\/.*)?$/,
  /^\/admin\/(generate_link|audit|sso|oauth)(\/.*)?$/,
  /^\/admin\/users\/[^/]+\/factors(\/.*)?$/,
];

export type RouteMatch =
  | { kind: 'handler'; handler: AuthHandler; params: Record<string, string> }
  | { kind: 'unsupported' }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allowed: string[] };

export function matchRoute(method: string, path: string): RouteMatch {
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    // HEAD is answered like GET, as Go's router does.
    const handler = r.methods[method] ?? (method === 'HEAD' ? r.methods.GET : undefined);
    if (!handler) return { kind: 'method_not_allowed', allowed: Object.keys(r.methods) };
    const params: Record<string, string> = {};
    r.keys.forEach((key, i) => {
      try {
        params[key] = decodeURIComponent(m[i + 1]);
      } catch {
        params[key] = m[i + 1];
      }
    });
    return { kind: 'handler', handler, params };
  }
  if (UNSUPPORTED.some((pattern) => pattern.test(path))) return { kind: 'unsupported' };
  return { kind: 'not_found' };
}
