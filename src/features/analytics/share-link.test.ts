import { describe, expect, it } from 'vitest';
import { customRangeProblem, rangeFromParams } from './date-range';
import {
  isShareBusy,
  isShareGone,
  isShareToken,
  SHARED_MAX_RANGE_DAYS,
  shareUrl,
} from './share-link';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';

describe('share links', () => {
  it('builds the public URL on the given origin', () => {
    expect(TOKEN).toHaveLength(43);
    expect(shareUrl('https://tinyback.tools', TOKEN)).toBe(
      `https://tinyback.tools/share/analytics/${TOKEN}`,
    );
    expect(shareUrl('http://localhost:5173/', TOKEN)).toBe(
      `http://localhost:5173/share/analytics/${TOKEN}`,
    );
  });

  it('knows a token by its shape', () => {
    expect(isShareToken(TOKEN)).toBe(true);
    expect(isShareToken(undefined)).toBe(false);
    expect(isShareToken(TOKEN.slice(1))).toBe(false);
    expect(isShareToken(`${TOKEN.slice(1)}=`)).toBe(false);
    expect(isShareToken(`${TOKEN.slice(1)}+`)).toBe(false);
  });

  it('tells a dead link and a busy one from other failures', () => {
    expect(isShareGone({ code: 'PT404', hint: 'analytics_share_not_found' })).toBe(true);
    expect(isShareGone({ code: 'PT404', hint: 'analytics_site_not_found' })).toBe(false);
    expect(isShareGone(new Error('offline'))).toBe(false);
    expect(isShareGone(null)).toBe(false);
    expect(isShareBusy({ code: 'PT429', hint: 'analytics_share_rate' })).toBe(true);
    expect(isShareBusy({ hint: 'analytics_share_not_found' })).toBe(false);
  });
});

describe('the shared range cap', () => {
  const NOW = new Date('2026-03-15T12:00:00Z');
  it('refuses a custom range longer than a shared view may ask for', () => {
    expect(customRangeProblem('2025-03-15', '2026-03-15', NOW, SHARED_MAX_RANGE_DAYS)).toBeNull();
    expect(customRangeProblem('2025-03-14', '2026-03-15', NOW, SHARED_MAX_RANGE_DAYS)).toBe(
      'Choose at most 366 days.',
    );
    expect(customRangeProblem('2025-03-14', '2026-03-15', NOW)).toBeNull();
    const params = new URLSearchParams('range=custom&from=2025-03-01&to=2026-03-15');
    expect(rangeFromParams(params, NOW, SHARED_MAX_RANGE_DAYS).preset).toBe('30d');
    expect(rangeFromParams(params, NOW).preset).toBe('custom');
  });
});
