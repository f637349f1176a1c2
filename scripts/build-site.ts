// The production build of the site (`npm run build`; the browser tests and benchmarks build the
// same way): Vite's browser build, then the public pages rendered to HTML from
// src/entry-server.tsx (built for Node into a scratch folder) and written into the build by
// scripts/prerender.ts, so those pages show before any JavaScript has run. The browser build runs
// twice: the first, kept in memory, tells which modules start-up loads, and the second puts them
// in one chunk (scripts/startup-chunk.ts).
//
//   npm run build                       (into dist/)
//   npx tsx scripts/build-site.ts <dir> (into another folder)
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type LogLevel } from 'vite';
import { outputChunks, startupChunkGroups, startupModules } from './startup-chunk';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/** Builds the site into `outDir` (relative to the project root, or absolute). */
export async function buildSite(outDir: string, logLevel: LogLevel = 'info'): Promise<void> {
  const distDir = path.resolve(root, outDir);
  // Only its chunk graph is read: nothing written, minified or copied.
  const firstPass = await build({
    root,
    logLevel: 'silent',
    build: { outDir: distDir, write: false, minify: false, copyPublicDir: false },
  });
  const groups = startupChunkGroups(startupModules(outputChunks(firstPass)));
  await build({
    root,
    logLevel,
    build: {
      outDir: distDir,
      emptyOutDir: true,
      rolldownOptions: { output: { codeSplitting: { groups } } },
    },
  });
  // Inside the project, so Node resolves the bundle's packages from node_modules.
  const serverDir = path.join(
    root,
    'node_modules',
    '.cache',
    `tinyback-prerender-${process.pid}-${Date.now()}`,
  );
  try {
    await build({
      root,
      logLevel: logLevel === 'info' ? 'warn' : logLevel,
      publicDir: false,
      build: {
        ssr: 'src/entry-server.tsx',
        outDir: serverDir,
        emptyOutDir: true,
        manifest: false,
      },
    });
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'scripts', 'prerender.ts'),
        distDir,
        path.join(serverDir, 'entry-server.js'),
      ],
      { cwd: root, env: process.env },
    );
    if (logLevel === 'info') process.stdout.write(stdout);
  } finally {
    await rm(serverDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // As `vite build` does: the production React build unless told otherwise.
  process.env.NODE_ENV ??= 'production';
  await buildSite(process.argv[2] ?? 'dist');
}
