// The one router of the local stack: every service (the gateway's mounts, Auth, REST, Functions)
// declares its paths here, on find-my-way's radix tree, and decides itself what to answer for a
// path it does not know or a method a path does not take (each mimics its own Supabase service).
// Paths are matched as sent and parameters come back as sent (percent-encoded): each service
// decodes them the way its Supabase counterpart does, and a malformed encoding is its to answer.
import FindMyWay from 'find-my-way';

export type RouteMatch<H> =
  | { kind: 'found'; handler: H; params: Record<string, string | undefined> }
  /** A known path that does not take this method; `allowed` lists those it takes. */
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

export interface RouterOptions {
  /** `/signup/` is `/signup` (GoTrue, PostgREST); off where only the exact path is known. */
  ignoreTrailingSlash?: boolean;
  /** A path without a HEAD handler answers HEAD with its GET handler, as Go's routers do. */
  headAsGet?: boolean;
}

/** Every method: a route given as `all` takes any method the HTTP parser lets through. */
const ALL = '*';

interface Entry<H> {
  methods: Record<string, H>;
}

export class Router<H> {
  private tree: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;

  constructor(private options: RouterOptions = {}) {
    this.tree = FindMyWay({
      ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
      // Names are never cut short: a long unknown name gets the service's own answer for it.
      maxParamLength: Number.MAX_SAFE_INTEGER,
    });
  }

  /**
   * Routes `paths` (find-my-way patterns: `/users/:id`, `/forms/*`) to a handler per method, or
   * to one handler for every method (`all`).
   */
  on(paths: string | string[], methods: Record<string, H> | { all: H }): this {
    const entry: Entry<H> = {
      methods: 'all' in methods ? { [ALL]: methods.all } : (methods as Record<string, H>),
    };
    for (const path of Array.isArray(paths) ? paths : [paths]) {
      this.tree.all(path, () => undefined, entry);
    }
    return this;
  }

  /** `path` is the URL's path without its query, as sent (percent-encoded). */
  match(method: string, path: string): RouteMatch<H> {
    // find-my-way decodes the path before matching; an escaped `%` decodes back to itself, so
    // the route is found on the path as sent and each parameter comes back as sent.
    const found = this.tree.find(method as FindMyWay.HTTPMethod, path.replace(/%/g, '%25'));
    // A named parameter is never empty (`/users//` names no user), as in Go's and Haskell's routers.
    if (!found || Object.entries(found.params).some(([k, v]) => k !== '*' && !v)) {
      return { kind: 'not_found' };
    }
    const { methods } = found.store as Entry<H>;
    const handler =
      methods[ALL] ??
      methods[method] ??
      (this.options.headAsGet && method === 'HEAD' ? methods.GET : undefined);
    if (handler === undefined) return { kind: 'method_not_allowed', allowed: Object.keys(methods) };
    return { kind: 'found', handler, params: { ...found.params } };
  }
}
