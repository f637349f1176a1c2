// The blog filters: URL parsing, category and text matching, and newest-first selection.
import { describe, expect, it } from 'vitest';
import { blogFilterSearch, filterPosts, newestPosts, readBlogFilter } from './filter-posts';
import { samplePosts } from './testing/fixtures';

const ids = (posts: { id: number }[]) => posts.map((p) => p.id);

describe('readBlogFilter', () => {
  it('reads a known category and trims the search text', () => {
    expect(readBlogFilter(new URLSearchParams('cat=guides&q=%20spam%20'))).toEqual({
      category: 'guides',
      query: 'spam',
    });
  });

  it('ignores an unknown category', () => {
    expect(readBlogFilter(new URLSearchParams('cat=news')).category).toBeNull();
  });
});

describe('blogFilterSearch', () => {
  it('builds shareable query strings and leaves empty values out', () => {
    expect(blogFilterSearch({ category: 'tips', query: 'a b' })).toBe('?cat=tips&q=a+b');
    expect(blogFilterSearch({ category: null, query: '  ' })).toBe('');
  });
});

describe('filterPosts', () => {
  it('filters by category', () => {
    expect(ids(filterPosts(samplePosts, { category: 'guides', query: '' }))).toEqual([2, 4]);
  });

  it('searches title and excerpt without regard to case', () => {
    expect(ids(filterPosts(samplePosts, { category: null, query: 'SpAm' }))).toEqual([2]);
    expect(ids(filterPosts(samplePosts, { category: null, query: 'thank-you' }))).toEqual([3]);
    expect(ids(filterPosts(samplePosts, { category: null, query: 'zero endpoint' }))).toEqual([4]);
  });

  it('does not search the bodies, which the list does not load', () => {
    expect(filterPosts(samplePosts, { category: null, query: 'gotcha' })).toEqual([]);
  });

  it('combines category and search', () => {
    expect(ids(filterPosts(samplePosts, { category: 'tips', query: 'thank-you' }))).toEqual([3]);
    expect(ids(filterPosts(samplePosts, { category: 'updates', query: 'thank-you' }))).toEqual([]);
  });

  it('ignores accents', () => {
    const posts = [{ ...samplePosts[0], title: 'Café forms' }];
    expect(filterPosts(posts, { category: null, query: 'cafe' })).toHaveLength(1);
  });
});

describe('newestPosts', () => {
  it('returns the newest ones first whatever the input order', () => {
    expect(ids(newestPosts(samplePosts, 3))).toEqual([5, 4, 3]);
  });
});
