// The search and sharing files: robots.txt and sitemap.xml in public/ are what seo.ts builds
// (every public route of the spec's table, the seeded blog posts, the site URL), every page has
// its own title and description, and the share image is a real 1200×630 PNG.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  absoluteUrl,
  DISALLOWED_PATHS,
  metaTitle,
  OG_IMAGE,
  PAGE_META,
  robotsTxt,
  SEEDED_BLOG_POST_IDS,
  sitemapPaths,
  sitemapXml,
} from './seo';
import { SELF_HOSTING_GUIDE_URL, site } from './site';

// Vitest runs from the project root (jsdom gives this module an http: URL, not a file path).
const root = process.cwd();
const read = (file: string) => readFileSync(path.join(root, file));

describe('robots.txt and sitemap.xml', () => {
  it('ship as the files seo.ts builds (run scripts/write-seo-files.ts after a change)', () => {
    expect(read('public/robots.txt').toString()).toBe(robotsTxt());
    expect(read('public/sitemap.xml').toString()).toBe(sitemapXml());
  });

  it("lists every public route of the spec's table on the site URL, and no signed-in page", () => {
    const locs = [...sitemapXml().matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    for (const route of [
      '/',
      '/pricing',
      '/login',
      '/register',
      '/tools',
      '/blog',
      '/blog/1',
      '/terms-of-service',
      '/privacy-policy',
      '/custom',
      '/docs',
    ]) {
      expect(locs).toContain(`${site.url}${route}`);
    }
    expect(locs.every((loc) => loc.startsWith(`${site.url}/`))).toBe(true);
    expect(locs.filter((loc) => /\/(dashboard|settings|thanks)/.test(loc))).toEqual([]);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('lists every blog post the seed creates', () => {
    const seed = read('supabase/seed.sql').toString();
    const posts = seed.slice(seed.indexOf('insert into public.blog_posts'));
    const seededIds = [...posts.matchAll(/^\(\n {2}(\d+),$/gm)].map((match) => Number(match[1]));
    expect(seededIds.length).toBeGreaterThan(0);
    expect([...SEEDED_BLOG_POST_IDS]).toEqual(seededIds);
    for (const id of seededIds) expect(sitemapPaths()).toContain(`/blog/${id}`);
  });

  it('keeps crawlers out of signed-in pages and points them to the sitemap', () => {
    const robots = robotsTxt();
    expect(robots).toMatch(/^User-agent: \*$/m);
    for (const disallowed of ['/dashboard', '/settings', '/thanks']) {
      expect(robots).toContain(`Disallow: ${disallowed}\n`);
    }
    expect((DISALLOWED_PATHS as readonly string[]).includes('/')).toBe(false);
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap.xml`);
  });
});

describe('page metadata', () => {
  const entries = Object.values(PAGE_META);

  it('gives every page its own title and description', () => {
    const titles = entries.map((entry) => metaTitle(entry));
    const descriptions = entries.map((entry) => entry.description);
    expect(new Set(titles).size).toBe(entries.length);
    expect(new Set(descriptions).size).toBe(entries.length);
    for (const description of descriptions) {
      // Long enough to say something, short enough not to be cut off in a search result.
      expect(description.length).toBeGreaterThanOrEqual(50);
      expect(description.length).toBeLessThanOrEqual(170);
    }
  });

  it('builds absolute URLs on the site URL', () => {
    expect(absoluteUrl('/')).toBe(`${site.url}/`);
    expect(absoluteUrl('/pricing')).toBe(`${site.url}/pricing`);
    expect(site.url).toMatch(/^https:\/\/[^/]+$/);
  });
});

describe('share image', () => {
  it('is a 1200×630 PNG with real content', () => {
    const png = read(`public${OG_IMAGE.path}`);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    // IHDR: width and height as big-endian 32-bit numbers at bytes 16 and 20.
    expect(png.readUInt32BE(16)).toBe(OG_IMAGE.width);
    expect(png.readUInt32BE(20)).toBe(OG_IMAGE.height);
    expect([OG_IMAGE.width, OG_IMAGE.height]).toEqual([1200, 630]);
    // A blank image compresses to a few kilobytes; the wordmark and artwork do not.
    expect(png.length).toBeGreaterThan(20_000);
  });
});

describe('self-hosting guide link', () => {
  it("points to a section the README has (GitHub's heading anchor)", () => {
    const anchor = SELF_HOSTING_GUIDE_URL.split('#')[1];
    const headings = read('README.md')
      .toString()
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) =>
        line
          .replace(/^#+ /, '')
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      );
    expect(headings).toContain(anchor);
  });
});
