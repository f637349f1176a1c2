// supabase/config.toml settings that Supabase reads and the local stack does not implement: the
// stack refuses to start on them instead of running differently from `supabase start` without a
// word. `[api] schemas` is read here too (REST serves `public` alone).
type Table = Record<string, unknown>;
const table = (v: unknown): Table => (v && typeof v === 'object' ? (v as Table) : {});

/** The schema REST serves; `graphql_public` may be listed (the CLI's default), GraphQL is not served. */
const SERVED_SCHEMA = 'public';
const LISTABLE_SCHEMAS = [SERVED_SCHEMA, 'graphql_public'];

const refuse = (setting: string, why: string) =>
  new Error(
    `supabase/config.toml: ${setting} is not supported by the local stack (${why}; see local-stack/README.md)`,
  );

/** `[api] schemas` (the CLI's default when absent), checked to start with `public`. */
export function exposedSchemas(toml: Table): string[] {
  const listed = table(toml.api).schemas;
  const schemas = Array.isArray(listed) ? listed.map(String) : [...LISTABLE_SCHEMAS];
  // PostgREST serves the first schema to requests that name none.
  if (schemas[0] !== SERVED_SCHEMA)
    throw refuse(`[api] schemas = ${JSON.stringify(schemas)}`, 'the first schema must be public');
  const other = schemas.find((s) => !LISTABLE_SCHEMAS.includes(s));
  if (other !== undefined)
    throw refuse(`[api] schemas "${other}"`, 'REST serves the public schema only');
  return schemas;
}

/** Throws for an `[auth]` setting that would change Auth's answers if it were honoured. */
export function refuseUnsupportedAuth(toml: Table): void {
  const auth = table(toml.auth);
  if (auth.enable_anonymous_sign_ins === true)
    throw refuse('[auth] enable_anonymous_sign_ins = true', 'anonymous sign-ins are not served');
  if (typeof auth.signing_keys_path === 'string' && auth.signing_keys_path !== '')
    throw refuse('[auth] signing_keys_path', 'tokens are signed with the HS256 JWT secret only');
}
