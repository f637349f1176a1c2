// The verify_jwt gate of the CLI's functions router: a function with verify_jwt = true only runs
// for requests carrying `Authorization: Bearer <JWT signed with the project's secret>`.
import type { IncomingMessage } from 'node:http';
import { verifyJwt } from '../jwt.ts';

/** Returns the 401 body's `msg` when the request may not reach the function, else null. */
export async function rejectUnauthorized(
  req: IncomingMessage,
  jwtSecret: string,
): Promise<string | null> {
  const header = req.headers.authorization;
  if (!header) return 'Error: Missing authorization header';
  const [scheme, token] = header.split(' ');
  if (scheme !== 'Bearer') return "Error: Auth header is not 'Bearer {token}'";
  const result = await verifyJwt(token ?? '', jwtSecret);
  return result.ok ? null : 'Invalid JWT';
}
