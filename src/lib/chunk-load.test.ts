import { describe, expect, it, vi } from 'vitest';

const recover = vi.hoisted(() => vi.fn());
vi.mock('../components/fallbacks', () => ({ recover }));

const chunkLoad = await import('./chunk-load');
const { loadChunk } = chunkLoad;

describe('loadChunk', () => {
  it('loads without the recovery when the chunk arrives', async () => {
    const module = { Page: () => null };
    await expect(loadChunk(async () => module, 'Page')).resolves.toBe(module);
    expect(recover).not.toHaveBeenCalled();
  });

  it('hands a failure to the recovery, with what the caller needs from the module', async () => {
    const error = new TypeError('Failed to fetch dynamically imported module: http://x/a.js');
    const load = vi.fn(async (): Promise<{ Page: () => null }> => {
      throw error;
    });
    const recovered = { Page: () => null };
    recover.mockResolvedValueOnce(recovered);
    await expect(loadChunk(load, 'Page', { reloadIfGone: true })).resolves.toBe(recovered);
    expect(recover).toHaveBeenCalledWith(load, 'Page', error, { reloadIfGone: true });
  });

  it('loads the fallbacks (with the recovery) once, and keeps them for the error boundaries', async () => {
    expect(chunkLoad.fallbacks).toBeDefined(); // loaded by the failure above
    const first = await chunkLoad.loadFallbacks();
    expect(await chunkLoad.loadFallbacks()).toBe(first);
    expect(chunkLoad.fallbacks).toBe(first);
    expect(first.recover).toBe(recover);
  });
});
