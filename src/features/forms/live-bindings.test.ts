import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { RowChange } from '../../lib/merge-change';
import { formsKeys, type Form } from './api/get-forms';
import { compareForms, mergeFormChange } from './forms-cache';
import { formsLiveBindings } from './live-bindings';
import { makeCounts, makeForm } from './testing/fixtures';

const change = (eventType: RowChange['eventType'], row: Partial<Form>): RowChange => ({
  table: 'forms',
  eventType,
  new: eventType === 'DELETE' ? {} : { ...row },
  old: eventType === 'DELETE' ? { id: row.id } : {},
});

const bindingFor = (table: string) => formsLiveBindings.find((b) => b.table === table)!;

function cachedList(forms: Form[]) {
  const client = new QueryClient();
  client.setQueryData(formsKeys.list(), forms);
  return client;
}

describe('the forms list merge', () => {
  const older = makeForm({ name: 'Older' });
  const newer = makeForm({ name: 'Newer' });

  it('places an inserted form by creation time, newest first', () => {
    const newest = makeForm({ name: 'Newest' });
    expect(mergeFormChange([newer, older], change('INSERT', newest))!.map((f) => f.name)).toEqual([
      'Newest',
      'Newer',
      'Older',
    ]);
    // A form created between the two (e.g. in another tab, reported late) lands between them.
    const between = makeForm({
      name: 'Between',
      created_at: new Date(Date.parse(older.created_at) + 1000).toISOString(),
    });
    expect(mergeFormChange([newer, older], change('INSERT', between))!.map((f) => f.name)).toEqual([
      'Newer',
      'Between',
      'Older',
    ]);
  });

  it('orders forms created in the same instant by id, as the query does', () => {
    const at = '2026-02-01T00:00:00.000Z';
    const a = makeForm({ id: 'aaaaaaaa-0000-4000-8000-000000000000', created_at: at });
    const b = makeForm({ id: 'bbbbbbbb-0000-4000-8000-000000000000', created_at: at });
    expect([a, b].sort(compareForms)).toEqual([b, a]);
    // The same instant printed two ways (REST vs Realtime) is still the same instant.
    expect(
      compareForms(
        makeForm({ id: a.id, created_at: '2026-02-01T00:00:00+00:00' }),
        makeForm({ id: a.id, created_at: at }),
      ),
    ).toBe(0);
  });

  it('updates a form in place and keeps the columns a payload lacks', () => {
    const merged = mergeFormChange(
      [newer, older],
      change('UPDATE', { id: older.id, name: 'Renamed', notify_email: false }),
    )!;
    expect(merged.map((f) => f.name)).toEqual(['Newer', 'Renamed']);
    expect(merged[1]).toEqual({ ...older, name: 'Renamed', notify_email: false });
  });

  it('removes a deleted form, knowing only its id', () => {
    expect(mergeFormChange([newer, older], change('DELETE', { id: newer.id }))).toEqual([older]);
  });

  it('ignores a repeat of a change it already has', () => {
    const once = mergeFormChange([older], change('INSERT', newer))!;
    expect(mergeFormChange(once, change('INSERT', newer))).toEqual([newer, older]);
    expect(mergeFormChange([older], change('DELETE', { id: newer.id }))).toEqual([older]);
  });

  it('leaves an uncached list to the first fetch', () => {
    expect(mergeFormChange(undefined, change('INSERT', newer))).toBeUndefined();
  });
});

describe('formsLiveBindings', () => {
  it('merges forms changes into the cached list', () => {
    const first = makeForm({ name: 'First' });
    const client = cachedList([first]);
    const forms = bindingFor('forms');
    const second = makeForm({ name: 'Second' });
    forms.apply(client, change('INSERT', second));
    expect(client.getQueryData<Form[]>(formsKeys.list())!.map((f) => f.name)).toEqual([
      'Second',
      'First',
    ]);
    forms.apply(client, change('UPDATE', { ...first, target_email: 'new@example.com' }));
    expect(client.getQueryData<Form[]>(formsKeys.list())![1].target_email).toBe('new@example.com');
    forms.apply(client, change('DELETE', { id: second.id }));
    expect(client.getQueryData<Form[]>(formsKeys.list())!.map((f) => f.name)).toEqual(['First']);
    expect(forms.queryKey).toEqual(formsKeys.list());
  });

  it('marks the message counts stale when an entry changes', () => {
    const client = cachedList([]);
    client.setQueryData(formsKeys.counts(), [makeCounts('f', 1, 1)]);
    const entries = bindingFor('entries');
    expect(client.getQueryState(formsKeys.counts())!.isInvalidated).toBe(false);
    entries.apply(client, { table: 'entries', eventType: 'INSERT', new: { id: 'e' }, old: {} });
    expect(client.getQueryState(formsKeys.counts())!.isInvalidated).toBe(true);
    // The list itself is not refetched for a message.
    expect(client.getQueryState(formsKeys.list())!.isInvalidated).toBe(false);
    expect(entries.queryKey).toEqual(formsKeys.counts());
  });
});
