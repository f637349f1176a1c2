// The page's content: the innermost element marked with PAGE_CONTENT_ATTRIBUTE (the dashboard's
// content, past its sidebar), else the site's <main>. 'Skip to content' lands there (the
// dashboard frame moves the focus on from <main>), and so does the focus after a dialog when it
// has nowhere better to go (return-focus.ts).

export const PAGE_CONTENT_ATTRIBUTE = 'data-page-content';

/** The page's content, or null on a page without any. */
export function pageContent(): HTMLElement | null {
  const marked = document.querySelectorAll<HTMLElement>(`[${PAGE_CONTENT_ATTRIBUTE}]`);
  return marked[marked.length - 1] ?? document.getElementById('main');
}
