import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore, REMEMBER_KEY } from './session-storage';

const KEY = 'sb-127-auth-token';

/** A storage area that refuses every access, as in some privacy modes. */
const broken: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
  getItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('full', 'QuotaExceededError');
  },
  removeItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
};

describe('createSessionStore', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('tells whether a session is stored, in either area, without supabase-js', async () => {
    const store = createSessionStore();
    expect(store.mayHaveSession()).toBe(false);
    localStorage.setItem('other-key', 'x');
    expect(store.mayHaveSession()).toBe(false);
    await store.storage.setItem(KEY, 'session');
    expect(store.mayHaveSession()).toBe(true);
    store.setRemembered(false);
    await store.storage.setItem(KEY, 'session');
    expect(sessionStorage.getItem(KEY)).toBe('session');
    expect(store.mayHaveSession()).toBe(true);
    await store.storage.removeItem(KEY);
    expect(store.mayHaveSession()).toBe(false);
  });

  it('remembers by default: the session goes to localStorage', async () => {
    const store = createSessionStore();
    expect(store.isRemembered()).toBe(true);
    await store.storage.setItem(KEY, 'session');
    expect(localStorage.getItem(KEY)).toBe('session');
    expect(sessionStorage.getItem(KEY)).toBeNull();
    expect(await store.storage.getItem(KEY)).toBe('session');
  });

  it('keeps a not-remembered session in sessionStorage only, and stores the choice', async () => {
    const store = createSessionStore();
    localStorage.setItem(KEY, 'older');
    store.setRemembered(false);
    expect(localStorage.getItem(REMEMBER_KEY)).toBe('0');
    expect(store.isRemembered()).toBe(false);
    await store.storage.setItem(KEY, 'session');
    expect(sessionStorage.getItem(KEY)).toBe('session');
    // The write also removed the copy from the other area.
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(await store.storage.getItem(KEY)).toBe('session');
  });

  it('reads from both areas, the chosen one first', async () => {
    const store = createSessionStore();
    sessionStorage.setItem(KEY, 'from-session');
    expect(await store.storage.getItem(KEY)).toBe('from-session');
    localStorage.setItem(KEY, 'from-local');
    expect(await store.storage.getItem(KEY)).toBe('from-local');
    store.setRemembered(false);
    expect(await store.storage.getItem(KEY)).toBe('from-session');
  });

  it('moves the session back to localStorage once remembered again', async () => {
    const store = createSessionStore();
    store.setRemembered(false);
    await store.storage.setItem(KEY, 'a');
    store.setRemembered(true);
    expect(localStorage.getItem(REMEMBER_KEY)).toBeNull();
    await store.storage.setItem(KEY, 'b');
    expect(localStorage.getItem(KEY)).toBe('b');
    expect(sessionStorage.getItem(KEY)).toBeNull();
  });

  it('removes the session from both areas', async () => {
    const store = createSessionStore();
    localStorage.setItem(KEY, 'a');
    sessionStorage.setItem(KEY, 'b');
    await store.storage.removeItem(KEY);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(sessionStorage.getItem(KEY)).toBeNull();
    expect(await store.storage.getItem(KEY)).toBeNull();
    // The choice is not part of the session.
    store.setRemembered(false);
    await store.storage.removeItem(KEY);
    expect(store.isRemembered()).toBe(false);
  });

  it('falls back to memory when storage refuses access, and never throws', async () => {
    const store = createSessionStore({ local: broken, session: null });
    expect(store.isRemembered()).toBe(true);
    expect(() => store.setRemembered(false)).not.toThrow();
    await store.storage.setItem(KEY, 'kept');
    expect(await store.storage.getItem(KEY)).toBe('kept');
    await store.storage.removeItem(KEY);
    expect(await store.storage.getItem(KEY)).toBeNull();
  });
});
