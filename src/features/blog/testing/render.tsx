// Renders the blog's routes at a given URL inside the app's providers, and shows the current URL.
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LocationProbe, renderWithProviders } from '../../../components/testing/render';
import { BlogListPage, BlogPostPage } from '../index';

export function renderBlog(url: string, extra?: ReactElement) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/blog" element={<BlogListPage newsletter={extra} />} />
        <Route path="/blog/:id" element={<BlogPostPage />} />
      </Routes>
      <LocationProbe />
    </>,
    { route: url },
  );
}
