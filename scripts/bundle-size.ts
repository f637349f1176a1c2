// How much JavaScript a page of the production build makes the browser download before it can
// run: the entry chunk, every chunk it imports statically (Vite preloads those), and the chunks
// the entry module itself imports at start-up (src/main.tsx's dynamic import of
// src/app/start-up.ts), with their static imports; read from the build manifest
// (`build.manifest: true` in vite.config.ts). Chunks that only those start-up chunks import
// lazily (the pages other than /, the newsletter form, the toaster) are not counted. Used by the
// bundle budget test and the Lighthouse benchmark.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The target for the JavaScript `/` loads, gzipped (docs/PERFORMANCE.md, "Public site"). */
export const HOME_JS_TARGET_BYTES = 150_000;

/**
 * The ceiling the bundle budget test enforces: the target itself, met since the start-up code is
 * one chunk (scripts/startup-chunk.ts), the brand logos a sprite, the recipes of what loads later
 * a chunk of their own (src/components/theme/) and the plans out of the first bundle. Before:
 * 175 KB while `/` imported everything statically, 170.0 KB with prerendering
 * (docs/PERFORMANCE.md). It must never be raised.
 * @alias HOME_JS_TARGET_BYTES is the same number under its other name, the target.
 */
export const HOME_JS_BUDGET_BYTES = HOME_JS_TARGET_BYTES;

/** One entry of Vite's `.vite/manifest.json`, as far as the sizes need it. */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export interface JsFile {
  file: string;
  gzipBytes: number;
}

/** Where Vite writes the manifest inside a build folder. */
export const manifestPath = (distDir: string) => path.join(distDir, '.vite', 'manifest.json');

export async function readManifest(distDir: string): Promise<Manifest> {
  return JSON.parse(await readFile(manifestPath(distDir), 'utf8')) as Manifest;
}

/**
 * The files of an entry (default `index.html`) and its static imports, transitively, each once,
 * in load order; with `startup`, also the chunks the entry module imports dynamically (its
 * start-up steps) and their static imports, but none of their own dynamic imports. Throws when
 * the entry or an imported key is missing, rather than under-count.
 */
export function staticFiles(manifest: Manifest, entry = 'index.html', startup = false): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const chunkOf = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no "${key}".`);
    return chunk;
  };
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = chunkOf(key);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  if (startup) for (const step of chunkOf(entry).dynamicImports ?? []) visit(step);
  return files;
}

export const gzipSize = (content: Buffer | string) => gzipSync(content, { level: 9 }).length;

/** Each JavaScript file's gzipped size, read from the build folder. */
export async function gzipSizes(distDir: string, files: string[]): Promise<JsFile[]> {
  return Promise.all(
    files.map(async (file) => ({
      file,
      gzipBytes: gzipSize(await readFile(path.join(distDir, file))),
    })),
  );
}

/**
 * The gzipped JavaScript `/` loads before its first render: the entry, its static imports and
 * its start-up steps (see staticFiles).
 */
export async function entryJs(distDir: string): Promise<{ files: JsFile[]; totalBytes: number }> {
  const files = await gzipSizes(
    distDir,
    staticFiles(await readManifest(distDir), 'index.html', true),
  );
  return { files, totalBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

export const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
