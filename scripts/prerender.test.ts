// The prerender writer's pieces: where each page's file goes, the template made from the built
// index.html (scripts after the first paint, the stylesheet inline) and the page document.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageDocument, pageFile, pageTemplate } from './prerender';

const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

describe('prerendered page files', () => {
  let distDir: string;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-prerender-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), BUILT);
    await writeFile(
      path.join(distDir, 'assets', 'index-ghi.css'),
      '@font-face{font-family:Inter;src:url(/assets/inter.woff2)}',
    );
  });

  afterAll(() => rm(distDir, { recursive: true, force: true }));

  it('puts / into index.html and every other page into <name>.html, as hosts serve them', () => {
    expect(pageFile('/d', '/')).toBe(path.join('/d', 'index.html'));
    expect(pageFile('/d', '/pricing')).toBe(path.join('/d', 'pricing.html'));
    expect(pageFile('/d', '/terms-of-service/')).toBe(path.join('/d', 'terms-of-service.html'));
  });

  it('loads the scripts after the first paint and inlines the stylesheet', async () => {
    const template = await pageTemplate(distDir);
    expect(template).not.toContain('<script type="module"');
    expect(template).not.toContain('<link rel="modulepreload"');
    expect(template).not.toContain('rel="stylesheet"');
    expect(template).toContain(
      '<style>@font-face{font-family:Inter;src:url(/assets/inter.woff2)}</style>',
    );
    const loader = /<script>(requestAnimationFrame[^<]*)<\/script><\/body>/.exec(template)?.[1];
    expect(loader).toContain('"/assets/index-abc.js"');
    expect(loader).toContain('["/assets/react-def.js"]');
  });

  it('fills in the head and the root, keeping the styles exactly', async () => {
    const template = await pageTemplate(distDir);
    const styles = '<style data-emotion="css a1">.css-a1::before{content:"$& $1 $$"}</style>';
    const html = pageDocument(template, '/pricing', {
      head: `<title>Pricing</title>${styles}`,
      body: '<main><h1>Pricing</h1></main>',
    });
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
    expect(head).toContain(
      `<!--prerendered-head--><title>Pricing</title>${styles}<!--/prerendered-head-->`,
    );
    expect(html).toContain(
      '<div id="root" data-prerendered="/pricing"><main><h1>Pricing</h1></main></div>',
    );
    // The guard hides the markup at any other address (a host's fallback to this file).
    expect(head).toContain('if(location.pathname.replace(/\\/+$/,"")!=="/pricing")');
  });

  it('refuses a template without the root element to fill', () => {
    expect(() =>
      pageDocument('<html><head></head><body></body></html>', '/', { head: '', body: '' }),
    ).toThrow(/no <div id="root"><\/div>/);
  });
});
