// Emotion's cache for the app's styles (Chakra UI renders through Emotion), shared by the
// prerendering and the browser so that a prerendered page's styles are taken over, not redone.
//
// The key is the app's own rather than Emotion's default `css`: Emotion makes a default `css`
// cache as soon as it loads, and that cache would move every server style element to the end of
// <head> (a full restyle of the page) before the app's cache could adopt them where they are.
import createCache, { type EmotionCache } from '@emotion/cache';

export const STYLE_CACHE_KEY = 'tb';

/** The server's cache: collects styles instead of writing them beside each element. */
export function createServerStyleCache(): EmotionCache {
  const cache = createCache({ key: STYLE_CACHE_KEY });
  cache.compat = true;
  return cache;
}

/** The attribute of a prerendered page's style element, naming the class ids it holds. */
export const SERVER_STYLES_ATTRIBUTE = 'data-server-styles';

/**
 * The browser's cache. On a prerendered page it takes the server's class ids as inserted, so no
 * rule is written twice. It does not adopt their style element, as Emotion would: adopting moves
 * the element to the end of <head>, and the browser then restyles and lays out the whole page.
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
