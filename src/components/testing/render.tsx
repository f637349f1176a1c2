// Test helper: renders UI inside the app's design system and a memory router, as the app does,
// and shows the router's current URL to assertions.
import type { ReactElement, ReactNode } from 'react';
import { afterEach } from 'vitest';
import { cleanup, render, screen, type RenderOptions } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

// jsdom lacks a few browser APIs that Chakra's (Zag) components call.
if (typeof window !== 'undefined') {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  window.scrollTo ??= (() => {}) as typeof window.scrollTo;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

export type RenderWithProvidersOptions = {
  route?: string;
  /** A query cache the test prepared or inspects; a fresh one (no retries) otherwise. */
  queryClient?: QueryClient;
} & Omit<RenderOptions, 'wrapper'>;

/** A query client for tests: no retries, so a failing fetcher shows its error state at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
}

/** Waiting budget for UI that renders a whole page in jsdom; slow on a busy machine, not a timing assertion. */
export const SLOW = { timeout: 10_000 };

/** Shows the router's current path and query, for tests that follow redirects and links. */
export function LocationProbe() {
  const location = useLocation();
  // A plain div: an <output> would add a status role that pages own.
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** The element of the rendered LocationProbe. */
export const currentLocation = () => screen.getByTestId('location');

export function renderWithProviders(
  ui: ReactElement,
  {
    route = '/',
    queryClient = createTestQueryClient(),
    ...options
  }: RenderWithProvidersOptions = {},
) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <ChakraProvider value={defaultSystem}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
        </QueryClientProvider>
      </ChakraProvider>
    );
  }
  return { queryClient, ...render(ui, { wrapper: Wrapper, ...options }) };
}
