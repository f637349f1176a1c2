// Renders the blog's routes at a given URL inside the app's providers, and shows the current URL.
import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '../../../components/testing/render';
import { BlogListPage, BlogPostPage } from '../index';

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

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
