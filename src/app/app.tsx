// The app: Emotion's style cache and the providers around the router and the route table. The
// browser (src/main.tsx) and the prerendering (src/entry-server.tsx) render this same tree, so a
// prerendered page's markup is what hydration expects.
import type { ComponentType, ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export interface AppProps {
  /** Where Emotion keeps the styles (src/app/style-cache.ts). */
  styleCache: EmotionCache;
  /** The router around the routes: the browser's, or one fixed to an address (prerendering). */
  Router?: ComponentType<{ children: ReactNode }>;
}

export function App({ styleCache, Router = BrowserRouter }: AppProps) {
  return (
    <CacheProvider value={styleCache}>
      <AppProvider>
        <Router>
          <AppRoutes />
        </Router>
      </AppProvider>
    </CacheProvider>
  );
}
