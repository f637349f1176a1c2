// The analytics tracker as site owners see it: its file, the endpoint it posts to, the one-line
// snippet and the options on its script tag. The docs and the dashboard show the snippet from
// here; the tracker itself (src/features/analytics/tracker/tracker.ts) reads the same attributes,
// and its tests load it through this snippet, so the two cannot disagree unnoticed.

/**
 * The tracker's file in public/, served at the site's root. A short name of our own: blockers'
 * lists match names such as analytics.js or tracker.js. It keeps its name across versions, so a
 * pasted snippet never goes stale; that is why it is cached for a day rather than for good
 * (TRACKER_CACHE_CONTROL).
 */
export const TRACKER_FILE = 'tb.js';

/** The gzipped size the built tracker must stay within (tests/build/tracker-size.test.ts). */
export const TRACKER_GZIP_BUDGET_BYTES = 1024;

/**
 * The header the tracker should be served with: browsers keep it a day and, for a week after,
 * use the copy they have while fetching the new one in the background. A fixed name cannot be
 * cached as immutable: a year-long cache would keep an old tracker running after an update.
 */
export const TRACKER_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/** The collect endpoint's path under the Supabase URL (the `analytics` Edge Function). */
const COLLECT_PATH = '/functions/v1/analytics/collect';

/** Where the tracker posts its events: `{supabaseUrl}/functions/v1/analytics/collect`. */
export function collectUrl(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}${COLLECT_PATH}`;
}

/** Stands in for a site's id in the docs' snippet. */
export const SITE_ID_PLACEHOLDER = 'YOUR-SITE-ID';

/**
 * The script tag's options beyond `data-site` and `data-api`: present (any value, even empty)
 * means on. Off by default, so the default tracker sends page views and custom events only.
 */
export const TRACKER_OPTIONS = {
  /** Count clicks on links to other sites (event `outbound`, prop `url`). */
  outbound: 'data-outbound',
  /** Count form submits (event `form`, prop `form`: the form's id or name). */
  forms: 'data-forms',
  /** Count visits from localhost, 127.0.0.1, file: pages and automated browsers: for testing. */
  local: 'data-local',
} as const;

export type TrackerOption = keyof typeof TRACKER_OPTIONS;

/** The event names the tracker sends by itself; custom events take any other name. */
export const TRACKER_EVENTS = { pageview: 'pageview', outbound: 'outbound', form: 'form' } as const;

/**
 * Custom events, as the collect endpoint takes them: a name of 1–50 of these characters, and at
 * most 5 props, each key 1–40 characters and each value a string of ≤ 200.
 */
export const CUSTOM_EVENT_LIMITS = {
  nameMax: 50,
  nameCharacters: 'letters, digits, spaces and _ - . :',
  propsMax: 5,
  propKeyMax: 40,
  propValueMax: 200,
} as const;

/** The one-line snippet an owner pastes into every page, before `</head>`. */
export function trackerSnippet({
  siteUrl,
  siteId,
  supabaseUrl,
  options = [],
}: {
  /** Where this tinyback site is served (it serves the tracker file). */
  siteUrl: string;
  siteId: string;
  supabaseUrl: string;
  options?: readonly TrackerOption[];
}): string {
  const extra = options.map((option) => ` ${TRACKER_OPTIONS[option]}`).join('');
  const src = `${siteUrl.replace(/\/+$/, '')}/${TRACKER_FILE}`;
  return `<script defer src="${src}" data-site="${siteId}" data-api="${collectUrl(supabaseUrl)}"${extra}></script>`;
}

/**
 * Lets a page call `tinyback(…)` before the deferred tracker has loaded: the calls wait in
 * `tinyback.q`, and the tracker sends them once it runs.
 */
export const TRACKER_QUEUE_SNIPPET =
  '<script>window.tinyback=window.tinyback||function(){(tinyback.q=tinyback.q||[]).push(arguments)}</script>';
