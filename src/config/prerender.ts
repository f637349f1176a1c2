// What the prerendered pages (scripts/prerender.ts) and the app that takes them over
// (src/main.tsx) agree on, and which pages are prerendered.
import { PAGE_META } from './seo';

/**
 * The pages rendered ahead of time: the public pages that need no signed-in user and no URL
 * parameter. (Login and register wait for the session check; blog posts and the thank-you page
 * depend on the URL or the referrer.)
 */
export const PRERENDERED_PATHS: string[] = Object.entries(PAGE_META)
  .filter(([name]) => name !== 'login' && name !== 'register')
  .map(([, entry]) => entry.path);

/** The root element's attribute naming the path its markup was rendered for. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
/** Comments around the page's own head elements (title, description, share tags, styles). */
export const HEAD_START_COMMENT = 'prerendered-head';
export const HEAD_END_COMMENT = '/prerendered-head';
/** Set on <html> while the document's markup is another page's; hides it until the app renders. */
export const APP_SHELL_ATTRIBUTE = 'data-app-shell';

/** A path as the pages compare it: without trailing slashes ('/' → ''). */
export const trimPath = (path: string) => path.replace(/\/+$/, '');
/**
 * Set on <html> once the app has taken the page over: before that, a prerendered page's buttons
 * and fields do nothing (the browser tests wait for it after each page load).
 */
export const APP_READY_ATTRIBUTE = 'data-app-ready';
