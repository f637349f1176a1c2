// Writes public/robots.txt and public/sitemap.xml from src/config/seo.ts (the site URL, the public
// routes and the seeded blog posts). Run `npx tsx scripts/write-seo-files.ts` after changing
// them; src/config/seo.test.ts fails while the files are out of date.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { robotsTxt, sitemapXml } from '../src/config/seo.ts';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');
writeFileSync(path.join(publicDir, 'robots.txt'), robotsTxt());
writeFileSync(path.join(publicDir, 'sitemap.xml'), sitemapXml());
console.log('wrote public/robots.txt and public/sitemap.xml');
