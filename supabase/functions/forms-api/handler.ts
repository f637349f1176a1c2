// The read API (`forms-api`) as a plain function of (Request, dependencies) → Response: routing,
// bearer-key authentication, scope, query parameters and the JSON answers. Storage is injected so
// this module runs unchanged under Deno and in unit tests.
//
//   GET    /forms-api/forms                                  the key owner's forms
//   GET    /forms-api/forms/{formId}/entries?since&cursor&limit   one page of a form's entries
//   DELETE /forms-api/forms/{formId}/entries/{entryId}       read-write keys only
import { sameText } from '../_shared/constant-time.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';
import { isUuid } from '../_shared/uuid.ts';
import { bearerKey, hashKey } from './bearer.ts';
import { encodeCursor } from './cursor.ts';
import { API_ERRORS, type ApiError } from './errors.ts';
import { parseEntriesQuery } from './query.ts';
import type { ApiStore, KeyIdentity } from './model.ts';
import { errorResponse, jsonResponse, preflightResponse } from './responses.ts';

export interface FormsApiDeps extends ApiStore {
  log(message: string): void;
}

/** Compared against when no key was found, so an unknown key costs what a known one does. */
const NO_HASH = '0'.repeat(64);

type Route =
  | { kind: 'forms' }
  | { kind: 'entries'; formId: string }
  | { kind: 'entry'; formId: string; entryId: string };

const ROUTES = {
  forms: functionRoute('forms-api', '/forms'),
  entries: functionRoute('forms-api', '/forms/:formId/entries'),
  entry: functionRoute('forms-api', '/forms/:formId/entries/:entryId'),
};

/** The route after the function's own name (which comes first on every platform), or null. */
export function routeOf(pathname: string): Route | null {
  // Empty segments never counted (`//forms` is `/forms`).
  const path = pathname.replace(/\/{2,}/g, '/');
  if (ROUTES.forms.test({ pathname: path })) return { kind: 'forms' };
  const entries = matchRoute(ROUTES.entries, path);
  if (entries) return { kind: 'entries', formId: entries.formId! };
  const entry = matchRoute(ROUTES.entry, path);
  if (entry) return { kind: 'entry', formId: entry.formId!, entryId: entry.entryId! };
  return null;
}

const ALLOWED: Record<Route['kind'], string> = {
  forms: 'GET',
  entries: 'GET',
  entry: 'DELETE',
};

/** The key's identity, or the refusal: every failure up to here answers the same 401. */
async function authenticate(
  req: Request,
  deps: FormsApiDeps,
): Promise<{ identity: KeyIdentity } | { error: ApiError }> {
  const key = bearerKey(req.headers.get('authorization'));
  if (key === null) return { error: API_ERRORS.unauthorized() };
  const hash = await hashKey(key);
  const result = await deps.authenticate(hash);
  if (result.status === 'rate_limited') return { error: API_ERRORS.rateLimited(result.retryAfter) };
  const stored = result.status === 'ok' ? result.identity.keyHash : NO_HASH;
  // The database found the row by this hash; the constant-time comparison keeps the decision
  // itself free of early exits, whatever the lookup returned.
  const matches = sameText(stored, hash);
  if (result.status !== 'ok' || !matches) return { error: API_ERRORS.unauthorized() };
  return { identity: result.identity };
}

export async function handleRequest(req: Request, deps: FormsApiDeps): Promise<Response> {
  const url = new URL(req.url);
  const route = routeOf(url.pathname);
  if (req.method === 'OPTIONS') return preflightResponse();
  if (route === null) return errorResponse(API_ERRORS.notFound());
  const allow = ALLOWED[route.kind];
  if (req.method !== allow) return errorResponse(API_ERRORS.methodNotAllowed(allow));
  // Nothing in a request body is read.
  await req.body?.cancel().catch(() => undefined);

  try {
    const auth = await authenticate(req, deps);
    if ('error' in auth) return errorResponse(auth.error);
    const { identity } = auth;

    if (route.kind === 'forms') {
      return jsonResponse({ ok: true, forms: await deps.listForms(identity.userId) });
    }
    if (route.kind === 'entry' && identity.scope !== 'read_write')
      return errorResponse(API_ERRORS.insufficientScope());
    // Not a form id: no form of anyone's, so the same 404 as another owner's form.
    if (!isUuid(route.formId)) return errorResponse(API_ERRORS.formNotFound());
    const formId = route.formId.toLowerCase();

    if (route.kind === 'entry') {
      if (!isUuid(route.entryId)) return errorResponse(API_ERRORS.entryNotFound());
      const outcome = await deps.deleteEntry(identity.userId, formId, route.entryId.toLowerCase());
      if (outcome === 'form_not_found') return errorResponse(API_ERRORS.formNotFound());
      if (outcome === 'entry_not_found') return errorResponse(API_ERRORS.entryNotFound());
      return jsonResponse({ ok: true, id: route.entryId.toLowerCase() });
    }

    const parsed = parseEntriesQuery(url.searchParams);
    if (!parsed.ok) return errorResponse(API_ERRORS.invalidQuery(parsed.fields));
    const { since, after, rawCursor, limit } = parsed.query;
    const page = await deps.listEntries({ userId: identity.userId, formId, since, after, limit });
    if (page.status === 'form_not_found') return errorResponse(API_ERRORS.formNotFound());
    const entries = page.entries.slice(0, limit);
    const last = entries.at(-1);
    return jsonResponse({
      ok: true,
      entries,
      // Kept by a client to ask later for what arrived after this page, even when it was the last.
      next_cursor: last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : rawCursor,
      has_more: page.entries.length > limit,
    });
  } catch (err) {
    deps.log(`request failed: ${(err as Error).message}`);
    return errorResponse(API_ERRORS.storageFailed());
  }
}
