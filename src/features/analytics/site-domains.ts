// A site's settings as the owner types them: a name, the domains the tracker may report from and
// how long raw events are kept. Domains are accepted the way people paste them ("https://Example.com/
// pricing", "www.example.com:443") and stored as the database keeps them: lower-case host names
// without scheme, port, path or trailing dot, each once. The database checks the same again
// (supabase/schemas/17-analytics.sql, prepare_analytics_site) and its refusals are shown as said.
import * as yup from 'yup';

export const SITE_NAME_MAX = 100;
const SITE_DOMAINS_MAX = 10;
export const RETENTION_DAYS = { min: 30, max: 1095, default: 395 } as const;

/** The database's own test of a host name (prepare_analytics_site). */
const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The host name in what was typed, or null when there is none. */
export function normaliseDomain(input: string): string | null {
  const text = input.trim().toLowerCase();
  if (!text) return null;
  let host: string;
  try {
    // With a scheme of its own or without one: the URL parser strips port, path, query and
    // user info the same way either way.
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.+$/, '');
  // The URL parser turns non-ASCII names into punycode (xn--…), which is what pages report.
  return host.length <= 253 && HOST_NAME.test(host) ? host : null;
}

/** The entries of a domains field: separated by commas, spaces or new lines. */
function splitDomains(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/** The host names of a domains field, each once; entries that are none are left out. */
export function parseDomains(text: string): string[] {
  const hosts: string[] = [];
  for (const entry of splitDomains(text)) {
    const host = normaliseDomain(entry);
    if (host && !hosts.includes(host)) hosts.push(host);
  }
  return hosts;
}

export interface SiteValues {
  name: string;
  /** As typed: one or more domains separated by commas or spaces. */
  domains: string;
  retention_days: number | '';
}

export const siteSchema = yup.object({
  name: yup
    .string()
    .trim()
    .required('Enter a name for the site.')
    .max(SITE_NAME_MAX, `The name must be at most ${SITE_NAME_MAX} characters.`),
  domains: yup
    .string()
    .required('Enter the domain of your site, e.g. example.com.')
    .test('hosts', function (value) {
      const entries = splitDomains(value ?? '');
      if (!entries.length)
        return this.createError({ message: 'Enter the domain of your site, e.g. example.com.' });
      const wrong = entries.find((entry) => !normaliseDomain(entry));
      if (wrong)
        return this.createError({
          message: `"${wrong.slice(0, 60)}" is not a domain. Enter host names such as example.com.`,
        });
      if (parseDomains(value ?? '').length > SITE_DOMAINS_MAX)
        return this.createError({
          message: `A site has at most ${SITE_DOMAINS_MAX} domains.`,
        });
      return true;
    }),
  retention_days: yup
    .number()
    .typeError('Enter a number of days.')
    .required('Enter how many days to keep raw events.')
    .integer('Enter a whole number of days.')
    .min(RETENTION_DAYS.min, `Keep raw events at least ${RETENTION_DAYS.min} days.`)
    .max(RETENTION_DAYS.max, `Keep raw events at most ${RETENTION_DAYS.max} days (3 years).`),
});

/**
 * The database's refusals in words: its own sentences (raised with a hint) as they are, its check
 * constraints by name, then the connection.
 */
export function describeSiteError(error: unknown, action: string): string {
  const { code, message, details, hint } = (error ?? {}) as Record<string, unknown>;
  const text = [message, details].filter((v) => typeof v === 'string').join(' ');
  if (typeof hint === 'string' && hint.startsWith('analytics_') && typeof message === 'string')
    return message;
  if (text.includes('analytics_sites_name'))
    return `The name must be between 1 and ${SITE_NAME_MAX} characters.`;
  if (text.includes('analytics_sites_domains'))
    return `A site has between 1 and ${SITE_DOMAINS_MAX} domains.`;
  if (text.includes('analytics_sites_retention_days'))
    return `Raw events are kept between ${RETENTION_DAYS.min} and ${RETENTION_DAYS.max} days.`;
  if (code === '42501') return `You are not allowed to ${action}.`;
  if (code === 'PGRST116') return 'This site no longer exists. Reload the page.';
  return `Could not ${action}. Check your connection and try again.`;
}
