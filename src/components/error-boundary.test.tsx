// An error boundary keeps a failure to its part of the page: the fallback shows instead, and
// 'Try again' renders the part afresh. Before the full fallbacks have arrived, a page's failure
// shows a plain stand-in with a way out.
import { useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from './testing/render';
import { ErrorBoundary, PageErrorFallback } from './error-boundary';

afterEach(() => vi.restoreAllMocks());

/** Throws while `broken.now` says so. */
const broken = { now: true };
function Fragile() {
  if (broken.now) throw new Error('the part broke');
  return <p>The part works</p>;
}

describe('ErrorBoundary', () => {
  it('shows the fallback in place of the part that threw, and the rest stays', async () => {
    // React reports a caught error on the console; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken.now = true;
    const user = userEvent.setup();
    render(
      <main>
        <h1>The page</h1>
        <ErrorBoundary
          fallback={({ error, reset }) => (
            <div role="alert">
              {(error as Error).message}
              <button type="button" onClick={reset}>
                Try again
              </button>
            </div>
          )}
        >
          <Fragile />
        </ErrorBoundary>
      </main>,
    );
    expect(screen.getByRole('heading', { name: 'The page' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('the part broke');
    broken.now = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('The part works')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('leaves what does not throw alone', () => {
    function Counter() {
      const [count] = useState(3);
      return <p>{count} parts</p>;
    }
    render(
      <ErrorBoundary fallback={() => <p>failed</p>}>
        <Counter />
      </ErrorBoundary>,
    );
    expect(screen.getByText('3 parts')).toBeInTheDocument();
  });
});

describe('PageErrorFallback before the full fallbacks arrive', () => {
  it('is a plain alert with a way out', async () => {
    vi.doMock('../lib/chunk-load', () => ({ fallbacks: undefined }));
    vi.resetModules();
    const { PageErrorFallback: StandIn } = await import('./error-boundary');
    await act(async () => {
      renderWithProviders(<StandIn error={new Error('x')} reset={() => undefined} />);
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This page could not be shown.');
    expect(screen.getByRole('link', { name: 'Reload' })).toHaveAttribute(
      'href',
      window.location.href,
    );
    vi.doUnmock('../lib/chunk-load');
    expect(PageErrorFallback).toBeTypeOf('function');
  });
});
