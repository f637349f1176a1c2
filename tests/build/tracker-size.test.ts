// The analytics tracker's budget, checked in CI: the file site owners' pages load (public/tb.js,
// copied as it is into the build) stays within TRACKER_GZIP_BUDGET_BYTES gzipped. It is measured
// both as committed and as freshly built from its source, so a change to the tracker cannot pass
// here before its file is written (scripts/write-tracker.test.ts checks that they are the same).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TRACKER_FILE, TRACKER_GZIP_BUDGET_BYTES } from '../../src/config/analytics-tracker';
import { gzipBytes, TRACKER_OUTPUT, trackerCode } from '../../scripts/write-tracker';

const sizes = [
  ['as committed', await readFile(TRACKER_OUTPUT, 'utf8')],
  ['as built from its source', trackerCode()],
].map(([label, code]) => ({ label, bytes: code.length, gzipped: gzipBytes(code) }));

describe(`the analytics tracker (${TRACKER_FILE})`, () => {
  it.each(sizes)(
    `stays within ${TRACKER_GZIP_BUDGET_BYTES} bytes gzipped $label: $gzipped bytes ($bytes raw)`,
    ({ label, bytes, gzipped }) => {
      console.log(`${TRACKER_FILE} ${label}: ${bytes} bytes, ${gzipped} bytes gzipped`);
      expect(gzipped).toBeLessThanOrEqual(TRACKER_GZIP_BUDGET_BYTES);
    },
  );
});
