// The login the REST stand-in uses, as PostgREST logs in on Supabase: `authenticator`, a role
// with no rights of its own (not a superuser, NOINHERIT) that may only switch to `anon`,
// `authenticated` and `service_role`. bootstrap.sql creates it with this password.

const AUTHENTICATOR_ROLE = 'authenticator';

/** The Supabase CLI's local database password (development only), also used for this role. */
const AUTHENTICATOR_PASSWORD = 'postgres';

/** The stack's database URL with the `authenticator` login in place of the superuser's. */
export function authenticatorUrl(dbUrl: string): string {
  const url = new URL(dbUrl);
  url.username = AUTHENTICATOR_ROLE;
  url.password = AUTHENTICATOR_PASSWORD;
  return url.toString();
}
