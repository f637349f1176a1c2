// Where the app keeps its one TanStack Query client without loading TanStack Query: AppProvider
// holds a slot per app, and the query scope (src/app/query-scope.tsx, loaded with the lazy pages)
// fills it with the client on first use. The home page renders without the library (−7 KB gzip);
// every page and the newsletter form still share one cache, and each app (each test) its own.
import { createContext, useContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';

export interface QuerySlot {
  /** The app's client, made by `create` on the first call. */
  get: (create: () => QueryClient) => QueryClient;
  /** Drops every cached query (nothing to drop before the client exists). */
  clear: () => void;
}

export function createQuerySlot(): QuerySlot {
  let client: QueryClient | undefined;
  return {
    get: (create) => (client ??= create()),
    clear: () => client?.clear(),
  };
}

export const QuerySlotContext = createContext<QuerySlot | null>(null);

export const useQuerySlot = () => useContext(QuerySlotContext);
