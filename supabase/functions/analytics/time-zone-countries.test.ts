// @vitest-environment node
// The bundled zone → country map (generated from the tz database's zone.tab and links).
import { describe, expect, it } from 'vitest';
import { countryOfTimeZone } from './time-zone-countries.ts';

describe('country of a time zone', () => {
  it.each([
    ['Europe/Berlin', 'DE'],
    ['Europe/Amsterdam', 'NL'],
    ['America/New_York', 'US'],
    ['America/Los_Angeles', 'US'],
    ['America/Toronto', 'CA'],
    ['America/Sao_Paulo', 'BR'],
    ['Asia/Tokyo', 'JP'],
    ['Asia/Kolkata', 'IN'],
    ['Australia/Sydney', 'AU'],
    ['Africa/Lagos', 'NG'],
    ['Pacific/Auckland', 'NZ'],
    ['Europe/London', 'GB'],
    ['Europe/Kyiv', 'UA'],
  ])('%s is in %s', (zone, country) => {
    expect(countryOfTimeZone(zone)).toBe(country);
  });

  it.each([
    // Older names browsers still report (CLDR's canonical ids), through tz's links.
    ['Asia/Calcutta', 'IN'],
    ['Europe/Kiev', 'UA'],
    ['America/Buenos_Aires', 'AR'],
    ['Asia/Saigon', 'VN'],
    ['US/Eastern', 'US'],
    // Links across a border, set by hand.
    ['Africa/Asmera', 'ER'],
    ['Pacific/Truk', 'FM'],
    ['America/Coral_Harbour', 'CA'],
  ])('the older name %s is in %s', (zone, country) => {
    expect(countryOfTimeZone(zone)).toBe(country);
  });

  it('names no country for UTC, Etc zones, unknown names and nothing', () => {
    for (const zone of [
      'UTC',
      'Etc/UTC',
      'Etc/GMT+5',
      'GMT',
      'Mars/Olympus_Mons',
      'europe/berlin',
      '',
    ])
      expect(countryOfTimeZone(zone)).toBeNull();
    expect(countryOfTimeZone(null)).toBeNull();
    expect(countryOfTimeZone(undefined)).toBeNull();
  });
});
