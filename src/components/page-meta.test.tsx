// PageMeta puts the page's title, description, canonical link and share tags into <head>
// (React 19 hoisting), keeps noindex pages out of search, and takes them away on unmount.
import { describe, expect, it } from 'vitest';
import { PAGE_META, OG_IMAGE } from '../config/seo';
import { site } from '../config/site';
import { renderWithProviders } from './testing/render';
import { PageMeta } from './page-meta';

const head = (selector: string) => document.head.querySelector(selector);
const content = (selector: string) => head(selector)?.getAttribute('content');

describe('PageMeta', () => {
  it('hoists title, description, canonical link, Open Graph and Twitter tags into <head>', () => {
    renderWithProviders(<PageMeta {...PAGE_META.pricing} />);
    expect(document.title).toBe('Pricing · tinyback.tools');
    expect(content('meta[name="description"]')).toBe(PAGE_META.pricing.description);
    expect(head('link[rel="canonical"]')?.getAttribute('href')).toBe(`${site.url}/pricing`);
    expect(content('meta[property="og:title"]')).toBe('Pricing · tinyback.tools');
    expect(content('meta[property="og:description"]')).toBe(PAGE_META.pricing.description);
    expect(content('meta[property="og:url"]')).toBe(`${site.url}/pricing`);
    expect(content('meta[property="og:image"]')).toBe(`${site.url}${OG_IMAGE.path}`);
    expect(content('meta[property="og:image:width"]')).toBe('1200');
    expect(content('meta[property="og:image:height"]')).toBe('630');
    expect(content('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(content('meta[name="twitter:image"]')).toBe(`${site.url}${OG_IMAGE.path}`);
    expect(head('meta[name="robots"]')).toBeNull();
  });

  it('marks a noindex page and gives it no canonical link or share tags', () => {
    renderWithProviders(<PageMeta title="Thanks" noindex />);
    expect(document.title).toBe('Thanks · tinyback.tools');
    expect(content('meta[name="robots"]')).toBe('noindex, nofollow');
    expect(head('link[rel="canonical"]')).toBeNull();
    expect(head('meta[property="og:title"]')).toBeNull();
  });

  it('removes its tags when the page goes away', () => {
    const { unmount } = renderWithProviders(<PageMeta {...PAGE_META.docs} />);
    expect(head('link[rel="canonical"]')?.getAttribute('href')).toBe(`${site.url}/docs`);
    unmount();
    expect(head('link[rel="canonical"]')).toBeNull();
    expect(head('meta[name="description"]')).toBeNull();
  });
});
