// The toast renderer loads when the first toast is raised, and that toast still shows
// (toaster-loader.tsx); a page that raises none never downloads it. A renderer that cannot be
// loaded never takes the page down: the toast is told in words instead.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** How often the renderer's module was loaded, and whether it fails to (fresh for each test). */
const loaded = { count: 0, fails: false };

// One mock, registered once per test: a second vi.doMock of the same module in the test itself
// does not always win over this one by the time the loader's own import runs.
beforeEach(() => {
  vi.resetModules();
  loaded.count = 0;
  loaded.fails = false;
  vi.doMock('./toaster-view', async (importOriginal) => {
    loaded.count += 1;
    if (loaded.fails) throw new TypeError('Failed to fetch dynamically imported module');
    return importOriginal();
  });
});

afterEach(cleanup);

async function renderApp() {
  const [{ LazyToaster }, { notify }] = await Promise.all([
    import('./toaster-loader'),
    import('./toaster'),
  ]);
  render(
    <ChakraProvider value={defaultSystem}>
      <p>Page</p>
      <LazyToaster />
    </ChakraProvider>,
  );
  return notify;
}

/** Lets pending imports and renders settle. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the lazily loaded toaster', () => {
  it('is not downloaded before a toast is raised', async () => {
    await renderApp();
    await settle();
    expect(loaded.count).toBe(0);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('loads with the first toast and shows it', async () => {
    const notify = await renderApp();
    act(() => notify('success', 'Form saved', 'Your changes are live.'));
    expect(await screen.findByText('Form saved')).toBeInTheDocument();
    expect(screen.getByText('Your changes are live.')).toBeInTheDocument();
    act(() => notify('error', 'Could not delete the form'));
    expect(await screen.findByText('Could not delete the form')).toBeInTheDocument();
    expect(loaded.count).toBe(1);
  });

  it('tells the toast in words when the renderer cannot be loaded, and the page stays', async () => {
    loaded.fails = true;
    const notify = await renderApp();
    act(() => notify('error', 'Could not mark the message as read', 'Check your connection.'));
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Could not mark the message as read'));
    expect(status).toHaveTextContent('Check your connection.');
    expect(screen.getByText('Page')).toBeInTheDocument();
    expect(loaded.count).toBeGreaterThan(0);
    act(() => notify('success', 'Form saved'));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Form saved'));
  });
});
