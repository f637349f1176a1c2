// One post: title, category, long date, cover, rendered body, and clear not-found and error states.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  failRequests,
  pgError,
  selectedColumns,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { samplePosts, type BlogRow } from '../testing/fixtures';
import { renderBlog } from '../testing/render';

// Chakra in jsdom renders slowly on a busy machine; this is a budget, not a timing assertion.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => supabaseDb.seed({ blog_posts: samplePosts }));

const posts = () => supabaseDb.rows('blog_posts') as unknown as BlogRow[];
const queries = () => supabaseDb.requested('GET', 'blog_posts');

const article = () => screen.getByRole('article');

describe('BlogPostPage', () => {
  it('shows the post with its category, long date, cover and markdown body', async () => {
    posts()[2].content = 'Use **_next** here.\nSame paragraph.\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    renderBlog('/blog/3');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Redirect after submit' }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(within(article()).getByText('Tips')).toBeInTheDocument();
    expect(within(article()).getByText('March 4, 2026')).toHaveAttribute(
      'datetime',
      '2026-03-04T12:00:00Z',
    );
    expect(within(article()).getByText('_next').tagName).toBe('STRONG');
    expect(within(article()).getByRole('table')).toBeInTheDocument();
    expect(article().querySelector('br')).toBeNull();
    expect(document.title).toBe('Redirect after submit · Blog · tinyback.tools');
  });

  it('announces the loading post as a named status', async () => {
    renderBlog('/blog/1');
    expect(screen.getByRole('status', { name: 'Loading post' })).toBeInTheDocument();
    await screen.findByRole('heading', { level: 1, name: 'Introducing tinyback' });
    expect(screen.queryByRole('status', { name: 'Loading post' })).toBeNull();
  });

  it('shows the cover image with alt text', async () => {
    renderBlog('/blog/2');
    await screen.findByRole('heading', { level: 1, name: 'Stop form spam with a honeypot' });
    const img = within(article()).getByRole('img', {
      name: 'Cover illustration for “Stop form spam with a honeypot”',
    });
    expect(img).toHaveAttribute('src', '/blog/honeypot.svg');
  });

  it('shows "Post not found" with a way back for an id that does not exist', async () => {
    renderBlog('/blog/999');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Post not found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the blog' })).toHaveAttribute('href', '/blog');
    expect(document.title).toBe('Post not found · Blog · tinyback.tools');
  });

  it('treats an unpublished post as not found', async () => {
    renderBlog('/blog/5');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Post not found' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Secret.')).toBeNull();
  });

  it.each(['abc', '1.5', '-1', '0', '99999999999'])(
    'shows not found for the id %s without asking for a post',
    async (id) => {
      renderBlog(`/blog/${id}`);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Post not found' }),
      ).toBeInTheDocument();
      expect(queries().some((q) => q.url.searchParams.has('id'))).toBe(false);
    },
  );

  it('keeps the sidebar with recent posts and a search that leads to the list', async () => {
    const user = userEvent.setup();
    renderBlog('/blog/1');
    await screen.findByRole('heading', { level: 1, name: 'Introducing tinyback' });
    const recent = await screen.findByRole('list', { name: 'Recent posts' });
    expect(
      within(recent)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/blog/4', '/blog/3', '/blog/2']);
    await user.type(screen.getByRole('searchbox', { name: 'Search posts' }), 'honeypot{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/blog?q=honeypot');
    expect(await screen.findByRole('status')).toHaveTextContent('1 post matching “honeypot”');
  });

  it('shows an error state in place of a body the renderer refuses', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    (posts()[0] as unknown as { content: unknown }).content = null;
    renderBlog('/blog/1');
    expect(await screen.findByText('This post could not be displayed.')).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Introducing tinyback' }),
    ).toBeInTheDocument();
    spy.mockRestore();
  });

  it('offers a retry when the post cannot be loaded', async () => {
    const user = userEvent.setup();
    failRequests('get', 'blog_posts', pgError('', 'offline'));
    renderBlog('/blog/1');
    expect(await screen.findByText('The post could not be loaded.')).toBeInTheDocument();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Introducing tinyback' }),
    ).toBeInTheDocument();
  });

  it('opens a post from the list at once from the cached card, and loads only its body', async () => {
    const user = userEvent.setup();
    posts()[2].content = 'The body of the redirect post.';
    renderBlog('/blog');
    const region = await screen.findByRole('region', { name: 'Latest posts' });
    await user.click(await within(region).findByRole('link', { name: 'Redirect after submit' }));
    // Title and date come from the list's cache before the post's own request answers.
    expect(
      screen.getByRole('heading', { level: 1, name: 'Redirect after submit' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('The body of the redirect post.')).toBeInTheDocument();
    // One list request (the list page's) and one post request with the body; the sidebar's
    // recent posts come from the cached list.
    expect(queries().map(selectedColumns)).toEqual([
      'id, title, category, excerpt, image_url, created_at',
      'id, title, category, excerpt, image_url, created_at, content',
    ]);
    expect(queries()[1].url.searchParams.get('id')).toBe('eq.3');
    const recent = screen.getByRole('list', { name: 'Recent posts' });
    expect(within(recent).getAllByRole('link')).toHaveLength(3);
  });

  it('opened directly, reads the list once for its sidebar and the post with its body', async () => {
    renderBlog('/blog/2');
    await screen.findByRole('heading', { level: 1, name: 'Stop form spam with a honeypot' });
    await screen.findByRole('list', { name: 'Recent posts' });
    const columns = queries().map(selectedColumns).sort();
    expect(columns).toEqual([
      'id, title, category, excerpt, image_url, created_at',
      'id, title, category, excerpt, image_url, created_at, content',
    ]);
  });

  it('does not reload the list when the window regains focus on a post', async () => {
    renderBlog('/blog/2');
    await screen.findByRole('list', { name: 'Recent posts' });
    // TanStack Query hears the window coming back through visibilitychange.
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    expect(queries().filter((q) => !selectedColumns(q).includes('content'))).toHaveLength(1);
  });
});
