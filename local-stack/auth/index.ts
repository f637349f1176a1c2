// GoTrue (Supabase Auth) stand-in mounted at /auth/v1: the subset of endpoints supabase-js uses,
// with GoTrue's JSON shapes, error codes and token claims, on the auth.* tables.
import type { HttpService, StackContext } from '../context.ts';
import { makeDeps } from './deps.ts';
import { AuthError, notImplemented, OAuthError, sendAuthError } from './errors.ts';
import { matchRoute } from './routes.ts';

export function createAuthService(ctx: StackContext): HttpService {
  const deps = makeDeps(ctx);
  return {
    async handle(req, res, path, url) {
      const match = matchRoute(req.method ?? 'GET', path);
      if (match.kind === 'unsupported') {
        req.resume();
        return sendAuthError(res, notImplemented(`${req.method ?? 'GET'} /auth/v1${path}`));
      }
      if (match.kind === 'not_found') {
        req.resume();
        return sendAuthError(res, new AuthError(404, 'not_found', 'Not Found'));
      }
      if (match.kind === 'method_not_allowed') {
        req.resume();
        res.setHeader('Allow', match.allowed.join(', '));
        return sendAuthError(res, new AuthError(405, 'method_not_allowed', 'Method Not Allowed'));
      }
      try {
        await match.handler(deps, { req, res, url, params: match.params });
      } catch (err) {
        if (err instanceof AuthError || err instanceof OAuthError) {
          req.resume();
          return sendAuthError(res, err);
        }
        // Text Postgres cannot store (a NUL byte, a lone surrogate escape) is the client's fault.
        const sqlState = (err as { code?: unknown })?.code;
        if (sqlState === '22021' || sqlState === '22P05') {
          req.resume();
          return sendAuthError(
            res,
            new AuthError(
              400,
              'validation_failed',
              'Request contains characters that cannot be stored',
            ),
          );
        }
        ctx.log('auth', `${req.method} ${path} failed: ${(err as Error)?.stack ?? err}`);
        sendAuthError(
          res,
          new AuthError(
            500,
            'unexpected_failure',
            'Unexpected failure, please check server logs for more information',
          ),
        );
      }
    },
  };
}
