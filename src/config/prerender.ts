// What the prerendered pages (scripts/prerender.ts) and the app that takes them over
// (src/main.tsx) agree on.

/** The root element's attribute naming the path its markup was rendered for. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
/** Comments around the page's own head elements (title, description, share tags, styles). */
export const HEAD_START_COMMENT = 'prerendered-head';
export const HEAD_END_COMMENT = '/prerendered-head';
/** Set on <html> while the document's markup is another page's; hides it until the app renders. */
export const APP_SHELL_ATTRIBUTE = 'data-app-shell';

/** A path as the pages compare it: without trailing slashes ('/' → ''). */
export const trimPath = (path: string) => path.replace(/\/+$/, '');
