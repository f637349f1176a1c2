// The committed tracker (public/tb.js) is what scripts/write-tracker.ts builds from its source, so
// what site owners load is what src/features/analytics/tracker/tracker.test.ts tested.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TRACKER_OUTPUT, trackerCode } from './write-tracker';

describe('public/tb.js', () => {
  it('matches what the script builds (run `npx tsx scripts/write-tracker.ts`)', async () => {
    expect(await readFile(TRACKER_OUTPUT, 'utf8')).toBe(trackerCode());
  });

  it('is one self-contained script: no import, no export, no source map to fetch', () => {
    const code = trackerCode();
    expect(code).not.toMatch(/\bimport\s*[({"'`]|\bexport\s|sourceMappingURL/);
    expect(() => new Function(code)).not.toThrow();
  });
});
