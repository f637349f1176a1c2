// A page's <head> entries: title, description, canonical link, Open Graph and Twitter card tags,
// or a noindex rule. Rendered inside the page component; React 19 hoists <title>, <meta> and
// <link> into <head> (also when the page is rendered to HTML ahead of time) and removes them when
// the page unmounts, so each page states its own and nothing lingers after navigation.
import { absoluteUrl, OG_IMAGE } from '../config/seo';
import { pageTitle, site } from '../config/site';

export interface PageMetaProps {
  /** The page's name in the title ("Pricing" → "Pricing · tinyback.tools"); none for home. */
  title?: string;
  description?: string;
  /** The canonical path; omitted for pages that are not indexed. */
  path?: string;
  /** Signed-in pages, one-time links, redirect targets: keep them out of search results. */
  noindex?: boolean;
  /** 'article' for blog posts. */
  type?: 'website' | 'article';
}

export function PageMeta({ title, description, path, noindex = false, type }: PageMetaProps) {
  const fullTitle = pageTitle(title);
  const image = absoluteUrl(OG_IMAGE.path);
  return (
    <>
      <title>{fullTitle}</title>
      {description && <meta name="description" content={description} />}
      {noindex && <meta name="robots" content="noindex, nofollow" />}
      {!noindex && path && (
        <>
          <link rel="canonical" href={absoluteUrl(path)} />
          <meta property="og:site_name" content={site.name} />
          <meta property="og:type" content={type ?? 'website'} />
          <meta property="og:title" content={fullTitle} />
          {description && <meta property="og:description" content={description} />}
          <meta property="og:url" content={absoluteUrl(path)} />
          <meta property="og:image" content={image} />
          <meta property="og:image:width" content={String(OG_IMAGE.width)} />
          <meta property="og:image:height" content={String(OG_IMAGE.height)} />
          <meta property="og:image:alt" content={OG_IMAGE.alt} />
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:title" content={fullTitle} />
          {description && <meta name="twitter:description" content={description} />}
          <meta name="twitter:image" content={image} />
          <meta name="twitter:image:alt" content={OG_IMAGE.alt} />
        </>
      )}
    </>
  );
}
