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
}

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
      if (safeSet(chosen(), key, value)) memory.removeItem(key);
      else memory.setItem(key, value);
      safeRemove(other(), key);
    },
    removeItem: (key) => {
      safeRemove(local, key);
      safeRemove(session, key);
      memory.removeItem(key);
    },
  };

  return {
    storage,
    isRemembered,
    setRemembered: (remember) => {
      if (remember) safeRemove(local, REMEMBER_KEY);
      else safeSet(local, REMEMBER_KEY, '0');
    },
  };
}

/** The app's store, used by src/lib/supabase.ts and the login form. */
export const sessionStore = createSessionStore();
