// The committed sprite (public/brand-icons.svg) is what scripts/write-brand-icons.ts makes from
// the list in src/config/brand-icons.ts: one drawable <symbol> per logo, none missing or stale.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BRAND_ICON_SOURCES } from '../src/config/brand-icons';
import { BRAND_ICONS_FILE, brandIconsSprite } from './write-brand-icons';

describe('public/brand-icons.svg', () => {
  it('matches what the script writes (run `npx tsx scripts/write-brand-icons.ts`)', async () => {
    expect(await readFile(BRAND_ICONS_FILE, 'utf8')).toBe(brandIconsSprite());
  });

  it('has exactly one symbol with a viewBox and a path for each logo of the list', () => {
    const sprite = brandIconsSprite();
    const symbols = [...sprite.matchAll(/<symbol id="([^"]+)" viewBox="[\d. ]+">(.*?)<\/symbol>/g)];
    expect(symbols.map(([, id]) => id)).toEqual(Object.keys(BRAND_ICON_SOURCES));
    for (const [, , inner] of symbols) expect(inner).toMatch(/^<path d="[Mm][^"]+"/);
  });
});
