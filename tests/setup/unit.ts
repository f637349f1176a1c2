import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { sessionStore } from '../../src/lib/session-storage';
import {
  clearStoredSession,
  supabaseAuth,
  supabaseRealtime,
  server,
  supabaseDb,
} from '../../src/components/testing/supabase-server';

// findBy… and waitFor give up after 5 s rather than 1 s: on a busy machine (CI runs the browser
// and integration suites alongside) a lazy chunk and its render can take longer than a second.
// A passing test waits no longer for it; only a failing one takes longer to say so.
configure({ asyncUtilTimeout: 5_000 });

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
