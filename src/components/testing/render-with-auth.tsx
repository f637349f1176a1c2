// Test helper for UI that follows the auth state (header, guards, login): renders it inside the
// AuthProvider with a LocationProbe. The session comes from the tests' auth handlers
// (supabase-server.ts: signInAs, or the auth routes during the test).
import type { ReactElement } from 'react';
import { AuthProvider } from '../../lib/auth';
import { LocationProbe, renderWithProviders, type RenderWithProvidersOptions } from './render';

export function renderWithAuth(ui: ReactElement, options?: RenderWithProvidersOptions) {
  return renderWithProviders(
    <AuthProvider>
      {ui}
      <LocationProbe />
    </AuthProvider>,
    options,
  );
}
