// What src/main.tsx loads to start the app, as one import: one chunk for the app's start-up code
// (three separate imports would split the modules they share into many small chunks).
export { App } from './app';
export { preloadPage } from './router';
export { appSystem } from './theme';
export { createBrowserStyleCache } from './style-cache';
