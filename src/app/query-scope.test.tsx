// The query scope gives every lazy page of one app the same TanStack Query client, made on first
// use, a separate client to each app, and steps aside for a client provided above it.
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { createQuerySlot, QuerySlotContext, type QuerySlot } from './query-slot';
import { QueryScope } from './query-scope';

afterEach(cleanup);

const seen: QueryClient[] = [];
function ClientProbe({ label }: { label: string }) {
  seen.push(useQueryClient());
  return <p>{label}</p>;
}

function renderInApp(slot: QuerySlot) {
  render(
    <QuerySlotContext.Provider value={slot}>
      <QueryScope>
        <ClientProbe label="first page" />
      </QueryScope>
      <QueryScope>
        <ClientProbe label="second page" />
      </QueryScope>
    </QuerySlotContext.Provider>,
  );
}

describe('QueryScope', () => {
  it('shares one client between the pages of an app, and not between apps', () => {
    seen.length = 0;
    renderInApp(createQuerySlot());
    expect(screen.getByText('second page')).toBeInTheDocument();
    const [first, second] = seen;
    expect(first).toBeInstanceOf(QueryClient);
    expect(second).toBe(first);
    cleanup();
    seen.length = 0;
    renderInApp(createQuerySlot());
    expect(seen[0]).not.toBe(first);
  });

  it('uses a client provided above it (a test, or an outer scope)', () => {
    seen.length = 0;
    const outer = new QueryClient();
    render(
      <QuerySlotContext.Provider value={createQuerySlot()}>
        <QueryClientProvider client={outer}>
          <QueryScope>
            <ClientProbe label="page" />
          </QueryScope>
        </QueryClientProvider>
      </QuerySlotContext.Provider>,
    );
    expect(seen[0]).toBe(outer);
  });

  it("clears the app's cache through its slot (on a change of user)", () => {
    const slot = createQuerySlot();
    slot.clear(); // nothing cached yet: no client is made for it
    const client = slot.get(() => new QueryClient());
    client.setQueryData(['forms'], ['a form']);
    slot.clear();
    expect(client.getQueryData(['forms'])).toBeUndefined();
    expect(slot.get(() => new QueryClient())).toBe(client);
  });
});
