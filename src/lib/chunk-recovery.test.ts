import { describe, expect, it, vi } from 'vitest';
import {
  chunkUrlOf,
  isChunkLoadError,
  moduleIn,
  recover,
  reloadOnce,
  RELOAD_GUARD_MS,
  RELOAD_MARKER_KEY,
  type ChunkLoadDeps,
} from './chunk-recovery';

const URL_A = 'https://site.example/assets/pricing-page-AbC123.js';
/** Chromium's words for a chunk that could not be fetched. */
const chunkError = (url = URL_A) =>
  new TypeError(`Failed to fetch dynamically imported module: ${url}`);
/** A chunk address of its own (a chunk that was recovered once is not imported again). */
let chunks = 0;
const freshUrl = () => `https://site.example/assets/page-${++chunks}.js`;

function deps(overrides: Partial<ChunkLoadDeps> = {}): ChunkLoadDeps & {
  [K in keyof ChunkLoadDeps]: ReturnType<typeof vi.fn>;
} {
  return {
    importUrl: vi.fn(async (url: string) => {
      throw chunkError(url);
    }),
    sleep: vi.fn(async () => undefined),
    siteAnswers: vi.fn(async () => true),
    reloadOnce: vi.fn(() => true),
    ...overrides,
  } as never;
}

describe('what counts as a chunk that failed to load', () => {
  it("knows the browsers' messages, and the chunk's address when they name it", () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: x'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(chunkUrlOf(chunkError())).toBe(URL_A);
    expect(chunkUrlOf(chunkError(`${URL_A}?retry=3`))).toBe(URL_A);
    expect(chunkUrlOf(new TypeError('Importing a module script failed.'))).toBeUndefined();
  });

  it('finds the module in a shared chunk by the export the app needs', () => {
    const page = { PricingPage: () => null };
    expect(moduleIn(page, 'PricingPage')).toBe(page);
    expect(moduleIn({ n: page, t: { other: 1 } }, 'PricingPage')).toBe(page);
    expect(moduleIn({ t: { other: 1 } }, 'PricingPage')).toBeUndefined();
  });
});

describe('recover', () => {
  it('passes other errors on at once', async () => {
    const d = deps();
    const bug = new Error('page threw while loading');
    await expect(recover(vi.fn(), 'X', bug, {}, d)).rejects.toBe(bug);
    expect(d.sleep).not.toHaveBeenCalled();
  });

  it('retries a failed chunk by its address with a query of its own, after a short wait', async () => {
    const page = { PricingPage: () => null };
    const d = deps({
      importUrl: vi
        .fn()
        .mockRejectedValueOnce(chunkError(`${URL_A}?retry=1`))
        .mockResolvedValue(page),
    });
    const load = vi.fn();
    await expect(recover(load, 'PricingPage', chunkError(), {}, d)).resolves.toBe(page);
    expect(d.sleep.mock.calls).toEqual([[300], [1000]]);
    const urls = d.importUrl.mock.calls.map(([url]) => url as string);
    expect(urls).toHaveLength(2);
    for (const url of urls)
      expect(url).toMatch(/^https:\/\/site\.example\/assets\/pricing-page-AbC123\.js\?retry=\d+$/);
    expect(new Set(urls).size).toBe(2);
    // The browser remembers the failed address: the app's own import is not asked again.
    expect(load).not.toHaveBeenCalled();
    expect(d.reloadOnce).not.toHaveBeenCalled();
  });

  it('uses one module for a chunk however many imports of it fail', async () => {
    const url = 'https://site.example/assets/auth-Shared1.js';
    const auth = { LoginPage: () => null, RegisterPage: () => null };
    const d = deps({ importUrl: vi.fn(async () => auth) });
    const [login, register] = await Promise.all([
      recover(vi.fn(), 'LoginPage', chunkError(url), {}, d),
      recover(vi.fn(), 'RegisterPage', chunkError(url), {}, d),
    ]);
    expect(login).toBe(auth);
    expect(register).toBe(auth);
    expect(d.importUrl).toHaveBeenCalledTimes(1);
  });

  it('retries the import itself when the message names no address', async () => {
    const page = { PricingPage: () => null };
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Importing a module script failed.'))
      .mockResolvedValue(page);
    const d = deps();
    await expect(
      recover(load, 'PricingPage', new TypeError('Importing a module script failed.'), {}, d),
    ).resolves.toBe(page);
    expect(load).toHaveBeenCalledTimes(2);
    expect(d.importUrl).not.toHaveBeenCalled();
  });

  it('reloads a page once when the chunk still fails and the site answers (a deploy)', async () => {
    const d = deps();
    const url = freshUrl();
    let settled = false;
    void recover(vi.fn(), 'PricingPage', chunkError(url), { reloadIfGone: true }, d).finally(
      () => (settled = true),
    );
    await vi.waitFor(() => expect(d.reloadOnce).toHaveBeenCalledTimes(1));
    expect(d.siteAnswers).toHaveBeenCalledWith(url);
    // Nothing renders meanwhile: the page is being replaced.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
  });

  it('throws to the error boundary when the site does not answer, or the reload was just made', async () => {
    const offline = deps({ siteAnswers: vi.fn(async () => false) });
    await expect(
      recover(vi.fn(), 'PricingPage', chunkError(freshUrl()), { reloadIfGone: true }, offline),
    ).rejects.toThrow(/Failed to fetch dynamically imported module/);
    expect(offline.reloadOnce).not.toHaveBeenCalled();

    const reloadedAlready = deps({ reloadOnce: vi.fn(() => false) });
    await expect(
      recover(
        vi.fn(),
        'PricingPage',
        chunkError(freshUrl()),
        { reloadIfGone: true },
        reloadedAlready,
      ),
    ).rejects.toThrow(/Failed to fetch dynamically imported module/);
  });

  it('never reloads for a piece of a page', async () => {
    const d = deps();
    await expect(recover(vi.fn(), 'Toaster', chunkError(freshUrl()), {}, d)).rejects.toThrow();
    expect(d.siteAnswers).not.toHaveBeenCalled();
    expect(d.reloadOnce).not.toHaveBeenCalled();
  });
});

describe('reloadOnce', () => {
  function storage(initial?: string) {
    const values = new Map<string, string>(initial ? [[RELOAD_MARKER_KEY, initial]] : []);
    return {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
      values,
    };
  }

  it('reloads and leaves a marker; a second failure soon after does not reload again', () => {
    const store = storage();
    const reload = vi.fn();
    expect(reloadOnce(store, reload, 1_000_000)).toBe(true);
    expect(store.values.get(RELOAD_MARKER_KEY)).toBe('1000000');
    expect(reloadOnce(store, reload, 1_000_000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // Long after, a new deploy may be answered by a reload again.
    expect(reloadOnce(store, reload, 1_000_000 + RELOAD_GUARD_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload without storage to guard it', () => {
    const reload = vi.fn();
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => undefined,
    };
    expect(reloadOnce(broken, reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
