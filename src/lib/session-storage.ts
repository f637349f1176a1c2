// Where supabase-js keeps the signed-in session, following the login form's 'Remember me':
// remembered sessions live in localStorage and survive closing the browser; the others live in
// sessionStorage and end with the browser tab. The choice itself is kept in localStorage.
import type { SupportedStorage } from '@supabase/supabase-js';

/** localStorage key of the choice: '0' means "do not remember"; anything else (or nothing) remembers. */
export const REMEMBER_KEY = 'tinyback.remember-session';

type StorageArea = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface SessionStore {
  /** The adapter handed to supabase-js (`auth.storage`). */
  storage: SupportedStorage;
  /** Sets where the next session is written; call it before signing in. */
  setRemembered: (remember: boolean) => void;
  isRemembered: () => boolean;
  /**
   * Whether supabase-js has a session stored (a `sb-…-auth-token` key in either area), read
   * without loading supabase-js: with none, the visitor is signed out and the client can wait
   * until a page needs it.
   */
  mayHaveSession: () => boolean;
}

/** supabase-js's storage key for the session: `sb-<first label of the project host>-auth-token`. */
export const AUTH_TOKEN_KEY = /^sb-.+-auth-token$/;

// Storage may be missing or refuse access (privacy modes, sandboxed frames, a full quota): every
// access is guarded, and a failing area simply behaves as empty.
function safeGet(area: StorageArea | null, key: string): string | null {
  try {
    return area?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function safeSet(area: StorageArea | null, key: string, value: string): boolean {
  if (!area) return false;
  try {
    area.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

function safeRemove(area: StorageArea | null, key: string): void {
  try {
    area?.removeItem(key);
  } catch {
    // Nothing to do: an area that cannot be written holds nothing of ours either.
  }
}

function browserArea(name: 'localStorage' | 'sessionStorage'): StorageArea | null {
  try {
    return typeof window === 'undefined' ? null : window[name];
  } catch {
    return null;
  }
}

function memoryArea(): StorageArea {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

export function createSessionStore(
  areas: { local: StorageArea | null; session: StorageArea | null } = {
    local: browserArea('localStorage'),
    session: browserArea('sessionStorage'),
  },
): SessionStore {
  const { local, session } = areas;
  // Last resort when the chosen area refuses a write: the session then lasts as long as the page.
  const memory = memoryArea();
  const memoryKeys = new Set<string>();

  const isRemembered = () => safeGet(local, REMEMBER_KEY) !== '0';
  const chosen = () => (isRemembered() ? local : session);
  const other = () => (isRemembered() ? session : local);

  const storage: SupportedStorage = {
    // Reads check both areas (chosen first), so a session written before the choice changed, or
    // by another tab, is still found.
    getItem: (key) => safeGet(chosen(), key) ?? safeGet(other(), key) ?? memory.getItem(key),
    // Writes go to the chosen area only and remove the key from the other, so a session is never
    // kept in two places (a not-remembered one must not linger in localStorage).
    setItem: (key, value) => {
      if (safeSet(chosen(), key, value)) {
        memory.removeItem(key);
        memoryKeys.delete(key);
      } else {
        memory.setItem(key, value);
        memoryKeys.add(key);
      }
      safeRemove(other(), key);
    },
    removeItem: (key) => {
      safeRemove(local, key);
      safeRemove(session, key);
      memory.removeItem(key);
      memoryKeys.delete(key);
    },
  };

  const hasAuthKey = (area: StorageArea | null) => {
    try {
      const keys = area && 'length' in area ? Object.keys(area) : [];
      return keys.some((key) => AUTH_TOKEN_KEY.test(key));
    } catch {
      return false;
    }
  };

  return {
    storage,
    isRemembered,
    mayHaveSession: () =>
      hasAuthKey(local) ||
      hasAuthKey(session) ||
      [...memoryKeys].some((k) => AUTH_TOKEN_KEY.test(k)),
    setRemembered: (remember) => {
      if (remember) safeRemove(local, REMEMBER_KEY);
      else safeSet(local, REMEMBER_KEY, '0');
    },
  };
}

/** The app's store, used by src/lib/supabase.ts and the login form. */
export const sessionStore = createSessionStore();
