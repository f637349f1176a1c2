// Renders a public page to HTML ahead of time, for scripts/prerender.ts: the same providers and
// route table as the browser (src/main.tsx hydrates the result), with the router fixed to one URL,
// as a visitor who is not signed in sees it. The page's <title>, <meta> and <link> elements
// (PageMeta) and its Emotion styles are returned apart, for the document's <head>.
import { StrictMode, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import createEmotionServer from '@emotion/server/create-instance';
import { App } from './app/app';
import { preloadPage } from './app/router';
import { appSystem } from './app/theme';
import { createServerStyleCache, markServerStyles } from './app/style-cache';

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
  // A cache per page that collects the styles; they go into <head> with the ids the browser's
  // cache adopts, so hydration inserts nothing twice (Emotion's documented server set-up).
  const cache = createServerStyleCache();
  const emotion = createEmotionServer(cache);
  const AtPath = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={pathname}>{children}</StaticRouter>
  );
  const { prelude } = await prerender(
    <StrictMode>
      <App styleCache={cache} Router={AtPath} />
    </StrictMode>,
    // A whole page in one piece: React would otherwise move a large Suspense boundary's content
    // to the end of the document, shown by an inline script only after the markup has loaded.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  const hoisted = LEADING_HEAD_ELEMENTS.exec(html)?.[0] ?? '';
  const body = html.slice(hoisted.length);
  const styles = markServerStyles(
    emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(body)),
  );
  // Chakra's order of its style layers, first and on its own: Chakra's <Global> moves its style
  // elements behind the page's when the app starts, and the order must not depend on that.
  const layerOrder = `<style>${appSystem().layers.atRule}</style>`;
  return { head: hoisted + layerOrder + styles, body };
}
