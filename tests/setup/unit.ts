import '@testing-library/jest-dom/vitest';
import { beforeEach, vi } from 'vitest';
import { sessionStore } from '../../src/lib/session-storage';

// Component tests stand a double in for src/lib/supabase and set its session themselves, without
// storing one: treat every test as possibly signed in, so the auth state asks the double at once
// (as the app does when a session is stored). src/lib/auth.test.ts covers the signed-out path.
beforeEach(() => {
  vi.spyOn(sessionStore, 'mayHaveSession').mockReturnValue(true);
});
