// The server-state cache's provider, put around each lazy page (src/app/lazy-page.ts) rather than
// at the root, so TanStack Query loads with the first page that may need it, not with `/`.
// Inside another scope or a test's own QueryClientProvider it adds nothing.
import { createElement, useContext, type ComponentType, type ReactNode } from 'react';
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../lib/query-client';
import { useQuerySlot } from './query-slot';

export function QueryScope({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  const slot = useQuerySlot();
  if (outer || !slot) return children;
  return <QueryClientProvider client={slot.get(createQueryClient)}>{children}</QueryClientProvider>;
}

/** `Component` rendered inside the query scope. */
export function withQueryScope<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  const Scoped = (props: P) => <QueryScope>{createElement(Component, props)}</QueryScope>;
  Scoped.displayName = `WithQueryScope(${Component.displayName ?? Component.name})`;
  return Scoped;
}
