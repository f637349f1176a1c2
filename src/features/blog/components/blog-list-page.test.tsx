// The blog list: posts from the data, working category and search filters kept in the URL,
// announced result counts, recent posts, card links and the loading/error states.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  failRequests,
  pgError,
  selectedColumns,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { samplePosts, type BlogRow } from '../testing/fixtures';
import { SLOW } from '../../../components/testing/render';
import { renderBlog } from '../testing/render';
import { SKELETON_CARD_COUNT } from './post-grid';

// Chakra in jsdom renders slowly on a busy machine; this is a budget, not a timing assertion.
vi.setConfig({ testTimeout: 20_000 });

const postList = () => screen.getByRole('region', { name: /^(Latest posts|Updates|Guides|Tips)$/ });
const findCard = async (name: string) =>
  within(
    await screen.findByRole('region', { name: /^(Latest posts|Updates|Guides|Tips)$/ }),
  ).findByRole('link', { name });
const cardTitles = () =>
  within(postList())
    .queryAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

beforeEach(() => supabaseDb.seed({ blog_posts: samplePosts }));

const posts = () => supabaseDb.rows('blog_posts') as unknown as BlogRow[];
const queries = () => supabaseDb.requested('GET', 'blog_posts');

describe('BlogListPage', () => {
  it('shows every published post as a card linking to its page, newest first', async () => {
    renderBlog('/blog');
    expect(await findCard('Deploying on Supabase')).toHaveAttribute('href', '/blog/4');
    expect(cardTitles()).toEqual([
      'Deploying on Supabase',
      'Redirect after submit',
      'Stop form spam with a honeypot',
      'Introducing tinyback',
    ]);
    const links = within(postList()).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/blog/4',
      '/blog/3',
      '/blog/2',
      '/blog/1',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('4 posts');
    expect(document.title).toBe('Blog · tinyback.tools');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('gives cards a category, a long date and a described cover image', async () => {
    renderBlog('/blog');
    const card = (await findCard('Stop form spam with a honeypot')).closest('article')!;
    expect(within(card).getByText('Guides')).toBeInTheDocument();
    expect(within(card).getByText('February 14, 2026')).toBeInTheDocument();
    expect(within(card).getByRole('img')).toHaveAttribute(
      'alt',
      'Cover illustration for “Stop form spam with a honeypot”',
    );
    expect(within(card).getByRole('img')).toHaveAttribute('src', '/blog/honeypot.svg');
  });

  it('filters by the category in the URL and highlights its link', async () => {
    renderBlog('/blog?cat=guides');
    await findCard('Deploying on Supabase');
    expect(cardTitles()).toEqual(['Deploying on Supabase', 'Stop form spam with a honeypot']);
    expect(screen.getByRole('status')).toHaveTextContent('2 posts in Guides');
    const nav = screen.getByRole('navigation', { name: 'Categories' });
    expect(within(nav).getByRole('link', { name: 'Guides' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'All posts' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('switches category through the sidebar links', async () => {
    const user = userEvent.setup();
    renderBlog('/blog');
    await findCard('Deploying on Supabase');
    const nav = screen.getByRole('navigation', { name: 'Categories' });
    expect(within(nav).getByRole('link', { name: 'Tips' })).toHaveAttribute(
      'href',
      '/blog?cat=tips',
    );
    await user.click(within(nav).getByRole('link', { name: 'Tips' }));
    expect(cardTitles()).toEqual(['Redirect after submit']);
    await user.click(within(nav).getByRole('link', { name: 'All posts' }));
    expect(cardTitles()).toHaveLength(4);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/blog$/);
  });

  it('searches titles and excerpts as you type and keeps the text in the URL', async () => {
    const user = userEvent.setup();
    renderBlog('/blog');
    await findCard('Deploying on Supabase');
    await user.type(screen.getByRole('searchbox', { name: 'Search posts' }), 'spam');
    expect(cardTitles()).toEqual(['Stop form spam with a honeypot']);
    expect(screen.getByTestId('location')).toHaveTextContent('/blog?q=spam');
    expect(screen.getByRole('status')).toHaveTextContent('1 post matching “spam”');
    // The category links keep the search so both filters combine.
    expect(
      within(screen.getByRole('navigation', { name: 'Categories' })).getByRole('link', {
        name: 'Tips',
      }),
    ).toHaveAttribute('href', '/blog?cat=tips&q=spam');
  });

  it('applies category and search together from a shared URL', async () => {
    renderBlog('/blog?cat=tips&q=THANK-YOU');
    await findCard('Redirect after submit');
    expect(cardTitles()).toEqual(['Redirect after submit']);
    expect(screen.getByRole('searchbox', { name: 'Search posts' })).toHaveValue('THANK-YOU');
    expect(screen.getByRole('status')).toHaveTextContent('1 post in Tips matching “THANK-YOU”');
  });

  it('asks only for the columns a card shows, never the post bodies', async () => {
    renderBlog('/blog');
    await findCard('Deploying on Supabase');
    expect(supabaseDb.requests).toHaveLength(1);
    expect(supabaseDb.requests[0].path).toBe('blog_posts');
    expect(selectedColumns(queries()[0])).toBe(
      'id, title, category, excerpt, image_url, created_at',
    );
    expect(selectedColumns(queries()[0])).not.toMatch(/content|\*/);
  });

  it('puts the search and the categories before the posts, and the recent posts after', async () => {
    renderBlog('/blog');
    const firstCard = await findCard('Deploying on Supabase');
    const search = screen.getByRole('searchbox', { name: 'Search posts' });
    const categories = screen.getByRole('navigation', { name: 'Categories' });
    const recent = await screen.findByRole('list', { name: 'Recent posts' });
    const before = (a: Node, b: Node) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(before(search, firstCard)).toBe(true);
    expect(before(categories, firstCard)).toBe(true);
    expect(before(firstCard, recent)).toBe(true);
  });

  it('says when nothing matches and offers a way back to all posts', async () => {
    const user = userEvent.setup();
    renderBlog('/blog?cat=updates&q=honeypot');
    expect(
      await screen.findByText('No posts match “honeypot” in the Updates category.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('0 posts in Updates matching “honeypot”');
    await user.click(screen.getByRole('link', { name: 'Show all posts' }));
    expect(cardTitles()).toHaveLength(4);
    expect(screen.getByRole('searchbox', { name: 'Search posts' })).toHaveValue('');
  });

  it('shows the newsletter sign-up it is given in the hero', async () => {
    renderBlog('/blog', <form aria-label="Newsletter sign-up" />);
    expect(screen.getByRole('form', { name: 'Newsletter sign-up' })).toBeInTheDocument();
    await findCard('Introducing tinyback');
  });

  it('lists the three newest posts from the data as recent posts', async () => {
    renderBlog('/blog?cat=updates');
    const recent = await screen.findByRole('list', { name: 'Recent posts' });
    const links = within(recent).getAllByRole('link');
    // Not the fixed ids 1, 2, 3 and not limited by the active filter.
    expect(links.map((a) => a.textContent)).toEqual([
      'Deploying on Supabase',
      'Redirect after submit',
      'Stop form spam with a honeypot',
    ]);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/blog/4', '/blog/3', '/blog/2']);
  });

  it('never shows unpublished posts', async () => {
    renderBlog('/blog');
    await findCard('Deploying on Supabase');
    expect(screen.queryByText('Draft: pricing changes')).toBeNull();
    expect(queries()[0].url.searchParams.get('published')).toBe('eq.true');
  });

  it('shows skeletons while loading, then an error with a working retry', async () => {
    const user = userEvent.setup();
    failRequests('get', 'blog_posts', pgError('', 'network down'));
    renderBlog('/blog');
    expect(screen.getByTestId('post-grid-skeleton')).toBeInTheDocument();
    // Placeholders are for the eye only.
    expect(screen.getByTestId('post-grid-skeleton')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getAllByTestId('post-card-skeleton')).toHaveLength(SKELETON_CARD_COUNT);
    expect(
      await screen.findByText('The posts could not be loaded.', undefined, SLOW),
    ).toBeInTheDocument();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    // The retry renders the list's chunk and four cards: seconds on a busy machine.
    await waitFor(() => expect(cardTitles()).toHaveLength(4), SLOW);
  });

  it('refreshes the list when the window regains focus', async () => {
    renderBlog('/blog');
    await findCard('Deploying on Supabase');
    posts().push({
      ...samplePosts[0],
      id: 6,
      title: 'Fresh news',
      created_at: '2026-05-01T08:00:00Z',
    });
    // TanStack Query hears the window coming back through visibilitychange.
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    expect(await findCard('Fresh news')).toHaveAttribute('href', '/blog/6');
  });
});
