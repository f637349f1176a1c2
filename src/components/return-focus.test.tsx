// The focus after a dialog closes: back on its opener; on the control that started a sequence of
// dialogs when the opener went with the first; on the page's content when the opener is gone.
import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from './testing/render';
import { ConfirmDialog } from './confirm-dialog';
import { pageContent, PAGE_CONTENT_ATTRIBUTE } from './page-content';
import { returnTarget } from './return-focus';

const contentProps = { [PAGE_CONTENT_ATTRIBUTE]: '', tabIndex: -1 };

describe('the page content', () => {
  it('is the innermost marked element', () => {
    renderWithProviders(
      <main {...contentProps} id="main">
        <nav aria-label="Sidebar">
          <a href="/x">Sidebar link</a>
        </nav>
        <div {...contentProps} id="inner">
          <h1>Page</h1>
        </div>
      </main>,
    );
    expect(pageContent()?.id).toBe('inner');
  });

  it('is missing on a page without one', () => {
    renderWithProviders(<p>No content region</p>);
    expect(pageContent()).toBeNull();
  });
});

describe('returnTarget', () => {
  it('prefers the opener, then what had the focus before, then the content', () => {
    renderWithProviders(
      <div {...contentProps} id="content">
        <button type="button">Opener</button>
        <button type="button">Before</button>
      </div>,
    );
    const opener = screen.getByRole('button', { name: 'Opener' });
    const before = screen.getByRole('button', { name: 'Before' });
    expect(returnTarget(opener, before)).toBe(opener);
    opener.remove();
    expect(returnTarget(opener, before)).toBe(before);
    before.remove();
    expect(returnTarget(opener, before)?.id).toBe('content');
    expect(returnTarget(null, null)?.id).toBe('content');
  });
});

/** A list of items, each deleted after a confirmation; and a two-step flow of dialogs. */
function Page() {
  const [items, setItems] = useState(['First', 'Second']);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [step, setStep] = useState<0 | 1 | 2>(0);
  return (
    <main {...contentProps} id="content">
      <button type="button" onClick={() => setStep(1)}>
        Start
      </button>
      {items.map((item) => (
        <button key={item} type="button" onClick={() => setDeleting(item)}>
          Delete {item}
        </button>
      ))}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting}?`}
        description="This cannot be undone."
        confirmLabel="Delete"
        pending={false}
        error={null}
        onConfirm={() => {
          setItems((all) => all.filter((item) => item !== deleting));
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={step === 1}
        title="Step one"
        description="The first of two."
        confirmLabel="Next"
        pending={false}
        error={null}
        onConfirm={() => setStep(2)}
        onClose={() => setStep(0)}
      />
      <ConfirmDialog
        open={step === 2}
        title="Step two"
        description="The second."
        confirmLabel="Done"
        pending={false}
        error={null}
        onConfirm={() => setStep(0)}
        onClose={() => setStep(0)}
      />
    </main>
  );
}

describe('a dialog, closed', { timeout: 30_000 }, () => {
  it('hands the focus back to its opener', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Page />);
    const opener = screen.getByRole('button', { name: 'Delete First' });
    opener.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog', { name: 'Delete First?' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('puts the focus on the page content when its action removed the opener', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Page />);
    screen.getByRole('button', { name: 'Delete Second' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog', { name: 'Delete Second?' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete Second' })).toBeNull();
    await waitFor(() => expect(document.getElementById('content')).toHaveFocus());
  });

  it('after a dialog opened from a dialog, goes back to what opened the first', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Page />);
    const start = screen.getByRole('button', { name: 'Start' });
    start.focus();
    await user.keyboard('{Enter}');
    const first = await screen.findByRole('alertdialog', { name: 'Step one' });
    await waitFor(() => expect(first).toContainElement(document.activeElement as HTMLElement));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('alertdialog', { name: 'Step two' });
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(start).toHaveFocus());
  });
});
