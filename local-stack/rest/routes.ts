// PostgREST's paths below /rest/v1, on the stack's one router: `/` (the OpenAPI document),
// `/rpc/<function>` and `/<table or view>`; any other path is 404 PGRST125.
import { Router } from '../router.ts';
import { RestError } from './errors.ts';

const invalidPath = () => new RestError(404, 'PGRST125', 'Invalid path specified in request URL');

export type Resource = 'root' | 'rpc' | 'table';

/** PostgREST's paths, over the path's non-empty segments, each decoded. */
const routes = new Router<Resource>()
  .on('/', { all: 'root' })
  .on('/rpc/:name', { all: 'rpc' })
  .on('/:name', { all: 'table' });

/** The resource a path names, and its name; other paths are PGRST125. */
export function resourceOf(method: string, urlPath: string): { resource: Resource; name: string } {
  let path: string;
  try {
    // Routed with each segment decoded and encoded again, so a decoded `/` stays inside it.
    const segments = urlPath.split('/').filter(Boolean).map(decodeURIComponent);
    path = `/${segments.map(encodeURIComponent).join('/')}`;
  } catch {
    throw invalidPath();
  }
  const match = routes.match(method, path);
  if (match.kind !== 'found') throw invalidPath();
  return { resource: match.handler, name: decodeURIComponent(match.params.name ?? '') };
}
