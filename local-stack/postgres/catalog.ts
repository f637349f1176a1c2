// The one reader of Postgres' catalog for the stand-in services: relations with their columns,
// types, primary key and RLS switch; constraints (unique keys, foreign keys); functions with their
// parameters; per-role settings; a publication's tables; the columns a role may SELECT. REST's
// schema cache and Realtime's table cache each keep what they read for as long as their service
// needs (rest/schema-cache.ts, realtime/catalog.ts).
import type pg from 'pg';

export interface CatalogColumn {
  name: string;
  attnum: number;
  /** `pg_type.typname`, what Supabase's Realtime reports in `columns[].type` (`int8`, `_text`). */
  typname: string;
  /** `format_type()`, safe to use in a cast; PostgREST's column type. */
  typeSql: string;
}

export interface CatalogRelation {
  oid: number;
  schema: string;
  name: string;
  /** `pg_class.relkind`: `r` table, `p` partitioned table, `v` view, `m` materialized view, `f` foreign table. */
  kind: string;
  rlsEnabled: boolean;
  /** In column order. */
  columns: CatalogColumn[];
  primaryKey: string[];
}

const RELATIONS_SQL = `
select c.oid::int as oid, n.nspname as schema, c.relname as name, c.relkind as kind, c.relrowsecurity as rls,
  coalesce((select json_agg(json_build_object('name', a.attname, 'attnum', a.attnum, 'typname', t.typname,
                                             'typeSql', format_type(a.atttypid, a.atttypmod)) order by a.attnum)
            from pg_attribute a join pg_type t on t.oid = a.atttypid
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns,
  coalesce((select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
            from pg_index i join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey::int2[])
            where i.indrelid = c.oid and i.indisprimary), '[]') as pk
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind = any($2::"char"[]) and ($3::name is null or c.relname = $3)`;

/** The relations of `schema` whose kind is one of `kinds`; only the one called `name` if given. */
export async function readRelations(
  pool: pg.Pool,
  schema: string,
  kinds: string[],
  name?: string,
): Promise<CatalogRelation[]> {
  const { rows } = await pool.query<{
    oid: number;
    schema: string;
    name: string;
    kind: string;
    rls: boolean;
    columns: CatalogColumn[];
    pk: string[];
  }>(RELATIONS_SQL, [schema, kinds, name ?? null]);
  return rows.map((r) => ({
    oid: r.oid,
    schema: r.schema,
    name: r.name,
    kind: r.kind,
    rlsEnabled: r.rls,
    columns: r.columns,
    primaryKey: r.pk,
  }));
}

export interface CatalogConstraint {
  name: string;
  /** `p` primary key, `u` unique, `f` foreign key. */
  type: string;
  table: string;
  columns: string[];
  foreign_table: string | null;
  /** Whether the referenced table is in the same schema. */
  foreign_exposed: boolean | null;
  foreign_columns: string[];
}

const CONSTRAINTS_SQL = `
  select con.conname as name, con.contype as type, c.relname as table,
    array(select a.attname from unnest(con.conkey) with ordinality k(n, i)
          join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
    fc.relname as foreign_table,
    fc.relnamespace = $1::regnamespace as foreign_exposed,
    array(select a.attname from unnest(con.confkey) with ordinality k(n, i)
          join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i)::text[] as foreign_columns
  from pg_catalog.pg_constraint con
  join pg_catalog.pg_class c on c.oid = con.conrelid
  left join pg_catalog.pg_class fc on fc.oid = con.confrelid
  where c.relnamespace = $1::regnamespace and con.contype in ('p', 'u', 'f')
  order by con.conname`;

/** Primary keys, unique constraints and foreign keys of the tables of `schema`. */
export async function readConstraints(pool: pg.Pool, schema: string): Promise<CatalogConstraint[]> {
  return (await pool.query<CatalogConstraint>(CONSTRAINTS_SQL, [schema])).rows;
}

export interface CatalogParam {
  name: string;
  type: string;
  mode: 'i' | 'o' | 'b' | 'v' | 't';
}

export interface CatalogFunction {
  name: string;
  default_count: number;
  returns_set: boolean;
  return_type: string;
  /** The row type's relation when the function returns a table's rows, else 0. */
  return_relid: number;
  params: CatalogParam[];
  relation_columns: string[] | null;
}

const FUNCTIONS_SQL = `
  select p.proname as name, p.pronargdefaults as default_count, p.proretset as returns_set,
    pg_catalog.format_type(p.prorettype, null) as return_type,
    t.typrelid as return_relid,
    coalesce((
      select json_agg(json_build_object('name', coalesce(x.n, ''), 'type', pg_catalog.format_type(x.ty, null),
                                        'mode', coalesce(x.m::text, 'i')) order by x.i)
      from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames, p.proargmodes)
        with ordinality as x(ty, n, m, i)
      where x.ty is not null
    ), '[]') as params,
    case when t.typrelid <> 0 then array(
      select a.attname from pg_catalog.pg_attribute a
      where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum)::text[]
    end as relation_columns
  from pg_catalog.pg_proc p
  join pg_catalog.pg_type t on t.oid = p.prorettype
  where p.pronamespace = $1::regnamespace and p.prokind = 'f'
    and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)`;

/** The plain functions of `schema` (no procedures, aggregates or trigger functions). */
export async function readFunctions(pool: pg.Pool, schema: string): Promise<CatalogFunction[]> {
  return (await pool.query<CatalogFunction>(FUNCTIONS_SQL, [schema])).rows;
}

const ROLE_SETTINGS_SQL = `
  select r.rolname as role, s.setconfig as config
  from pg_catalog.pg_db_role_setting s
  join pg_catalog.pg_roles r on r.oid = s.setrole
  where s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
  order by s.setdatabase`;

/** `alter role … set` settings (`name=value` strings) per role, the database's own last. */
export async function readRoleSettings(
  pool: pg.Pool,
): Promise<{ role: string; config: string[] }[]> {
  return (await pool.query<{ role: string; config: string[] }>(ROLE_SETTINGS_SQL)).rows;
}

/** Tables in a publication (including `FOR ALL TABLES`). */
export async function readPublishedTables(
  pool: pg.Pool,
  publication: string,
): Promise<{ schema: string; name: string }[]> {
  const { rows } = await pool.query<{ schema: string; name: string }>(
    'select schemaname as schema, tablename as name from pg_publication_tables where pubname = $1',
    [publication],
  );
  return rows;
}

/** Columns of the relation `oid` that `role` may SELECT; none when the role does not exist. */
export async function readSelectableColumns(
  pool: pg.Pool,
  oid: number,
  role: string,
): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `select a.attname as name from pg_attribute a
     where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
       and exists (select 1 from pg_roles where rolname = $2)
       and has_column_privilege($2, a.attrelid, a.attnum, 'SELECT')`,
    [oid, role],
  );
  return rows.map((r) => r.name);
}
