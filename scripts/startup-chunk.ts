// One chunk for the app's start-up code. src/main.tsx imports src/app/start-up.ts dynamically, and
// the pages import many of the same modules (Chakra's components, Emotion, the icons' runtime).
// The bundler cannot tell that the pages only ever load after start-up, so it splits those shared
// modules into a dozen small chunks that `/` downloads alongside: each costs its own import and
// export glue, and gzip compresses each on its own. scripts/build-site.ts therefore builds twice:
// this module reads which modules start-up loads from the first build, and the second build puts
// all of them in the start-up chunk, which the pages then import from.
import type { Rolldown } from 'vite';

/** The module whose chunk src/main.tsx imports at start-up. */
export const STARTUP_MODULE = '/src/app/start-up.ts';
/** The name of the start-up chunk (its file is assets/start-up-<hash>.js). */
const STARTUP_CHUNK_NAME = 'start-up';

type Chunk = Rolldown.OutputChunk;

/** Each chunk and every chunk it imports statically, transitively, by file name. */
function staticClosure(start: Chunk, byFile: Map<string, Chunk>): Chunk[] {
  const seen = new Set<string>();
  const closure: Chunk[] = [];
  const visit = (chunk: Chunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    closure.push(chunk);
    for (const file of chunk.imports) {
      const imported = byFile.get(file);
      if (imported) visit(imported);
    }
  };
  visit(start);
  return closure;
}

/**
 * The modules start-up loads, from a build's chunks: those of the start-up chunk and of the chunks
 * it imports statically, less those the entry chunk already loads (they stay with the entry).
 * Throws when the build has no entry or no start-up chunk, rather than silently group nothing.
 */
export function startupModules(chunks: Chunk[]): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  const startup = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(STARTUP_MODULE));
  if (!entry || !startup) {
    throw new Error(`The build has no ${entry ? STARTUP_MODULE : 'entry'} chunk.`);
  }
  const loadedByEntry = new Set(staticClosure(entry, byFile).map((chunk) => chunk.fileName));
  const modules = new Set<string>();
  for (const chunk of staticClosure(startup, byFile)) {
    if (loadedByEntry.has(chunk.fileName)) continue;
    for (const id of chunk.moduleIds) modules.add(id);
  }
  return modules;
}

/** The bundler's chunk groups that put the given modules into the one start-up chunk. */
export function startupChunkGroups(modules: Set<string>): Rolldown.CodeSplittingGroup[] {
  return [{ name: STARTUP_CHUNK_NAME, test: (id: string) => modules.has(id) }];
}

/** The chunks of a `vite build` run with `build.write: false`. */
export function outputChunks(result: unknown): Chunk[] {
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((output) =>
    (output.output ?? []).filter((item): item is Chunk => item.type === 'chunk'),
  );
}
