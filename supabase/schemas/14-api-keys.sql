-- API keys
--
-- Hashed bearer keys and the read API's service-role functions, with per-key request counts.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.api_keys (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  name text not null,
  scope text not null,
  prefix text not null,
  key_hash text not null,
  created_at timestamp with time zone default now() not null,
  last_used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  rate_window_start timestamp with time zone,
  rate_window_hits integer default 0 not null,
  constraint api_keys_pkey PRIMARY KEY (id),
  constraint api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint api_keys_hash_format CHECK ((key_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint api_keys_name_length CHECK (((char_length(name) >= 1) AND (char_length(name) <= 100))),
  constraint api_keys_name_trimmed CHECK ((name = btrim(name))),
  constraint api_keys_scope CHECK ((scope = ANY (ARRAY['read_only'::text, 'read_write'::text])))
);
create index api_keys_user_created_idx ON public.api_keys (user_id, created_at DESC);
create unique index api_keys_key_hash_idx ON public.api_keys (key_hash);
comment on table public.api_keys is
  'Bearer keys of the forms-api function; only their SHA-256 is stored. Created and revoked through create_api_key() and revoke_api_key().';

create table private.api_request_counts (
  user_id uuid not null,
  window_start timestamp with time zone not null,
  hits integer default 0 not null,
  constraint api_request_counts_pkey PRIMARY KEY (user_id)
);
comment on table private.api_request_counts is
  'Read-API requests per account in the current minute, across all its keys (authenticate_api_key()).';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.authenticate_api_key(p_key_hash text, p_per_minute integer, p_per_account_per_minute integer DEFAULT NULL::integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_id uuid;
  v_user uuid;
  v_scope text;
  v_hash text;
  v_hits integer;
  v_account_hits integer;
begin
  -- SET expressions read the row as it was, so a new minute starts the count again at 1.
  update public.api_keys k
     set rate_window_hits = case when k.rate_window_start = v_minute
                                 then k.rate_window_hits + 1 else 1 end,
         rate_window_start = v_minute,
         last_used_at = now()
   where k.key_hash = p_key_hash and k.revoked_at is null
  returning k.id, k.user_id, k.scope, k.key_hash, k.rate_window_hits
       into v_id, v_user, v_scope, v_hash, v_hits;
  if v_id is null then
    return jsonb_build_object('status', 'unauthorized');
  end if;
  insert into private.api_request_counts as c (user_id, window_start, hits)
    values (v_user, v_minute, 1)
    on conflict (user_id) do update
      set hits = case when c.window_start = excluded.window_start then c.hits + 1 else 1 end,
          window_start = excluded.window_start
    returning c.hits into v_account_hits;
  if v_hits > p_per_minute or v_account_hits > p_per_account_per_minute then
    return jsonb_build_object(
      'status', 'rate_limited',
      'retry_after', greatest(1, ceil(extract(epoch from (v_minute + interval '1 minute' - now()))))
    );
  end if;
  return jsonb_build_object(
    'status', 'ok', 'key_id', v_id, 'user_id', v_user, 'scope', v_scope, 'key_hash', v_hash
  );
end;
$function$;
revoke all on function public.authenticate_api_key(p_key_hash text, p_per_minute integer, p_per_account_per_minute integer) from public, anon, authenticated, service_role;
grant execute on function public.authenticate_api_key(p_key_hash text, p_per_minute integer, p_per_account_per_minute integer) to service_role;

create or replace function public.create_api_key(p_name text, p_scope text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_active constant integer := 20;
  c_created_per_day constant integer := 20;
  v_uid uuid := auth.uid();
  v_name text := btrim(coalesce(p_name, ''));
  v_key text;
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to create an API key.' using errcode = '42501';
  end if;
  if char_length(v_name) < 1 or char_length(v_name) > 100 then
    raise exception 'Give the key a name of 1 to 100 characters.' using errcode = '22023';
  end if;
  if p_scope is null or p_scope not in ('read_only', 'read_write') then
    raise exception 'Choose read_only or read_write as the scope.' using errcode = '22023';
  end if;
  -- Serialises one owner's creations, so the caps below hold under concurrent requests.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(v_uid::text, 42));
  if (select count(*) from public.api_keys k where k.user_id = v_uid and k.revoked_at is null)
     >= c_active then
    raise exception 'You have 20 active API keys, the most an account may have. Revoke one first.'
      using errcode = 'PT409', hint = 'api_key_limit';
  end if;
  if private.ledger_count('api_key_created', now() - interval '1 day', c_created_per_day, v_uid)
     >= c_created_per_day then
    raise exception 'You have created 20 API keys today, the most an account may. Try again tomorrow.'
      using errcode = 'PT429', hint = 'api_key_rate';
  end if;

  v_key := 'tb_live_' || encode(extensions.gen_random_bytes(32), 'hex');
  insert into public.api_keys (user_id, name, scope, prefix, key_hash)
  values (
    v_uid,
    v_name,
    p_scope,
    left(v_key, 12),
    encode(pg_catalog.sha256(pg_catalog.convert_to(v_key, 'UTF8')), 'hex')
  )
  returning * into v_row;
  insert into private.action_ledger (kind, user_id) values ('api_key_created', v_uid);

  return jsonb_build_object(
    'id', v_row.id,
    'name', v_row.name,
    'scope', v_row.scope,
    'prefix', v_row.prefix,
    'created_at', v_row.created_at,
    'key', v_key
  );
end;
$function$;
revoke all on function public.create_api_key(p_name text, p_scope text) from public, anon, authenticated, service_role;
grant execute on function public.create_api_key(p_name text, p_scope text) to authenticated;

create or replace function public.revoke_api_key(p_id uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if auth.uid() is null then
    raise exception 'Sign in to revoke an API key.' using errcode = '42501';
  end if;
  update public.api_keys k
     set revoked_at = now()
   where k.id = p_id and k.user_id = auth.uid() and k.revoked_at is null;
  return found;
end;
$function$;
revoke all on function public.revoke_api_key(p_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.revoke_api_key(p_id uuid) to authenticated;

create or replace function public.api_list_forms(p_user_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'created_at', f.created_at
         ) order by f.created_at desc, f.id desc), '[]'::jsonb)
    from public.forms f
   where f.user_id = p_user_id;
$function$;
revoke all on function public.api_list_forms(p_user_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.api_list_forms(p_user_id uuid) to service_role;

create or replace function public.api_list_entries(p_user_id uuid, p_form_id uuid, p_since timestamp with time zone, p_after_created timestamp with time zone, p_after_id uuid, p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_rows jsonb;
begin
  if not exists (select 1 from public.forms f where f.id = p_form_id and f.user_id = p_user_id) then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  select coalesce(jsonb_agg(to_jsonb(page) order by page.created_at, page.id), '[]'::jsonb)
    into v_rows
    from (
      select e.id, e.form_id, e.name, e.email, e.message, e.data, e.is_spam, e.read_at,
             e.created_at
        from public.entries e
       where e.form_id = p_form_id
         and e.user_id = p_user_id
         -- No ORs on the parameters: both bounds stay index conditions on
         -- (form_id, created_at, id) in a cached generic plan too; -infinity and the nil uuid
         -- stand for "no bound".
         and e.created_at >= coalesce(p_since, '-infinity'::timestamptz)
         and (e.created_at, e.id) > (coalesce(p_after_created, '-infinity'::timestamptz),
                                     coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'::uuid))
       order by e.created_at, e.id
       limit greatest(1, least(p_limit, 1000)) + 1
    ) page;
  return jsonb_build_object('status', 'ok', 'entries', v_rows);
end;
$function$;
revoke all on function public.api_list_entries(p_user_id uuid, p_form_id uuid, p_since timestamp with time zone, p_after_created timestamp with time zone, p_after_id uuid, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.api_list_entries(p_user_id uuid, p_form_id uuid, p_since timestamp with time zone, p_after_created timestamp with time zone, p_after_id uuid, p_limit integer) to service_role;

create or replace function public.api_delete_entry(p_user_id uuid, p_form_id uuid, p_entry_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not exists (select 1 from public.forms f where f.id = p_form_id and f.user_id = p_user_id) then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  delete from public.entries e
   where e.id = p_entry_id and e.form_id = p_form_id and e.user_id = p_user_id;
  if not found then
    return jsonb_build_object('status', 'entry_not_found');
  end if;
  return jsonb_build_object('status', 'deleted');
end;
$function$;
revoke all on function public.api_delete_entry(p_user_id uuid, p_form_id uuid, p_entry_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.api_delete_entry(p_user_id uuid, p_form_id uuid, p_entry_id uuid) to service_role;

create or replace function private.purge_revoked_api_keys()
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  delete from public.api_keys k where k.revoked_at < now() - interval '30 days';
  get diagnostics v_count = row_count;
  return v_count;
end;
$function$;
revoke all on function private.purge_revoked_api_keys() from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.api_keys enable row level security;
create policy "API keys are viewable by their owner" on public.api_keys
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.api_keys from public, anon, authenticated, service_role;
grant all on table public.api_keys to service_role;
grant select (id, user_id, name, scope, prefix, created_at, last_used_at, revoked_at) on table public.api_keys to authenticated;
revoke all on table private.api_request_counts from public, anon, authenticated, service_role;
