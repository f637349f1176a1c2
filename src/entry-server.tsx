// Renders a public page to HTML ahead of time, for scripts/prerender.ts: the same providers and
// route table as the browser (src/main.tsx hydrates the result), with the router fixed to one URL,
// as a visitor who is not signed in sees it. The page's <title>, <meta> and <link> elements
// (PageMeta) and its Emotion styles are returned apart, for the document's <head>.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { AppProvider } from './app/provider';
import { AppRoutes, preloadPage } from './app/router';
import { PRERENDERED_PATHS } from './config/prerender';

export { PRERENDERED_PATHS };

export interface RenderedPage {
  /** The elements React hoists into <head>, then the page's styles. */
  head: string;
  /** The markup of the app's root element. */
  body: string;
}

// React 19 puts the hoistable elements a tree renders outside <head> (<title>, <meta>, <link>) in
// front of the markup when the tree has no <html> of its own.
const LEADING_HEAD_ELEMENTS = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/?>|<link [^>]*\/?>)+/;

export async function renderPage(pathname: string): Promise<RenderedPage> {
  await preloadPage(pathname);
  // A cache per page, in "compat" mode: styles are collected instead of written beside each
  // element, then put into <head> with the ids the browser's cache picks up, so hydration inserts
  // nothing twice (Emotion's documented server set-up; Chakra UI renders through it).
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const emotion = createEmotionServer(cache);
  const { prelude } = await prerender(
    <StrictMode>
      <CacheProvider value={cache}>
        <AppProvider>
          <StaticRouter location={pathname}>
            <AppRoutes />
          </StaticRouter>
        </AppProvider>
      </CacheProvider>
    </StrictMode>,
    // A whole page in one piece: React would otherwise move a large Suspense boundary's content
    // to the end of the document, shown by an inline script only after the markup has loaded.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  const hoisted = LEADING_HEAD_ELEMENTS.exec(html)?.[0] ?? '';
  const body = html.slice(hoisted.length);
  const styles = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(body));
  return { head: hoisted + styles, body };
}
