// Renders public/og-image.png (1200×630, the Open Graph / Twitter card image) from the SVG below:
// the wordmark, the tagline and a form-to-inbox sketch, set in the self-hosted Inter font.
// Run `npx tsx scripts/render-og-image.ts` after changing the wordmark or the tagline.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../tests/e2e/support/browser.ts';
import { OG_IMAGE } from '../src/config/seo.ts';
import { site } from '../src/config/site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const font = readFileSync(
  path.join(root, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'),
).toString('base64');

const { width, height } = OG_IMAGE;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#042f2e"/><stop offset="1" stop-color="#0f766e"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <g transform="translate(80 96)">
    <rect width="72" height="72" rx="16" fill="#14b8a6"/>
    <path d="M20 22h32M36 22v30" stroke="#fff" stroke-width="8" stroke-linecap="round"/>
  </g>
  <text x="80" y="290" font-family="Inter Variable" font-weight="800" font-size="96" letter-spacing="-3" fill="#fff">${escape(site.wordmark.base)}<tspan fill="#5eead4">${escape(site.wordmark.suffix)}</tspan></text>
  <text x="80" y="370" font-family="Inter Variable" font-weight="500" font-size="36" fill="#ccfbf1">The open-source, self-hostable</text>
  <text x="80" y="418" font-family="Inter Variable" font-weight="500" font-size="36" fill="#ccfbf1">form backend for any website.</text>
  <g font-family="Inter Variable" font-size="26" font-weight="600">
    <rect x="80" y="490" width="300" height="60" rx="30" fill="#ffffff" fill-opacity="0.12"/>
    <text x="112" y="529" fill="#fff">Paste a &lt;form&gt;</text>
    <text x="402" y="529" fill="#5eead4">→</text>
    <rect x="446" y="490" width="330" height="60" rx="30" fill="#ffffff" fill-opacity="0.12"/>
    <text x="478" y="529" fill="#fff">Get every message</text>
  </g>
  <g transform="translate(860 130)">
    <rect width="260" height="330" rx="20" fill="#fff"/>
    <rect x="28" y="36" width="110" height="14" rx="7" fill="#99f6e4"/>
    <rect x="28" y="66" width="204" height="40" rx="8" fill="none" stroke="#cbd5e1" stroke-width="3"/>
    <rect x="28" y="126" width="110" height="14" rx="7" fill="#99f6e4"/>
    <rect x="28" y="156" width="204" height="40" rx="8" fill="none" stroke="#cbd5e1" stroke-width="3"/>
    <rect x="28" y="216" width="204" height="40" rx="8" fill="none" stroke="#cbd5e1" stroke-width="3"/>
    <rect x="28" y="274" width="120" height="36" rx="8" fill="#0f766e"/>
    <text x="88" y="298" text-anchor="middle" font-family="Inter Variable" font-weight="700" font-size="18" fill="#fff">Send</text>
  </g>
</svg>`;

const html = `<!doctype html><html><head><style>
@font-face { font-family: 'Inter Variable'; src: url(data:font/woff2;base64,${font}) format('woff2'); font-weight: 100 900; }
html, body { margin: 0; }
</style></head><body>${svg}</body></html>`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.setContent(html);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(root, 'public', OG_IMAGE.path), type: 'png' });
  console.log(`wrote public${OG_IMAGE.path}`);
} finally {
  await browser.close();
}
