// Emotion's cache for the app's styles (Chakra UI renders through Emotion), for the
// prerendering and the browser, so that a prerendered page's styles are taken over, not redone.
//
// Emotion moves the server's style elements it recognises to the end of <head> (its default `css`
// cache as soon as it loads, any cache when it is made), and the browser then restyles and lays
// out the whole page. So the app's cache has a key of its own, and the page's class rules are
// marked so that no cache recognises them (markServerStyles); only Chakra's two global style
// elements are still adopted (and moved once) by Chakra's <Global>.
import createCache, { type EmotionCache } from '@emotion/cache';

const STYLE_CACHE_KEY = 'tb';

/** The server's cache: collects styles instead of writing them beside each element. */
export function createServerStyleCache(): EmotionCache {
  const cache = createCache({ key: STYLE_CACHE_KEY });
  cache.compat = true;
  return cache;
}

/** The attribute of a prerendered page's style element, naming the class ids it holds. */
const SERVER_STYLES_ATTRIBUTE = 'data-server-styles';

/**
 * The server's style elements (from @emotion/server) for the page's <head>: the class rules
 * carry their ids for createBrowserStyleCache; the global rules keep Emotion's attribute, by
 * which Chakra's <Global> finds them, and `data-s`, which tells Emotion they are in <head> already.
 */
export function markServerStyles(styleTags: string): string {
  return styleTags
    .replaceAll(`<style data-emotion="${STYLE_CACHE_KEY} `, `<style ${SERVER_STYLES_ATTRIBUTE}="`)
    .replaceAll('<style data-emotion=', '<style data-s="" data-emotion=');
}

/**
 * The browser's cache. On a prerendered page it takes the server's class ids as inserted, so no
 * rule is written twice, without adopting (moving) their style element.
 */
export function createBrowserStyleCache(): EmotionCache {
  const cache = createCache({ key: STYLE_CACHE_KEY });
  for (const element of document.head.querySelectorAll(`style[${SERVER_STYLES_ATTRIBUTE}]`)) {
    for (const id of element.getAttribute(SERVER_STYLES_ATTRIBUTE)!.split(' ')) {
      if (id) cache.inserted[id] = true;
    }
  }
  return cache;
}
