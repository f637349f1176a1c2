// The bundle budget, checked in CI: the gzipped JavaScript `/` loads before its first render (entry
// chunk, its static imports and the start-up steps src/main.tsx imports, from the build manifest;
// lazy pages, the newsletter form and the toaster not counted) stays within HOME_JS_BUDGET_BYTES.
// Reuses its stack's production build (tests/setup/stack.ts names a folder per stack), building it
// only when no browser test has yet. The summing itself is tested in scripts/bundle-size.test.ts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../e2e/site-server';
import { entryJs, HOME_JS_BUDGET_BYTES, kb, type JsFile } from '../../scripts/bundle-size';
import { testSiteDir, testStack } from '../support/stack.ts';

const stack = testStack();
const siteDir = testSiteDir();

describe('the JavaScript loaded by /', () => {
  let files: JsFile[];
  let totalBytes: number;

  beforeAll(async () => {
    await ensureBuilt(siteDir, stack.apiUrl, stack.anonKey);
    ({ files, totalBytes } = await entryJs(siteDir));
  }, 180_000);

  it(`stays within ${kb(HOME_JS_BUDGET_BYTES)} gzipped`, () => {
    const list = files.map((f) => `${f.file} ${kb(f.gzipBytes)}`).join(', ');
    expect(totalBytes, `/ loads ${kb(totalBytes)}: ${list}`).toBeLessThanOrEqual(
      HOME_JS_BUDGET_BYTES,
    );
  });

  it('loads the start-up code as one chunk, not split into the pieces the pages share', () => {
    // File names are `<name>-<hash>.js`; the bundler's own runtime helpers are a file of their own.
    const names = files.map((f) => path.basename(f.file).replace(/-[\w-]{8}\.js$/, ''));
    expect(names.filter((name) => name !== 'rolldown-runtime')).toEqual(['index', 'start-up']);
  });

  it('leaves supabase-js, formik and yup to the pages that need them', async () => {
    // Strings each library's own code carries, wherever the bundler puts it.
    const markers = {
      'supabase-js': 'gotrue-js/',
      formik: 'FormikContext',
      yup: 'is a required field',
    };
    const code = (
      await Promise.all(files.map((f) => readFile(path.join(siteDir, f.file), 'utf8')))
    ).join('\n');
    const found = Object.entries(markers).filter(([, marker]) => code.includes(marker));
    expect(found.map(([name]) => name)).toEqual([]);
  });
});
