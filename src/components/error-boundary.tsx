// Catches what a part of the page throws while rendering (a chunk that would not load, a bug), so
// the rest of the app stays up and the part shows its fallback with a way out instead of React
// unmounting everything. Used around the whole app (src/app/app.tsx), around each lazily loaded
// page (src/app/lazy-page.ts) and around the pieces that load later (toasts, profile menu).
//
// The fallbacks in full (fallbacks.tsx) are a chunk of their own, fetched when the browser is idle
// after start-up; until it is here (or if it cannot be had) a plain stand-in with a way out takes
// its place.
import { Component, type ReactNode } from 'react';
import { fallbacks } from '../lib/chunk-load';

export interface FallbackProps {
  error: unknown;
  /** Renders the children again (a chunk that failed is fetched again). */
  reset: () => void;
}

export interface ErrorBoundaryProps {
  children?: ReactNode;
  fallback: (props: FallbackProps) => ReactNode;
  /** Told once the fallback is shown (not while React may still retry the render). */
  onError?: () => void;
}

/** What was thrown, boxed (anything can be thrown, `undefined` included); none while all is well. */
interface State {
  failure?: { error: unknown };
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { failure: { error } };
  }

  componentDidCatch() {
    this.props.onError?.();
  }

  reset = () => this.setState({ failure: undefined });

  render() {
    const { failure } = this.state;
    return failure ? this.props.fallback({ ...failure, reset: this.reset }) : this.props.children;
  }
}

/**
 * A page's (or the app's) error: the full panel, or (before its chunk is here, or if it cannot be
 * had) a plain stand-in with a way out. A chunk that failed has had the panel fetched by then
 * (chunk-load.ts), and the panel is fetched anyway once the browser is idle after start-up.
 */
export function PageErrorFallback(props: FallbackProps) {
  if (fallbacks) return <fallbacks.ErrorPanel {...props} />;
  return (
    <p role="alert">
      This page could not be shown. <a href={window.location.href}>Reload</a>
    </p>
  );
}
