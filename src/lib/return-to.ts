// The page a visitor asked for before being sent to the login page, carried in the router state
// (`{ from }`), and the check that only ever lets the login page return to a page of this app.
import type { Location } from 'react-router-dom';
import { paths } from '../config/paths';

export interface ReturnToState {
  from: string;
}

/** Router state for the redirect to the login page: the requested path and query. */
export function returnToState(location: Pick<Location, 'pathname' | 'search'>): ReturnToState {
  return { from: location.pathname + location.search };
}

// Pages that would send a freshly signed-in user straight back to the login form.
const NO_RETURN = new Set<string>([paths.login, paths.register]);

/**
 * The path to return to after signing in, or null. Router state can be set by any script on the
 * page, so only a same-app path is accepted: it starts with one '/', not '//' or '/\' (which
 * browsers read as another host), and has no control characters.
 */
export function readReturnTo(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  const from = (state as { from: unknown }).from;
  if (typeof from !== 'string' || from.length > 2000) return null;
  if (!from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(from)) return null;
  const base = 'http://app.invalid';
  let url: URL;
  try {
    url = new URL(from, base);
  } catch {
    return null;
  }
  if (url.origin !== base || NO_RETURN.has(url.pathname)) return null;
  return url.pathname + url.search + url.hash;
}
