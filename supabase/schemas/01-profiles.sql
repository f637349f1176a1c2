-- Profiles
--
-- One row per account, created with the auth user; name, e-mail copy, role, time zone; deleting
-- the own account.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.profiles (
  id uuid not null,
  name text,
  email text,
  role text default 'user'::text not null,
  created_at timestamp with time zone default now() not null,
  time_zone text,
  constraint profiles_pkey PRIMARY KEY (id),
  constraint profiles_id_fkey FOREIGN KEY (id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint profiles_name_length CHECK ((char_length(name) <= 200)),
  constraint profiles_time_zone_format CHECK (((time_zone IS NULL) OR ((char_length(time_zone) <= 64) AND (time_zone ~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$'::text))))
);
comment on table public.profiles is
  'Public account data of each auth user; created on sign-up.';
comment on column public.profiles.role is
  'Account role; every new account is a ''user''. Only the service role changes it.';
comment on column public.profiles.time_zone is
  'IANA time zone of the owner (as the dashboard''s browser reports it); null: UTC. Notifications state times in it.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.handle_new_user()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into public.profiles (id, name, email)
  values (
    new.id,
    left(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), 200),
    new.email
  );
  return new;
end;
$function$;
revoke all on function public.handle_new_user() from public, anon, authenticated, service_role;

create or replace function public.handle_user_updated()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update public.profiles
     set email = new.email,
         name = case
                  when new.raw_user_meta_data ->> 'name' is distinct from old.raw_user_meta_data ->> 'name'
                    then left(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), 200)
                  else name
                end
   where id = new.id;
  return new;
end;
$function$;
revoke all on function public.handle_user_updated() from public, anon, authenticated, service_role;

create or replace function private.check_time_zone()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  -- A malformed name is left to profiles_time_zone_format to refuse.
  if new.time_zone is not null
     and char_length(new.time_zone) <= 64
     and new.time_zone ~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$'
     and not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = new.time_zone) then
    raise exception 'Unknown time zone "%".', new.time_zone
      using errcode = '22023', hint = 'Use an IANA zone name such as Europe/Berlin.';
  end if;
  return new;
end;
$function$;
revoke all on function private.check_time_zone() from public, anon, authenticated, service_role;

create or replace function public.delete_own_account()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'Not signed in.' using errcode = '42501';
  end if;
  delete from auth.users where id = v_uid;
end;
$function$;
revoke all on function public.delete_own_account() from public, anon, authenticated, service_role;
grant execute on function public.delete_own_account() to authenticated;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_new_user();
create trigger on_auth_user_updated AFTER UPDATE OF email, raw_user_meta_data ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_user_updated();
create trigger profiles_time_zone_known BEFORE INSERT OR UPDATE OF time_zone ON public.profiles FOR EACH ROW EXECUTE FUNCTION private.check_time_zone();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.profiles enable row level security;
create policy "Profiles are viewable by their owner" on public.profiles
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = id));
create policy "Profiles are updatable by their owner" on public.profiles
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = id))
  with check ((( SELECT auth.uid() AS uid) = id));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.profiles from public, anon, authenticated, service_role;
grant select on table public.profiles to authenticated;
grant all on table public.profiles to service_role;
grant update (name, time_zone) on table public.profiles to authenticated;
