import { describe, expect, it } from 'vitest';
import { DASHBOARD_NAV, filterNavEntries, unreadBadgeText } from './dashboard-nav';

const labels = (search: string) => filterNavEntries(DASHBOARD_NAV, search).map((e) => e.label);

describe('filterNavEntries', () => {
  it('keeps every entry for an empty or blank search', () => {
    expect(labels('')).toEqual([
      'Dashboard',
      'Forms',
      'Booking',
      'Newsletter',
      'Analytics',
      'CMS',
      'Settings',
    ]);
    expect(labels('   ')).toHaveLength(DASHBOARD_NAV.length);
  });

  it('matches labels in any case, trimmed', () => {
    expect(labels(' BOOK ')).toEqual(['Booking']);
    expect(labels('cms')).toEqual(['CMS']);
  });

  it('matches keywords too', () => {
    expect(labels('messages')).toEqual(['Forms']);
    expect(labels('password')).toEqual(['Settings']);
  });

  it('finds nothing for unrelated text', () => {
    expect(labels('zebra')).toEqual([]);
  });
});

describe('unreadBadgeText', () => {
  it('caps the count at 99+', () => {
    expect(unreadBadgeText(7)).toBe('7');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
  });
});
