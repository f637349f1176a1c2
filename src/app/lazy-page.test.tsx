// A lazy page suspends until its chunk arrives, unless the chunk was preloaded: then it renders in
// the first pass, so the first page of a visit never shows the loading fallback (src/main.tsx).
// It arrives with the recipes of the components only lazy pages render (theme.ts). A page that
// fails shows the error panel in its place, and 'Try again' loads it again.
import { Suspense } from 'react';
import { ChakraProvider, Switch } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';
import { appSystem } from './theme';

const pageModule = () => ({ Page: ({ name }: { name: string }) => <h1>Hello {name}</h1> });

function renderPage(Page: (props: { name: string }) => unknown) {
  const Component = Page as (props: { name: string }) => React.ReactElement;
  return render(
    <Suspense fallback={<p>Loading page</p>}>
      <Component name="Ada" />
    </Suspense>,
  );
}

afterEach(cleanup);

describe('lazyPage', () => {
  // First: the design system is one per test file, and every page loaded adds the recipes to it.
  it("brings the later recipes: a page's Switch is styled by Chakra's switch recipe", async () => {
    const SwitchPage = () => (
      <Switch.Root>
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>Notify me</Switch.Label>
      </Switch.Root>
    );
    // Not part of the start-up recipes: rendered before its page's chunk, a Switch is unstyled.
    expect(appSystem().isSlotRecipe('switch')).toBe(false);
    const Page = lazyPage(async () => ({ SwitchPage }), 'SwitchPage');
    await Page.preload();
    const { container } = render(
      <ChakraProvider value={appSystem()}>
        <Page />
      </ChakraProvider>,
    );
    expect(appSystem().isSlotRecipe('switch')).toBe(true);
    expect(container.querySelector('label')).toHaveClass('chakra-switch__root');
  });
  it('shows the fallback until the chunk arrives', async () => {
    const Page = lazyPage(async () => pageModule(), 'Page');
    renderPage(Page);
    expect(screen.getByText('Loading page')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Hello Ada' })).toBeInTheDocument();
  });

  it('renders a preloaded page at once, and loads its chunk only once', async () => {
    const load = vi.fn(async () => pageModule());
    const Page = lazyPage(load, 'Page');
    await Page.preload();
    renderPage(Page);
    expect(screen.getByRole('heading', { name: 'Hello Ada' })).toBeInTheDocument();
    expect(screen.queryByText('Loading page')).not.toBeInTheDocument();
    await Page.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed chunk again on the next preload', async () => {
    const load = vi
      .fn<() => Promise<ReturnType<typeof pageModule>>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(pageModule());
    const Page = lazyPage(load, 'Page');
    await expect(Page.preload()).rejects.toThrow('offline');
    await Page.preload();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("shows the error panel in a failed page's place, and 'Try again' loads the page again", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi
      .fn<() => Promise<ReturnType<typeof pageModule>>>()
      .mockRejectedValueOnce(new Error('the page broke while loading'))
      .mockResolvedValue(pageModule());
    const Page = lazyPage(load, 'Page');
    render(
      <ChakraProvider value={appSystem()}>
        <Suspense fallback={<p>Loading page</p>}>
          <Page name="Ada" />
        </Suspense>
      </ChakraProvider>,
    );
    const heading = await screen.findByRole('heading', {
      name: 'Something went wrong on this page',
    });
    // The focus moves once the panel's effects have run.
    await waitFor(() => expect(heading).toHaveFocus());
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Hello Ada' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
