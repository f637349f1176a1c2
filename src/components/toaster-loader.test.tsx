// The toast renderer loads when the first toast is raised, and that toast still shows
// (toaster-loader.tsx); a page that raises none never downloads it.
import { act, cleanup, render, screen } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** How often the renderer's module was loaded (fresh for each test). */
const loaded = { count: 0 };

beforeEach(() => {
  vi.resetModules();
  loaded.count = 0;
  vi.doMock('./toaster-view', async (importOriginal) => {
    loaded.count += 1;
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
});
