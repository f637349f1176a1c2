import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { sessionStore } from '../../src/lib/session-storage';
import {
  clearStoredSession,
  supabaseAuth,
  server,
  supabaseDb,
} from '../../src/components/testing/supabase-server';

// The real Supabase client talks to the handlers of supabase-server.ts; a request none of them
// answers fails the test, so no test reaches the network by mistake.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  supabaseDb.reset();
  supabaseAuth.reset();
  clearStoredSession();
});
afterAll(() => server.close());

// Component tests stand a double in for src/lib/supabase and set its session themselves, without
// storing one: treat every test as possibly signed in, so the auth state asks the double at once
// (as the app does when a session is stored). src/lib/auth.test.ts covers the signed-out path.
beforeEach(() => {
  vi.spyOn(sessionStore, 'mayHaveSession').mockReturnValue(true);
});
