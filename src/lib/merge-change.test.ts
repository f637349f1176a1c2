import { describe, expect, it } from 'vitest';
import type { InfiniteData } from '@tanstack/react-query';
import { mergeIntoList, mergeIntoPages, type RowChange } from './merge-change';

interface Item {
  id: string;
  at: string;
  spam?: boolean;
  label?: string;
}

const newestFirst = (a: Item, b: Item) => b.at.localeCompare(a.at);
const change = (eventType: RowChange['eventType'], row: Partial<Item>): RowChange => ({
  table: 'items',
  eventType,
  new: eventType === 'DELETE' ? {} : row,
  old: eventType === 'DELETE' ? { id: row.id } : {},
});

const a: Item = { id: 'a', at: '2026-01-03' };
const b: Item = { id: 'b', at: '2026-01-01' };

describe('mergeIntoList', () => {
  it('places an inserted row by the list order', () => {
    const c: Item = { id: 'c', at: '2026-01-02' };
    expect(mergeIntoList([a, b], change('INSERT', c), { compare: newestFirst })).toEqual([a, c, b]);
    expect(mergeIntoList([a, b], change('INSERT', c))).toEqual([c, a, b]);
  });

  it('merges an update over the cached row, keeping columns the payload lacks', () => {
    const cached = [{ ...a, label: 'kept' }, b];
    const next = mergeIntoList(cached, change('UPDATE', { id: 'a', spam: true }));
    expect(next).toEqual([{ ...a, label: 'kept', spam: true }, b]);
    expect(next).not.toBe(cached);
  });

  it('removes a deleted row, and a row that no longer belongs to the view', () => {
    expect(mergeIntoList([a, b], change('DELETE', { id: 'a' }))).toEqual([b]);
    const inbox = { include: (row: Item) => !row.spam };
    expect(mergeIntoList([a, b], change('UPDATE', { id: 'b', spam: true }), inbox)).toEqual([a]);
    expect(
      mergeIntoList([a], change('INSERT', { id: 'x', at: '2026', spam: true }), inbox),
    ).toEqual([a]);
  });

  it('leaves what is not cached, and ignores a change without an id', () => {
    expect(mergeIntoList(undefined, change('INSERT', a))).toBeUndefined();
    const list = [a];
    expect(mergeIntoList(list, change('DELETE', { id: 'zzz' }))).toBe(list);
    expect(mergeIntoList(list, { table: 'items', eventType: 'INSERT', new: {}, old: {} })).toBe(
      list,
    );
  });

  it('does not duplicate a row inserted twice (an optimistic add, then its realtime echo)', () => {
    expect(mergeIntoList([a, b], change('INSERT', a), { compare: newestFirst })).toEqual([a, b]);
  });
});

describe('mergeIntoPages', () => {
  const pages = (...lists: Item[][]): InfiniteData<Item[], unknown> => ({
    pages: lists,
    pageParams: lists.map((_, i) => i),
  });

  it('adds a new row to the first page and updates or deletes rows on any page', () => {
    const c: Item = { id: 'c', at: '2026-01-04' };
    expect(mergeIntoPages(pages([a], [b]), change('INSERT', c), { compare: newestFirst })).toEqual(
      pages([c, a], [b]),
    );
    expect(mergeIntoPages(pages([a], [b]), change('UPDATE', { id: 'b', label: 'x' }))).toEqual(
      pages([a], [{ ...b, label: 'x' }]),
    );
    expect(mergeIntoPages(pages([a], [b]), change('DELETE', { id: 'b' }))).toEqual(pages([a], []));
  });

  it('respects the view: a row leaving it is dropped, one outside it is not added', () => {
    const inbox = { include: (row: Item) => !row.spam };
    expect(
      mergeIntoPages(pages([a], [b]), change('UPDATE', { id: 'b', spam: true }), inbox),
    ).toEqual(pages([a], []));
    const spam = { id: 's', at: '2026-02-01', spam: true };
    const data = pages([a]);
    expect(mergeIntoPages(data, change('INSERT', spam), inbox)).toBe(data);
  });
});
