// Renders blog pages inside the app's providers at a given URL, and exposes the current URL.
import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { BlogListPage, BlogPostPage } from '../index';

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderBlog(url: string, extra?: ReactElement) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/blog" element={<BlogListPage />} />
          <Route path="/blog/:id" element={<BlogPostPage />} />
        </Routes>
        <LocationProbe />
        {extra}
      </MemoryRouter>
    </ChakraProvider>,
  );
}
