// Where a post came from, as the analytics tracker tells it: hidden fields it adds to forms that
// post here (`_tb_site`, `_tb_page`, `_tb_ref`). Reserved like the other `_` fields (never stored
// as the message's fields), and a visitor can write anything into them, so each is kept only when
// it is what the tracker sends and is otherwise dropped without refusing the post. Whether the
// site is the form owner's is for the database to say (accept_entry()).
import { isUuid } from '../_shared/uuid.ts';
import { cleanFieldName } from './text.ts';

const SOURCE_FIELDS = { site: '_tb_site', page: '_tb_page', referrer: '_tb_ref' } as const;

const NAMES = new Set<string>(Object.values(SOURCE_FIELDS));
export const isSourceField = (name: string) => NAMES.has(name);

/** As the database's checks on entries.source_page and entries.source_referrer. */
const SOURCE_LIMITS = { pageChars: 2000, hostChars: 253 } as const;

export interface PostSource {
  /** An analytics site id (a UUID, lower-case); the owner's or not, the database decides. */
  siteId: string | null;
  /** The page's path: starts with "/", at most 2 000 characters, no control characters. */
  page: string | null;
  /** The host that referred the visit; null for a direct visit. */
  referrer: string | null;
}

// C0 and C1 controls and DEL (Postgres' [[:cntrl:]]).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const HOST = /^[a-z0-9.-]+$/;

function site(value: string | undefined): string | null {
  const id = value?.trim().toLowerCase() ?? '';
  return isUuid(id) ? id : null;
}

function page(value: string | undefined): string | null {
  if (!value || !value.startsWith('/') || CONTROL.test(value)) return null;
  // Cut by code points, as the database counts characters; a lone surrogate cannot be stored.
  const clipped = Array.from(value).slice(0, SOURCE_LIMITS.pageChars).join('');
  return /[\ud800-\udfff]/.test(clipped.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))
    ? null
    : clipped;
}

function referrer(value: string | undefined): string | null {
  const host = value?.trim().toLowerCase() ?? '';
  return host.length <= SOURCE_LIMITS.hostChars && HOST.test(host) ? host : null;
}

/** The post's source from its raw fields (the first of each name counts). */
export function readSource(fields: readonly (readonly [string, string])[]): PostSource {
  const first = (name: string) => fields.find(([n]) => cleanFieldName(n) === name)?.[1];
  return {
    siteId: site(first(SOURCE_FIELDS.site)),
    page: page(first(SOURCE_FIELDS.page)),
    referrer: referrer(first(SOURCE_FIELDS.referrer)),
  };
}
