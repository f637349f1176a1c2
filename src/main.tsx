import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// The brand font, self-hosted (no third-party request); its @font-face rules use font-display:
// swap. Imported here, the rules are in the page's own stylesheet, which the prerendered pages
// carry inline (scripts/prerender.ts): they apply before and without any JavaScript.
import '@fontsource-variable/inter/wght.css';
// Arial sized as Inter, shown until Inter arrives, so the swap shifts no text.
import './app/inter-fallback.css';
import { loadChunk } from './lib/chunk-load';
import {
  APP_SHELL_ATTRIBUTE,
  HEAD_END_COMMENT,
  HEAD_START_COMMENT,
  PRERENDERED_ATTRIBUTE,
  trimPath,
} from './config/prerender';

const container = document.getElementById('root')!;

// The public pages arrive rendered (scripts/prerender.ts): the root holds the markup of the page
// named in `data-prerendered`, which is hydrated. Any other address served that file (a static
// host's fallback for /dashboard, say) renders from scratch, without the prerendered page's
// markup and head elements.
const prerenderedPath = container.getAttribute(PRERENDERED_ATTRIBUTE);
const hydrating =
  prerenderedPath !== null && trimPath(prerenderedPath) === trimPath(window.location.pathname);

function dropPrerenderedMarkup() {
  container.replaceChildren();
  const head = document.head;
  let inside = false;
  for (const node of [...head.childNodes]) {
    const comment = node.nodeType === Node.COMMENT_NODE ? node.nodeValue : null;
    if (comment === HEAD_START_COMMENT) inside = true;
    const last = comment === HEAD_END_COMMENT;
    // The page's title, description, canonical link and share tags; its styles may stay.
    if (inside && !(node instanceof HTMLStyleElement)) node.remove();
    if (last) inside = false;
  }
  document.documentElement.removeAttribute(APP_SHELL_ATTRIBUTE);
}

/** Lets the browser run what waits (input, paint) before the next step: a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// Start-up in steps, each in a task of its own, so no single task holds the main thread long (a
// phone needs a few times as long as this machine for each): the app's code, then the design
// system (Chakra's set-up of tokens, conditions and utilities), then the first page's chunk.
async function start() {
  const { App, appSystem, createBrowserStyleCache, preloadPage } = await loadChunk(
    () => import('./app/start-up'),
    'App',
    { reloadIfGone: true },
  );
  await nextTask();
  appSystem();
  await nextTask();
  // The page the visit starts on is loaded before the first render, so it appears in one step
  // instead of after a spinner that the page then pushes down (a layout shift), and hydration
  // finds it ready. A chunk that fails to load is left to the page's own error handling.
  await preloadPage(window.location.pathname).catch(() => undefined);
  // The same tree as src/entry-server.tsx renders (see src/app/app.tsx).
  const app = (
    <StrictMode>
      <App styleCache={createBrowserStyleCache()} />
    </StrictMode>
  );
  // As a transition, React renders in slices and yields to the browser between them, instead of
  // holding the main thread for the whole first render (Lighthouse's total blocking time).
  startTransition(() => {
    if (hydrating) {
      hydrateRoot(container, app);
    } else {
      dropPrerenderedMarkup();
      createRoot(container).render(app);
    }
  });
}

void start();
