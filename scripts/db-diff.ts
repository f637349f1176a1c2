// `npm run db:diff`: the SQL that would bring the database the migrations build to the one the
// declarative schemas describe (Supabase's `supabase db diff`, without Docker). One embedded
// PostgreSQL cluster in a temporary folder; supabase/migrations/* load into one scratch database
// and supabase/schemas/*.sql (in file-name order, as `[db.migrations] schema_paths` does) into
// another, both on top of the stand-in's bootstrap (local-stack/postgres/bootstrap.sql); then
// @pgkit/migra diffs them, and catalog queries of our own add what migra does not see:
// publication membership, a function's own settings (`set search_path`), function EXECUTE,
// column and schema grants, default privileges, replica identity, forced RLS and comments.
//
//   npm run db:diff              print the statements (nothing when the two agree)
//   npm run db:diff -- --check   the same, and exit 1 when there are any (CI, `npm run check`)
//   --migrations <dir> --schemas <dir>   other folders (the drift test)
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createClient } from '@pgkit/client';
import { run as migra } from '@pgkit/migra';
import { startPostgres, type PostgresServer } from '../local-stack/postgres/server.ts';
import { freePorts } from '../local-stack/stack.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOOTSTRAP = path.join(ROOT, 'local-stack/postgres/bootstrap.sql');
export const MIGRATIONS_DIR = path.join(ROOT, 'supabase/migrations');
export const SCHEMAS_DIR = path.join(ROOT, 'supabase/schemas');

/** Both scratch databases get this path (the bootstrap's), so migra prints the same text for both. */
const SEARCH_PATH = '"$user", public, extensions';

/** A scratch cluster that can build and compare any number of database pairs. */
export interface ScratchCluster {
  /** The statements that turn `migrationsDir`'s database into `schemasDir`'s; '' when none. */
  diff(migrationsDir: string, schemasDir: string): Promise<string>;
  stop(): Promise<void>;
}

const sqlFiles = async (dir: string) =>
  (await readdir(dir))
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => path.join(dir, f));

export async function startScratchCluster(): Promise<ScratchCluster> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-db-diff-'));
  const [port] = await freePorts(1);
  let server: PostgresServer;
  try {
    server = await startPostgres({ dataDir, port, reset: true });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const url = (db: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`;
  const admin = new pg.Pool({ connectionString: url('postgres'), max: 1 });
  // The cluster stops while this pool's connection closes; its 57P01 is expected then.
  admin.on('error', () => undefined);
  const bootstrapSql = await readFile(BOOTSTRAP, 'utf8');
  let n = 0;
  let bootstrapping: Promise<unknown> = Promise.resolve();

  /** A new database with the bootstrap, then each file's SQL in order (each in a transaction). */
  async function build(files: string[]): Promise<string> {
    const name = `scratch_${++n}`;
    await admin.query(`create database ${name}`);
    const pool = new pg.Pool({ connectionString: url(name), max: 1 });
    pool.on('error', () => undefined);
    try {
      // The bootstrap sets the path on the database named `postgres`; this one needs it instead.
      // It also creates the cluster's roles, so two bootstraps never run at once.
      const bootstrapped = bootstrapping.then(() =>
        pool.query(
          bootstrapSql.replace(
            /alter database postgres set search_path[^;]*;/,
            `alter database ${name} set search_path to ${SEARCH_PATH};`,
          ),
        ),
      );
      bootstrapping = bootstrapped.catch(() => undefined);
      await bootstrapped;
      for (const file of files) {
        const sql = await readFile(file, 'utf8');
        try {
          await pool.query(`begin; set local search_path to ${SEARCH_PATH}; ${sql}; commit;`);
        } catch (err) {
          await pool.query('rollback').catch(() => undefined);
          throw new Error(`${path.relative(ROOT, file)}: ${(err as Error).message}`);
        }
      }
    } finally {
      await pool.end();
    }
    return url(name);
  }

  return {
    async diff(migrationsDir, schemasDir) {
      // Both at once, but each to its end before a failure stops the cluster under the other.
      const built = await Promise.allSettled([
        build(await sqlFiles(migrationsDir)),
        build(await sqlFiles(schemasDir)),
      ]);
      const failed = built.find((b) => b.status === 'rejected');
      if (failed) throw failed.reason;
      const [from, to] = built.map((b) => (b as PromiseFulfilledResult<string>).value);
      const t0 = Date.now();
      const [a, b] = [createClient(from), createClient(to)];
      try {
        const m = await migra(a, b, { unsafe: true, withPrivileges: true });
        const t1 = Date.now();
        const extra = await catalogDiff(from, to);
        if (process.env.DB_DIFF_TIMING)
          console.error(`migra ${t1 - t0} ms, catalog ${Date.now() - t1} ms`);
        return [m.sql.trim(), extra].filter(Boolean).join('\n\n');
      } finally {
        await Promise.all([a.end(), b.end()]);
      }
    },
    async stop() {
      // migra's client closes its pool without waiting; a connection the cluster ends under it
      // would be an unhandled error, so wait (briefly) until only this one is left.
      for (const until = Date.now() + 5_000; Date.now() < until;) {
        const { rows } = await admin.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where backend_type = 'client backend' and pid <> pg_backend_pid()`,
        );
        if (rows[0]!.n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await admin.end();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One fact about a database that migra does not compare, e.g. "this function's search_path": `add`
 * makes it true with its value (a fact whose `add` differs between the databases is re-added),
 * `remove` undoes it, `object` names what it belongs to (a fact of an object the target no longer
 * has needs no undoing: migra drops the object).
 */
interface Fact {
  key: string;
  object: string;
  add: string;
  remove: string;
}

/** Schemas whose objects are the project's: not PostgreSQL's own, nor extensions' members. */
const OWN = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
  and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;
const NOT_EXTENSION = (cls: string, oid: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${cls}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;

const FACT_QUERIES: string[] = [
  // Tables in a publication (Realtime's supabase_realtime).
  `select format('publication %I %I.%I', p.pubname, t.schemaname, t.tablename) as key,
          format('%I.%I', t.schemaname, t.tablename) as object,
          format('alter publication %I add table %I.%I;', p.pubname, t.schemaname, t.tablename) as add,
          format('alter publication %I drop table %I.%I;', p.pubname, t.schemaname, t.tablename) as remove
     from pg_publication_tables t join pg_publication p on p.pubname = t.pubname`,
  // A function's own settings, e.g. `set search_path = ''`.
  `with f as (
     select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as sig,
            case p.prokind when 'p' then 'procedure' else 'function' end as kind, p.proconfig
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where ${OWN} and ${NOT_EXTENSION('pg_proc', 'p.oid')})
   select format('config %s %s', sig, split_part(c, '=', 1)) as key, sig as object,
          format('alter %s %s set %I to %s;', kind, sig, split_part(c, '=', 1),
                 case when split_part(c, '=', 1) = 'search_path'
                      then case substr(c, strpos(c, '=') + 1) when '""' then '''''' else substr(c, strpos(c, '=') + 1) end
                      else quote_literal(substr(c, strpos(c, '=') + 1)) end) as add,
          format('alter %s %s reset %I;', kind, sig, split_part(c, '=', 1)) as remove
     from f cross join unnest(f.proconfig) c`,
  // EXECUTE on functions (no ACL yet means PostgreSQL's default: PUBLIC and the owner).
  `with f as (
     select p.oid, format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as sig,
            case p.prokind when 'p' then 'procedure' else 'function' end as kind,
            coalesce(p.proacl, acldefault('f', p.proowner)) as acl
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where ${OWN} and ${NOT_EXTENSION('pg_proc', 'p.oid')})
   select format('execute %s %s', sig, g.grantee_name) as key, sig as object,
          format('grant execute on %s %s to %s;', kind, sig, g.grantee_name) as add,
          format('revoke execute on %s %s from %s;', kind, sig, g.grantee_name) as remove
     from f cross join lateral (
       select case a.grantee when 0 then 'public' else quote_ident(a.grantee::regrole::text) end as grantee_name
         from aclexplode(f.acl) a) g`,
  // Column grants.
  `select format('column %I.%I.%I %s %s', n.nspname, c.relname, a.attname, lower(a2.privilege_type), g) as key,
          format('%I.%I', n.nspname, c.relname) as object,
          format('grant %s (%I) on table %I.%I to %s;', lower(a2.privilege_type), a.attname, n.nspname, c.relname, g) as add,
          format('revoke %s (%I) on table %I.%I from %s;', lower(a2.privilege_type), a.attname, n.nspname, c.relname, g) as remove
     from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     cross join lateral aclexplode(a.attacl) a2
     cross join lateral (select case a2.grantee when 0 then 'public' else quote_ident(a2.grantee::regrole::text) end as g) gg
    where ${OWN} and a.attacl is not null and a.attnum > 0`,
  // Schema grants.
  `select format('schema %I %s %s', n.nspname, lower(a.privilege_type), g) as key, format('schema %I', n.nspname) as object,
          format('grant %s on schema %I to %s;', lower(a.privilege_type), n.nspname, g) as add,
          format('revoke %s on schema %I from %s;', lower(a.privilege_type), n.nspname, g) as remove
     from pg_namespace n cross join lateral aclexplode(n.nspacl) a
     cross join lateral (select case a.grantee when 0 then 'public' else quote_ident(a.grantee::regrole::text) end as g) gg
    where ${OWN} and a.grantee <> n.nspowner`,
  // Default privileges (alter default privileges …).
  `select format('default %s %s %s %s %s', r.rolname, coalesce(n.nspname, '*'), d.defaclobjtype, lower(a.privilege_type), g) as key,
          'default privileges' as object,
          format('alter default privileges for role %I%s grant %s on %s to %s;', r.rolname,
                 coalesce(' in schema ' || quote_ident(n.nspname), ''), lower(a.privilege_type), o.what, g) as add,
          format('alter default privileges for role %I%s revoke %s on %s from %s;', r.rolname,
                 coalesce(' in schema ' || quote_ident(n.nspname), ''), lower(a.privilege_type), o.what, g) as remove
     from pg_default_acl d join pg_roles r on r.oid = d.defaclrole
     left join pg_namespace n on n.oid = d.defaclnamespace
     cross join lateral aclexplode(d.defaclacl) a
     cross join lateral (select case a.grantee when 0 then 'public' else quote_ident(a.grantee::regrole::text) end as g) gg
     cross join lateral (select case d.defaclobjtype when 'r' then 'tables' when 'S' then 'sequences'
                                  when 'f' then 'functions' when 'T' then 'types' else 'schemas' end as what) o`,
  // Replica identity (Realtime's old records) and forced row level security.
  `select format('replica %I.%I', n.nspname, c.relname) as key, format('%I.%I', n.nspname, c.relname) as object,
          format('alter table %I.%I replica identity %s;', n.nspname, c.relname,
                 case c.relreplident when 'f' then 'full' when 'n' then 'nothing'
                   else 'using index ' || quote_ident((select ic.relname from pg_index i join pg_class ic on ic.oid = i.indexrelid
                                                        where i.indrelid = c.oid and i.indisreplident)) end) as add,
          format('alter table %I.%I replica identity default;', n.nspname, c.relname) as remove
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${OWN} and c.relkind in ('r', 'p') and c.relreplident <> 'd'
   union all
   select format('force rls %I.%I', n.nspname, c.relname), format('%I.%I', n.nspname, c.relname),
          format('alter table %I.%I force row level security;', n.nspname, c.relname),
          format('alter table %I.%I no force row level security;', n.nspname, c.relname)
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${OWN} and c.relkind in ('r', 'p') and c.relforcerowsecurity`,
  // Comments on schemas, tables, views, columns and functions.
  `select format('comment schema %I', n.nspname) as key, format('schema %I', n.nspname) as object,
          format('comment on schema %I is %L;', n.nspname, d.description) as add,
          format('comment on schema %I is null;', n.nspname) as remove
     from pg_description d join pg_namespace n on n.oid = d.objoid and d.classoid = 'pg_namespace'::regclass
    where ${OWN} and ${NOT_EXTENSION('pg_namespace', 'n.oid')} and n.nspname <> 'public'
   union all
   select format('comment %I.%I.%s', n.nspname, c.relname, d.objsubid),
          format('%I.%I', n.nspname, c.relname),
          case when d.objsubid = 0
               then format('comment on %s %I.%I is %L;', case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence' else 'table' end, n.nspname, c.relname, d.description)
               else format('comment on column %I.%I.%I is %L;', n.nspname, c.relname, a.attname, d.description) end,
          case when d.objsubid = 0
               then format('comment on %s %I.%I is null;', case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence' else 'table' end, n.nspname, c.relname)
               else format('comment on column %I.%I.%I is null;', n.nspname, c.relname, a.attname) end
     from pg_description d join pg_class c on c.oid = d.objoid and d.classoid = 'pg_class'::regclass
     join pg_namespace n on n.oid = c.relnamespace
     left join pg_attribute a on a.attrelid = c.oid and a.attnum = d.objsubid and d.objsubid > 0
    where ${OWN} and ${NOT_EXTENSION('pg_class', 'c.oid')}
   union all
   select format('comment %s', sig), sig,
          format('comment on %s %s is %L;', kind, sig, d.description),
          format('comment on %s %s is null;', kind, sig)
     from pg_description d join (
       select p.oid, format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as sig,
              case p.prokind when 'p' then 'procedure' else 'function' end as kind
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where ${OWN} and ${NOT_EXTENSION('pg_proc', 'p.oid')}) f
       on f.oid = d.objoid and d.classoid = 'pg_proc'::regclass`,
];

/** Objects whose facts are compared (tables, functions, schemas) in a database. */
const OBJECTS_QUERY = `
  select format('%I.%I', n.nspname, c.relname) as object from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${OWN}
  union all
  select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${OWN}
  union all
  select format('schema %I', n.nspname) from pg_namespace n where ${OWN}
  union all
  select 'default privileges'`;

async function readFacts(url: string): Promise<{ facts: Map<string, Fact>; objects: Set<string> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const facts = new Map<string, Fact>();
    for (const q of FACT_QUERIES) {
      for (const row of (await client.query<Fact>(q)).rows) facts.set(row.key, row);
    }
    const objects = new Set(
      (await client.query<{ object: string }>(OBJECTS_QUERY)).rows.map((r) => r.object),
    );
    return { facts, objects };
  } finally {
    await client.end();
  }
}

/** What migra leaves out, as statements: undoing first, then adding. */
async function catalogDiff(fromUrl: string, toUrl: string): Promise<string> {
  const [from, to] = await Promise.all([readFacts(fromUrl), readFacts(toUrl)]);
  const removes = [...from.facts.values()]
    .filter((f) => !to.facts.has(f.key) && to.objects.has(f.object))
    .map((f) => f.remove);
  const adds = [...to.facts.values()]
    .filter((f) => from.facts.get(f.key)?.add !== f.add)
    .map((f) => f.add);
  return [...removes.sort(), ...adds.sort()].join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      migrations: { type: 'string', default: MIGRATIONS_DIR },
      schemas: { type: 'string', default: SCHEMAS_DIR },
    },
  });
  const started = Date.now();
  const cluster = await startScratchCluster();
  let sql: string;
  try {
    sql = await cluster.diff(values.migrations, values.schemas);
  } finally {
    await cluster.stop();
  }
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (!sql) {
    console.error(`db:diff: the migrations build the database the schemas describe (${took}).`);
    return 0;
  }
  console.log(sql);
  if (/^drop table /im.test(sql)) {
    // migra writes a table moved to another schema as drop + create, which would lose its rows.
    console.error(
      'db:diff: the statements drop a table. If it moved to another schema, write `alter table … set schema …` instead, which keeps its rows.',
    );
  }
  console.error(
    `db:diff: the migrations and the schemas differ (${took}); the statements above turn the first into the second.` +
      (values.check ? ' Write them into a new migration, or fix the schema.' : ''),
  );
  return values.check ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    // migra's inspection pool keeps the process alive for seconds; nothing else is left to finish.
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(2);
    },
  );
}
