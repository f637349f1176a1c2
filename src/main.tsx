import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/router';

// The page the visit starts on is loaded before the first render, so it appears in one step
// instead of after a spinner that the page then pushes down (a layout shift). A chunk that fails
// to load is left to the page's own error handling on render.
void preloadPage(window.location.pathname)
  .catch(() => undefined)
  .then(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
