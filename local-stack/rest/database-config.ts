// PostgREST's in-database configuration: `alter role authenticator set pgrst.<setting> = …`
// (how Supabase projects turn on aggregates or plans). The stand-in honours none of it, so while
// any is set it answers every request with an error naming them instead of behaving otherwise.
import { RestError } from './errors.ts';
import type { SchemaSnapshot } from './schema-cache.ts';

/** The role PostgREST logs in as, whose `pgrst.*` settings it reads. */
const AUTHENTICATOR = 'authenticator';

/** `pgrst.<setting> = <value>` for each in-database setting of PostgREST found. */
export function databaseConfig(snapshot: SchemaSnapshot): string[] {
  return (snapshot.roleSettings.get(AUTHENTICATOR) ?? [])
    .filter(([key]) => key.startsWith('pgrst.'))
    .map(([key, value]) => `${key} = ${value}`);
}

export function refuseDatabaseConfig(snapshot: SchemaSnapshot) {
  const settings = databaseConfig(snapshot);
  if (settings.length === 0) return;
  throw new RestError(
    500,
    'PGRST127',
    'Feature not implemented',
    `In-database PostgREST configuration is not honoured by the local stack: ${settings.join(', ')} (set on the role ${AUTHENTICATOR})`,
    `Remove it (alter role ${AUTHENTICATOR} reset …; notify pgrst, 'reload config') or see local-stack/README.md`,
  );
}
