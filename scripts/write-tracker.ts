// Builds the analytics tracker (src/features/analytics/tracker/tracker.ts) into public/tb.js, the
// file site owners' pages load: one minified script of its own, outside the site's bundle. Run
// `npx tsx scripts/write-tracker.ts` after changing the tracker; scripts/write-tracker.test.ts
// fails while the committed file is out of date, and tests/build/tracker-size.test.ts holds it to
// its gzipped budget.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { TRACKER_FILE } from '../src/config/analytics-tracker.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const TRACKER_SOURCE = path.join(root, 'src/features/analytics/tracker/tracker.ts');
export const TRACKER_OUTPUT = path.join(root, 'public', TRACKER_FILE);

/**
 * The tracker as it ships. ES2020 syntax: every browser of the last years parses it, and one too
 * old to only fails to count its visit (the tracker is a script of its own; the page is unharmed).
 */
export function trackerCode(): string {
  const { outputFiles } = buildSync({
    entryPoints: [TRACKER_SOURCE],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
  });
  return outputFiles[0].text;
}

/** Bytes of `code` gzipped at the level static hosts and CDNs commonly use. */
export function gzipBytes(code: string): number {
  return gzipSync(code, { level: 9 }).length;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = trackerCode();
  writeFileSync(TRACKER_OUTPUT, code);
  console.log(
    `wrote public/${TRACKER_FILE}: ${code.length} bytes, ${gzipBytes(code)} bytes gzipped`,
  );
}
