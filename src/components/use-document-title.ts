// Sets the page title ("Pricing · tinyback.tools") for pages that do not render <PageMeta>
// (the signed-in area). It owns one <title> element while the page is shown and removes it
// afterwards, so it never lingers beside the titles PageMeta's pages render.
import { useEffect } from 'react';
import { pageTitle } from '../config/site';

export function useDocumentTitle(page?: string) {
  useEffect(() => {
    const title = document.createElement('title');
    title.textContent = pageTitle(page);
    document.head.append(title);
    return () => title.remove();
  }, [page]);
}
