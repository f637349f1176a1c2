// Which `redirect_to` values are honoured: GoTrue accepts the site URL's host, the configured
// additional redirect URLs (with `*`/`**` globs) and otherwise falls back to the site URL.
import type { ProjectConfig } from '../config.ts';

function globToRegExp(glob: string): RegExp {
  const escape = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  // As GoTrue compiles them (separators `.` and `/`): `*` stays within one host label or path
  // segment, `**` crosses them.
  const pattern = glob
    .split('**')
    .map((part) => part.split('*').map(escape).join('[^./]*'))
    .join('.*');
  return new RegExp(`^${pattern}$`);
}

export function resolveRedirect(
  requested: string | null | undefined,
  auth: Pick<ProjectConfig['auth'], 'siteUrl' | 'additionalRedirectUrls'>,
): string {
  const site = auth.siteUrl;
  if (!requested) return site;
  let target: URL;
  try {
    target = new URL(requested);
  } catch {
    return site;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return site;
  try {
    if (target.hostname === new URL(site).hostname) return requested;
  } catch {
    // an unparsable site URL matches nothing
  }
  const allowed = auth.additionalRedirectUrls.some((pattern) => {
    if (pattern === requested) return true;
    if (pattern.includes('*')) return globToRegExp(pattern).test(requested);
    // A plain entry allows paths below it, as the CLI's examples rely on.
    return (
      requested.startsWith(pattern.endsWith('/') ? pattern : `${pattern}/`) || requested === pattern
    );
  });
  return allowed ? requested : site;
}
