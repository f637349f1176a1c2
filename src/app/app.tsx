// The app: Emotion's style cache and the providers around the router and the route table. The
// browser (src/main.tsx) and the prerendering (src/entry-server.tsx) render this same tree, so a
// prerendered page's markup is what hydration expects: React's `useId` values (the ids Chakra's
// components link their parts by) depend on each component's place in the tree, so anything
// added around or beside the app on one side only would give every id another value.
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import { ErrorBoundary, PageErrorFallback } from '../components/error-boundary';
import { APP_READY_ATTRIBUTE } from '../config/prerender';
import { loadFallbacks } from '../lib/chunk-load';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export interface AppProps {
  /** Where Emotion keeps the styles (src/app/style-cache.ts). */
  styleCache: EmotionCache;
  /** The router around the routes: the browser's, or one fixed to an address (prerendering). */
  Router?: ComponentType<{ children: ReactNode }>;
}

/**
 * Marks the document once the app has hydrated or rendered it, i.e. answers clicks and typing;
 * then, once the first page's own requests are done, fetches what answers a failure (the error
 * fallbacks and, with them, the chunk recovery), so it is at hand should the network later fail.
 */
function MarkReady() {
  useEffect(() => {
    document.documentElement.setAttribute(APP_READY_ATTRIBUTE, '');
    setTimeout(() => loadFallbacks().catch(() => undefined), FALLBACKS_AFTER_MS);
  }, []);
  return null;
}

/** When the fallbacks' chunk is fetched after start-up: after the first page's own requests. */
const FALLBACKS_AFTER_MS = 3000;

export function App({ styleCache, Router = BrowserRouter }: AppProps) {
  return (
    <>
      <CacheProvider value={styleCache}>
        <AppProvider>
          {/* The last line of defence: what no page's own boundary caught (the header, a
              layout) shows the error panel instead of an empty page. */}
          <ErrorBoundary fallback={(failure) => <PageErrorFallback {...failure} />}>
            <Router>
              <AppRoutes />
            </Router>
          </ErrorBoundary>
        </AppProvider>
      </CacheProvider>
      <MarkReady />
    </>
  );
}
