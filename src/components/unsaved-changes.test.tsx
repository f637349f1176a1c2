import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { UnsavedChangesScope, unsavedTabs, useUnsavedChanges } from './unsaved-changes';

function Part({ dirty }: { dirty: boolean }) {
  useUnsavedChanges(dirty);
  return null;
}

describe('useUnsavedChanges', () => {
  it('reports each form of a scope under its own key, and clears it when it unmounts', () => {
    const report = vi.fn();
    const view = render(
      <UnsavedChangesScope report={report}>
        <Part dirty={false} />
        <Part dirty />
      </UnsavedChangesScope>,
    );
    const [[first], [second]] = report.mock.calls as [string, boolean][];
    expect(first).not.toBe(second);
    expect(report).toHaveBeenCalledWith(first, false);
    expect(report).toHaveBeenCalledWith(second, true);

    report.mockClear();
    view.rerender(
      <UnsavedChangesScope report={report}>
        <Part dirty />
        <Part dirty />
      </UnsavedChangesScope>,
    );
    expect(report).toHaveBeenCalledWith(first, true);

    report.mockClear();
    view.unmount();
    expect(report).toHaveBeenCalledWith(first, false);
    expect(report).toHaveBeenCalledWith(second, false);
  });

  it('does nothing outside a scope', () => {
    expect(() => render(<Part dirty />)).not.toThrow();
  });
});

describe('unsavedTabs', () => {
  it('lists the tabs with any unsaved form, in the tabs’ order', () => {
    const order = ['form', 'webhooks', 'retention'] as const;
    expect(
      unsavedTabs(order, {
        retention: { a: true },
        webhooks: { b: false, c: true },
        form: { dialog: false },
      }),
    ).toEqual(['webhooks', 'retention']);
    expect(unsavedTabs(order, {})).toEqual([]);
  });
});
