import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { sessionStore } from '../../src/lib/session-storage';
import {
  clearStoredSession,
  supabaseAuth,
  supabaseRealtime,
  server,
  supabaseDb,
} from '../../src/components/testing/supabase-server';

// The real Supabase client talks to the handlers of supabase-server.ts; a request none of them
// answers fails the test, so no test reaches the network by mistake. Listening starts before the
// test file is imported: supabase-js takes the WebSocket class when the client is created.
server.listen({ onUnhandledRequest: 'error' });
afterEach(() => {
  server.resetHandlers();
  supabaseDb.reset();
  supabaseAuth.reset();
  supabaseRealtime.reset();
  clearStoredSession();
});
afterAll(() => server.close());

// Component tests sign in by storing a session (supabase-server.ts) or through the auth routes
// during the test: treat every test as possibly signed in, so the auth state loads the client at
// once (as the app does when a session is stored). src/lib/auth.test.ts and
// auth-client-loading.test.tsx cover the signed-out path.
beforeEach(() => {
  vi.spyOn(sessionStore, 'mayHaveSession').mockReturnValue(true);
});
