// The footer's newsletter form loads only when it nears the screen or the visitor acts on the
// page; a visit that does neither never downloads it (lazy-newsletter.tsx).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** How often the newsletter feature's module was loaded (fresh for each test). */
const loaded = { count: 0 };
// The query scope the lazy pages share is not what this test is about.
vi.mock('./query-scope', () => ({ withQueryScope: <C,>(component: C) => component }));

/** A stand-in IntersectionObserver the test drives: `reveal()` reports the slot near the screen. */
class FakeObserver {
  static last: FakeObserver | undefined;
  observed: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.observed = [];
  }
  reveal() {
    const entries = this.observed.map((target) => ({ target, isIntersecting: true }));
    this.callback(entries as unknown as IntersectionObserverEntry[], this as never);
  }
}

beforeEach(() => {
  vi.resetModules();
  loaded.count = 0;
  vi.doMock('../features/newsletter', () => {
    loaded.count += 1;
    return { NewsletterForm: ({ id }: { id: string }) => <form aria-label={`Newsletter ${id}`} /> };
  });
  FakeObserver.last = undefined;
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderForm() {
  const { NewsletterForm } = await import('./lazy-newsletter');
  render(
    <ChakraProvider value={defaultSystem}>
      <NewsletterForm id="footer-newsletter" />
    </ChakraProvider>,
  );
}

/** Lets the dynamic import and the state update that follows it settle. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the lazily loaded newsletter form', () => {
  it('is not downloaded while the visitor neither scrolls near it nor acts', async () => {
    await renderForm();
    await settle();
    expect(loaded.count).toBe(0);
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('loads when it nears the screen, within a generous margin', async () => {
    await renderForm();
    expect(FakeObserver.last?.observed).toHaveLength(1);
    act(() => FakeObserver.last!.reveal());
    expect(await screen.findByRole('form', { name: 'Newsletter footer-newsletter' })).toBeVisible();
    expect(loaded.count).toBe(1);
  });

  it('loads at the first key press, so a keyboard user finds it in the tab order', async () => {
    await renderForm();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(await screen.findByRole('form', { name: 'Newsletter footer-newsletter' })).toBeVisible();
    // Later events and the slot coming into view load nothing more.
    fireEvent.pointerDown(document.body);
    expect(loaded.count).toBe(1);
  });
});
