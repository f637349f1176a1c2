// The pages the build prerenders, with what each must show: its heading and its <title>.
// The list itself comes from src/config/prerender.ts, so a page added there is checked here too
// (an unknown one fails until its heading is added below).
import { PRERENDERED_PATHS } from '../../src/config/prerender';
import { PAGE_META, metaTitle } from '../../src/config/seo';

const HEADINGS: Record<string, RegExp> = {
  '/': /The form backend for any website/,
  '/pricing': /Simple pricing/,
  '/tools': /Small backend tools/,
  '/custom': /Custom web development/,
  '/docs': /Documentation/,
  '/blog': /Notes on forms/,
  '/terms-of-service': /^Terms of Service$/,
  '/privacy-policy': /^Privacy Policy$/,
};

export interface PrerenderTarget {
  path: string;
  h1: RegExp;
  title: string;
}

export const PRERENDER_TARGETS: PrerenderTarget[] = PRERENDERED_PATHS.map((path) => {
  const meta = Object.values(PAGE_META).find((entry) => entry.path === path);
  const h1 = HEADINGS[path];
  if (!meta || !h1) throw new Error(`No heading or page meta known for the prerendered ${path}.`);
  return { path, h1, title: metaTitle(meta) };
});
