// The summing behind the bundle budget (tests/build/bundle-budget.test.ts), on a small fixture
// build: entry, static imports and start-up steps, each file once, lazy chunks left out, a broken
// manifest refused.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryJs, gzipSize, manifestPath, staticFiles, type Manifest } from './bundle-size';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_vendor.js', '_shared.js'],
    // The start-up step src/main.tsx imports dynamically; it is the one that imports the pages.
    dynamicImports: ['src/app.tsx'],
  },
  'src/app.tsx': {
    file: 'assets/app.js',
    imports: ['_shared.js', '_app-vendor.js'],
    dynamicImports: ['src/lazy-page.tsx'],
  },
  '_app-vendor.js': { file: 'assets/app-vendor.js' },
  '_vendor.js': { file: 'assets/vendor.js', imports: ['_shared.js'] },
  '_shared.js': { file: 'assets/shared.js' },
  '_style.css': { file: 'assets/style.css' },
  'src/lazy-page.tsx': { file: 'assets/lazy-page.js', imports: ['_vendor.js', '_big.js'] },
  '_big.js': { file: 'assets/big.js' },
};

const contents: Record<string, string> = {
  'assets/index.js': 'console.log("entry");'.repeat(20),
  'assets/vendor.js': 'export const vendor = 1;'.repeat(50),
  'assets/shared.js': 'export const shared = 2;',
  'assets/app.js': 'export const app = 4;'.repeat(5),
  'assets/app-vendor.js': 'export const appVendor = 5;',
  'assets/lazy-page.js': 'export const page = 3;'.repeat(10),
  'assets/big.js': 'x'.repeat(100_000),
};

describe('staticFiles', () => {
  it('follows static imports from the entry, once each, without the lazy chunks', () => {
    expect(staticFiles(manifest)).toEqual([
      'assets/index.js',
      'assets/vendor.js',
      'assets/shared.js',
    ]);
  });

  it('adds the start-up steps and their static imports, but not the pages they load lazily', () => {
    expect(staticFiles(manifest, 'index.html', true)).toEqual([
      'assets/index.js',
      'assets/vendor.js',
      'assets/shared.js',
      'assets/app.js',
      'assets/app-vendor.js',
    ]);
  });

  it('refuses a manifest without the entry or with a dangling import', () => {
    expect(() => staticFiles({})).toThrow(/no "index.html"/);
    expect(() =>
      staticFiles({ 'index.html': { file: 'assets/index.js', imports: ['_gone.js'] } }),
    ).toThrow(/no "_gone.js"/);
  });
});

describe('entryJs', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'bundle-size-'));
    await mkdir(path.join(dist, 'assets'));
    await mkdir(path.dirname(manifestPath(dist)));
    await writeFile(manifestPath(dist), JSON.stringify(manifest));
    for (const [file, text] of Object.entries(contents))
      await writeFile(path.join(dist, file), text);
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  it('sums the gzipped size of exactly the files the entry loads at start-up', async () => {
    const result = await entryJs(dist);
    const expected = [
      'assets/index.js',
      'assets/vendor.js',
      'assets/shared.js',
      'assets/app.js',
      'assets/app-vendor.js',
    ].map((file) => gzipSize(contents[file]));
    expect(result.files.map((f) => f.gzipBytes)).toEqual(expected);
    expect(result.totalBytes).toBe(expected.reduce((a, b) => a + b, 0));
    // Gzipped, not raw: the repeated entry text compresses well below its 420 bytes.
    expect(result.files[0].gzipBytes).toBeLessThan(contents['assets/index.js'].length / 4);
  });
});
