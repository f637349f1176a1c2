// The app: Emotion's style cache and the providers around the router and the route table. The
// browser (src/main.tsx) and the prerendering (src/entry-server.tsx) render this same tree, so a
// prerendered page's markup is what hydration expects: React's `useId` values (the ids Chakra's
// components link their parts by) depend on each component's place in the tree, so anything
// added around or beside the app on one side only would give every id another value.
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import { APP_READY_ATTRIBUTE } from '../config/prerender';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export interface AppProps {
  /** Where Emotion keeps the styles (src/app/style-cache.ts). */
  styleCache: EmotionCache;
  /** The router around the routes: the browser's, or one fixed to an address (prerendering). */
  Router?: ComponentType<{ children: ReactNode }>;
}

/** Marks the document once the app has hydrated or rendered it, i.e. answers clicks and typing. */
function MarkReady() {
  useEffect(() => document.documentElement.setAttribute(APP_READY_ATTRIBUTE, ''), []);
  return null;
}

export function App({ styleCache, Router = BrowserRouter }: AppProps) {
  return (
    <>
      <CacheProvider value={styleCache}>
        <AppProvider>
          <Router>
            <AppRoutes />
          </Router>
        </AppProvider>
      </CacheProvider>
      <MarkReady />
    </>
  );
}
