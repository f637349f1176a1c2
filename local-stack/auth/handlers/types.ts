// The shape of one Auth endpoint handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthDeps } from '../deps.ts';

interface AuthRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Path parameters, e.g. `{ id }` for /admin/users/{id}. */
  params: Record<string, string>;
}

export type AuthHandler = (deps: AuthDeps, request: AuthRequest) => Promise<void>;
