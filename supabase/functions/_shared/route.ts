// Routes inside an Edge Function, as URLPattern pathnames (the web platform's router, built into
// Deno; Supabase's routing guide shows it). The platform puts the function's own name first —
// `/forms/…` on Supabase, `/functions/v1/forms/…` behind the local gateway — so each pattern
// matches from that name on, whatever comes before it, with or without a trailing slash.

/** A route of function `fn`: `path` is what follows its name, e.g. `'/forms/:formId/entries'`. */
export function functionRoute(fn: string, path: string): URLPattern {
  return new URLPattern({ pathname: `{/*}?/${fn}${path}{/}?` });
}

/** The route's named groups in `pathname` (still percent-encoded), or null when it does not match. */
export function matchRoute(
  route: URLPattern,
  pathname: string,
): Record<string, string | undefined> | null {
  return route.exec({ pathname })?.pathname.groups ?? null;
}
