// Auth state for the whole app: follows supabase.auth's state listener and offers the route
// guards (signed-in only, visitors only) that wait for the first answer so no page flashes.
// supabase-js is loaded only when a session may exist (a stored session key, or a session in the
// URL); otherwise the visitor is signed out at once, and the listener starts when a page loads
// the client for its own needs (login, blog, …) or another tab stores a session.
import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { Center, Spinner } from '@chakra-ui/react';
import type { Session, SupabaseClient, User } from '@supabase/supabase-js';
import { loadChunk } from './chunk-load';
import { onClientLoaded } from './supabase-ready';
import { AUTH_TOKEN_KEY, sessionStore } from './session-storage';
import { paths } from '../config/paths';
import { readReturnTo, returnToState } from './return-to';

export interface AuthState {
  user: User | null;
  session: Session | null;
  /** True until the client has reported the stored session (or its absence). */
  loading: boolean;
  /** True after the visitor arrived through a password-reset link and has not set a new password yet. */
  recovering: boolean;
  finishRecovery: () => void;
  /** True after the user signed out through `signOut` (not after an expired session), until the next sign-in. */
  signedOutOnPurpose: boolean;
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/** Whether a URL fragment is a password-reset link's (`#access_token=…&type=recovery`). */
export function isRecoveryLink(hash: string): boolean {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return params.get('type') === 'recovery' && params.has('access_token');
}

// Read once at start-up, before supabase-js consumes the fragment: supabase-js reports the link's
// session as INITIAL_SESSION first and PASSWORD_RECOVERY only a moment later, and in between the
// visitor-only guard would already have sent the (now signed-in) user to the dashboard.
const OPENED_FROM_RECOVERY_LINK =
  typeof window !== 'undefined' && isRecoveryLink(window.location.hash);

/**
 * Whether a URL carries an auth result for supabase-js to read (detectSessionInUrl): a session
 * or an error in the fragment (e-mail links), or a PKCE `code` in the query.
 */
export function hasAuthResultInUrl(location: Pick<Location, 'hash' | 'search'>): boolean {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  return (
    hash.has('access_token') ||
    hash.has('error_description') ||
    new URLSearchParams(location.search).has('code')
  );
}

/** Whether the client must load now to tell who the visitor is. */
function mayBeSignedIn(): boolean {
  return (
    sessionStore.mayHaveSession() ||
    (typeof window !== 'undefined' && hasAuthResultInUrl(window.location))
  );
}

// The client's chunk, retried if it fails.
const loadClient = () =>
  loadChunk(() => import('./supabase'), 'supabase').then((module) => module.supabase);

// Subscribes to nothing: `useSyncExternalStore` below only tells hydration from the rest.
const subscribeToNothing = () => () => {};

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  // Nothing stored and nothing in the URL: signed out, known without asking the client.
  const [checking, setChecking] = useState(mayBeSignedIn);
  // A prerendered page (scripts/prerender.ts) shows the signed-out state: while React hydrates it,
  // the app must render just that, so a stored session shows as "checking" only afterwards.
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const loading = hydrated && checking;
  const [recovering, setRecovering] = useState(OPENED_FROM_RECOVERY_LINK);
  const [signedOutOnPurpose, setSignedOutOnPurpose] = useState(false);

  useEffect(() => {
    let listening: SupabaseClient | undefined;
    let unsubscribe = () => {};
    let stopped = false;
    const listen = (client: SupabaseClient) => {
      if (stopped || listening === client) return;
      listening = client;
      // supabase-js always emits INITIAL_SESSION first, so the listener alone settles `loading`.
      const { data } = client.auth.onAuthStateChange((event, next) => {
        setSession(next);
        setChecking(false);
        if (event === 'PASSWORD_RECOVERY') setRecovering(true);
        // A reset link that gave no session (expired, already used) leaves nothing to recover.
        if (event === 'INITIAL_SESSION' && !next) setRecovering(false);
        if (event === 'SIGNED_OUT') setRecovering(false);
        if (event === 'SIGNED_IN') setSignedOutOnPurpose(false);
      });
      unsubscribe = () => data.subscription.unsubscribe();
    };
    // A client that cannot be loaded (even after its retries) leaves no session to wait for: the
    // guards stop waiting, and the page that needs the client shows its error and a way out.
    const load = () => void loadClient().then(listen, () => setChecking(false));
    // Whichever page loads the client first, the listener starts then.
    const stopWaiting = onClientLoaded(listen);
    if (mayBeSignedIn()) load();
    // A session stored by another tab (signing in there) needs the client here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key && AUTH_TOKEN_KEY.test(event.key) && event.newValue) load();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stopped = true;
      stopWaiting();
      unsubscribe();
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      user: session?.user ?? null,
      session,
      loading,
      recovering,
      finishRecovery: () => setRecovering(false),
      signedOutOnPurpose,
      signOut: async () => {
        // Set first, so the guard that sees the signed-out user already knows why.
        setSignedOutOnPurpose(true);
        const client = await loadClient();
        const { error } = await client.auth.signOut();
        if (error) {
          setSignedOutOnPurpose(false);
          throw error;
        }
      },
    }),
    [session, loading, recovering, signedOutOnPurpose],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>.');
  return value;
}

/** The name a signed-in user registered with, if any. */
export function displayName(user: User | null): string | undefined {
  const meta = user?.user_metadata as Record<string, unknown> | undefined;
  const name = meta?.name ?? meta?.full_name ?? meta?.display_name;
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
}

function AuthPending() {
  return (
    <Center minH="50vh" role="status" aria-label="Checking your session">
      <Spinner size="lg" color="teal.500" />
    </Center>
  );
}

/**
 * Renders child routes only for a signed-in user; a visitor goes to the login page, which is told
 * the requested page (router state `{ from }`) to return to after signing in. After signing out
 * on purpose there is nothing to return to: the next sign-in starts at the dashboard. (A session
 * that expired on a page does return there.)
 */
export function ProtectedRoute() {
  const { user, loading, signedOutOnPurpose } = useAuth();
  const location = useLocation();
  if (loading) return <AuthPending />;
  if (!user) {
    const state = signedOutOnPurpose ? undefined : returnToState(location);
    return <Navigate to={paths.login} replace state={state} />;
  }
  return <Outlet />;
}

/** Where a visitor goes once signed in: the page they had asked for, else the dashboard. */
export function useSignedInTarget(): string {
  const location = useLocation();
  return readReturnTo(location.state) ?? paths.dashboard;
}

/**
 * Renders child routes only for a visitor; a signed-in user goes on to the page they had asked
 * for (see ProtectedRoute), else the dashboard.
 */
export function VisitorRoute() {
  const { user, loading, recovering } = useAuth();
  const target = useSignedInTarget();
  if (loading) return <AuthPending />;
  // A password-reset link signs the user in; they still need the login page to set a new password.
  if (user && !recovering) return <Navigate to={target} replace />;
  return <Outlet />;
}
