// How the parts of the Edit dialog tell it about changes not saved yet. Each tab's content is
// wrapped in an UnsavedChangesScope; a form inside reports whether it holds unsaved changes with
// useUnsavedChanges(dirty), and the dialog marks the tab and asks before closing. Outside a scope
// (a section rendered on its own) the hook does nothing.
import { createContext, useContext, useEffect, useId, type ReactNode } from 'react';

/** `key`: one form of the tab; `dirty`: whether it holds unsaved changes. */
export type UnsavedReport = (key: string, dirty: boolean) => void;

const UnsavedContext = createContext<UnsavedReport | null>(null);

export function UnsavedChangesScope({
  report,
  children,
}: {
  /** Must keep its identity across renders. */
  report: UnsavedReport;
  children: ReactNode;
}) {
  return <UnsavedContext.Provider value={report}>{children}</UnsavedContext.Provider>;
}

/** Tells the enclosing scope whether this form holds unsaved changes (cleared when it unmounts). */
export function useUnsavedChanges(dirty: boolean): void {
  const report = useContext(UnsavedContext);
  const key = useId();
  useEffect(() => {
    report?.(key, dirty);
  }, [report, key, dirty]);
  useEffect(() => () => report?.(key, false), [report, key]);
}

/** The tabs (of `order`) that hold unsaved changes, from the reports `key → dirty` per tab. */
export function unsavedTabs<Tab extends string>(
  order: readonly Tab[],
  reports: Partial<Record<Tab, Record<string, boolean>>>,
): Tab[] {
  return order.filter((tab) => Object.values(reports[tab] ?? {}).some(Boolean));
}
