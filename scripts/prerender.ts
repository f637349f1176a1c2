// Writes the prerendered public pages into a client build: for each path, the built index.html
// with the page's head elements and styles in <head> and its markup in the root element
// (`/` → index.html, `/pricing` → pricing.html, which static hosts and `vite preview` serve at
// /pricing). src/main.tsx hydrates that markup.
//
// index.html is also what static hosts serve for every other path (the single-page-app
// fallback). A tiny inline script therefore hides the home page's markup when the address is not
// the page's own, so /dashboard never flashes the home page before the app replaces it.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  APP_SHELL_ATTRIBUTE,
  HEAD_END_COMMENT,
  HEAD_START_COMMENT,
  PRERENDERED_ATTRIBUTE,
  PRERENDERED_PATHS,
  trimPath,
} from '../src/config/prerender.ts';
import type { RenderedPage } from '../src/entry-server.tsx';

const ROOT_ELEMENT = '<div id="root"></div>';

/** Where a page's file goes in the build folder. */
export function pageFile(distDir: string, pagePath: string): string {
  const trimmed = trimPath(pagePath);
  return path.join(distDir, trimmed === '' ? 'index.html' : `${trimmed.slice(1)}.html`);
}

/**
 * The built index.html made ready for a page that paints without JavaScript:
 * - the app's module script and its preloads are requested only after the first paint, by a few
 *   bytes of inline script, so they do not compete with the document, fonts and images for a slow
 *   connection before the page is shown (the markup's links and text work without them);
 * - the small stylesheet (the fonts' @font-face rules) is written inline instead of costing a
 *   render-blocking request.
 */
export async function pageTemplate(distDir: string): Promise<string> {
  const built = await readFile(path.join(distDir, 'index.html'), 'utf8');
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(built);
  if (!entry) throw new Error('The built index.html has no module script.');
  const preloads = [...built.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
  const stylesheets = [
    ...built.matchAll(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g),
  ];
  let template = built.replace(entry[0], '');
  for (const [link] of preloads) template = template.replace(link, '');
  for (const [link, file] of stylesheets) {
    const css = await readFile(path.join(distDir, file), 'utf8');
    template = template.replace(link, () => `<style>${css}</style>`);
  }
  // The brand font's Latin file, which every page's text needs, is fetched with the document
  // instead of after the first layout, so it usually arrives before the first paint: no swap,
  // and no restyling of the whole page once the page is showing.
  const latinFont = (await readdir(path.join(distDir, 'assets'))).find((file) =>
    /^inter-latin-wght-normal-[\w-]+\.woff2$/.test(file),
  );
  if (latinFont) {
    template = template.replace(
      '</head>',
      () =>
        `<link rel="preload" href="/assets/${latinFont}" as="font" type="font/woff2" crossorigin></head>`,
    );
  }
  // requestAnimationFrame runs just before the first frame is painted; the timeout after it.
  const loader =
    `<script>requestAnimationFrame(function(){setTimeout(function(){` +
    `${JSON.stringify(preloads.map(([, href]) => href))}.forEach(function(h){` +
    `var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;document.head.appendChild(l)});` +
    `var s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=${JSON.stringify(entry[1])};` +
    `document.head.appendChild(s)})})</script>`;
  return template.replace('</body>', () => `${loader}</body>`);
}

/** The document for one page, from the page template. */
export function pageDocument(template: string, pagePath: string, page: RenderedPage): string {
  if (!template.includes(ROOT_ELEMENT) || !template.includes('</head>')) {
    throw new Error(`The built index.html has no ${ROOT_ELEMENT} or </head> to fill in.`);
  }
  // (Functions as replacements: a `$` in the styles must stay as it is.)
  // The same comparison as trimPath, in the few bytes that run before anything else.
  const guard =
    `<script>if(location.pathname.replace(/\\/+$/,"")!==${JSON.stringify(trimPath(pagePath))})` +
    `document.documentElement.setAttribute("${APP_SHELL_ATTRIBUTE}","")</script>` +
    `<style>html[${APP_SHELL_ATTRIBUTE}] #root{visibility:hidden}</style>`;
  const head = `<!--${HEAD_START_COMMENT}-->${page.head}<!--${HEAD_END_COMMENT}-->`;
  return template
    .replace('</head>', () => `${guard}${head}</head>`)
    .replace(
      ROOT_ELEMENT,
      // JSON.stringify quotes and escapes the path; the app's paths never contain '<' or '&'.
      () =>
        `<div id="root" ${PRERENDERED_ATTRIBUTE}=${JSON.stringify(pagePath)}>${page.body}</div>`,
    );
}

/** What the server bundle (src/entry-server.tsx) offers. */
export interface ServerEntry {
  renderPage: (pathname: string) => Promise<RenderedPage>;
}

/** Renders every page of PRERENDERED_PATHS into `distDir`; returns the files written. */
export async function prerenderPages(distDir: string, entry: ServerEntry): Promise<string[]> {
  const template = await pageTemplate(distDir);
  const written: string[] = [];
  for (const pagePath of PRERENDERED_PATHS) {
    const file = pageFile(distDir, pagePath);
    const page = await entry.renderPage(pagePath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, pageDocument(template, pagePath, page));
    written.push(path.relative(distDir, file));
  }
  return written;
}

// `tsx scripts/prerender.ts <build folder> <server entry>`: run by scripts/build-site.ts in a
// process of its own, so the server bundle's React is Node's own, whatever started the build.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [distDir, serverEntry] = process.argv.slice(2);
  if (!distDir || !serverEntry)
    throw new Error('usage: prerender.ts <build folder> <server entry>');
  // Pages that use supabase-js create its client when their module loads; on Node 20 its
  // realtime part needs a WebSocket class (nothing connects while rendering).
  globalThis.WebSocket ??= (await import('ws')).WebSocket as unknown as typeof globalThis.WebSocket;
  const entry = (await import(pathToFileURL(path.resolve(serverEntry)).href)) as ServerEntry;
  const written = await prerenderPages(distDir, entry);
  console.log(`prerendered ${written.length} pages: ${written.join(', ')}`);
}
