import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { CopyButton } from './copy-button';
import { renderWithProviders } from './testing/render';
import { COPY_CONFIRM_MS } from '../config/site';

describe('CopyButton', () => {
  const writeText = vi.fn<(text: string) => Promise<void>>();

  beforeEach(() => {
    vi.useFakeTimers();
    writeText.mockReset();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  afterEach(() => vi.useRealTimers());

  it("reads 'Copied' after a successful copy, then 'Copy' again after 1500 ms", async () => {
    writeText.mockResolvedValue(undefined);
    renderWithProviders(<CopyButton text="<form></form>" />);
    const button = screen.getByRole('button', { name: 'Copy' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('<form></form>');
    expect(button).toHaveTextContent('Copied');
    // The spec's 1500 ms, written out so a changed constant cannot pass unnoticed.
    expect(COPY_CONFIRM_MS).toBe(1500);
    act(() => vi.advanceTimersByTime(1499));
    expect(button).toHaveTextContent('Copied');
    act(() => vi.advanceTimersByTime(1));
    expect(button).toHaveTextContent(/^Copy$/);
  });

  it('leaves no timer behind when the copy finishes after the button is gone', async () => {
    let finish = () => {};
    writeText.mockReturnValue(new Promise<void>((resolve) => (finish = resolve)));
    const { unmount } = renderWithProviders(<CopyButton text="x" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    unmount();
    await act(async () => finish());
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps 'Copy' when the clipboard refuses", async () => {
    writeText.mockRejectedValue(new Error('denied'));
    renderWithProviders(<CopyButton text="x" />);
    const button = screen.getByRole('button', { name: 'Copy' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalled();
    expect(button).toHaveTextContent(/^Copy$/);
  });
});
