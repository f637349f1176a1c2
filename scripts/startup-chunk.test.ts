// Which modules the build puts in the one start-up chunk (scripts/startup-chunk.ts), on a small
// fixture of a first build's chunks; the real build's result is checked by the bundle budget test
// (tests/build/bundle-budget.test.ts).
import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { outputChunks, startupChunkGroups, startupModules, STARTUP_MODULE } from './startup-chunk';

const chunk = (
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  extra: Partial<Rolldown.OutputChunk> = {},
) =>
  ({
    type: 'chunk',
    fileName,
    moduleIds,
    imports,
    isEntry: false,
    facadeModuleId: null,
    ...extra,
  }) as unknown as Rolldown.OutputChunk;

const entry = chunk('index.js', ['/p/src/main.tsx', '/nm/react-dom.js'], ['runtime.js'], {
  isEntry: true,
  facadeModuleId: '/p/src/main.tsx',
});
const runtime = chunk('runtime.js', ['\0rolldown/runtime.js']);
const startup = chunk(
  'start-up.js',
  ['/p/src/app/start-up.ts', '/p/src/app/router.tsx'],
  ['runtime.js', 'button.js', 'index.js'],
  { facadeModuleId: `/p${STARTUP_MODULE}` },
);
const button = chunk('button.js', ['/nm/chakra/button.js'], ['emotion.js']);
const emotion = chunk('emotion.js', ['/nm/emotion/cache.js', '/nm/stylis.js']);
// A page: shares button.js with start-up, and has a chunk of its own that start-up never loads.
const page = chunk('pricing.js', ['/p/src/pricing.tsx'], ['button.js', 'dialog.js'], {
  facadeModuleId: '/p/src/pricing.tsx',
});
const dialog = chunk('dialog.js', ['/nm/chakra/dialog.js']);

describe('startupModules', () => {
  const modules = startupModules([entry, runtime, startup, button, emotion, page, dialog]);

  it('takes the start-up chunk and the chunks it imports statically, transitively', () => {
    expect([...modules].sort()).toEqual(
      [
        '/nm/chakra/button.js',
        '/nm/emotion/cache.js',
        '/nm/stylis.js',
        '/p/src/app/router.tsx',
        '/p/src/app/start-up.ts',
      ].sort(),
    );
  });

  it('leaves what the entry chunk loads with the entry, and what only a page loads with it', () => {
    for (const id of ['/p/src/main.tsx', '/nm/react-dom.js', '\0rolldown/runtime.js']) {
      expect(modules.has(id)).toBe(false);
    }
    expect(modules.has('/nm/chakra/dialog.js')).toBe(false);
    expect(modules.has('/p/src/pricing.tsx')).toBe(false);
  });

  it('refuses a build without an entry or a start-up chunk', () => {
    expect(() => startupModules([runtime, startup])).toThrow(/no entry chunk/);
    expect(() => startupModules([entry, runtime])).toThrow(/start-up\.ts chunk/);
  });
});

describe('startupChunkGroups', () => {
  it('groups exactly the given modules under the start-up name', () => {
    const [group] = startupChunkGroups(new Set(['/a.js']));
    expect(group!.name).toBe('start-up');
    const test = group!.test as (id: string) => boolean;
    expect(test('/a.js')).toBe(true);
    expect(test('/b.js')).toBe(false);
  });
});

describe('outputChunks', () => {
  it('keeps the chunks of one or several outputs and drops the assets', () => {
    const asset = { type: 'asset', fileName: 'style.css' };
    expect(outputChunks({ output: [entry, asset] }).map((c) => c.fileName)).toEqual(['index.js']);
    expect(
      outputChunks([{ output: [entry] }, { output: [button, asset] }]).map((c) => c.fileName),
    ).toEqual(['index.js', 'button.js']);
  });
});
