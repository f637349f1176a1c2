-- Profiles: one row per auth user, holding the display name and e-mail the app shows and the
-- account role. Rows are created by the database when a user signs up, so the client never
-- writes the id, e-mail or role itself.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text,
  email text,
  role text not null default 'user',
  created_at timestamptz not null default now(),
  constraint profiles_name_length check (char_length(name) <= 200)
);

comment on table public.profiles is 'Public account data of each auth user; created on sign-up.';
comment on column public.profiles.role is 'Account role; every new account is a ''user''. Only the service role changes it.';

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------

-- Creates the profile from the sign-up metadata (`options.data.name` in supabase-js). Runs as the
-- owner because the signing-up user has no right to write profiles. A name too long for the
-- profile is cut rather than failing the whole sign-up.
create function public.handle_new_user()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  insert into public.profiles (id, name, email)
  values (
    new.id,
    left(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), 200),
    new.email
  );
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Keeps the profile's e-mail (which the owner may not edit) in step with the auth account, and
-- follows name changes made through `auth.updateUser({ data: { name } })`.
create function public.handle_user_updated()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
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
$$;

create trigger on_auth_user_updated
  after update of email, raw_user_meta_data on auth.users
  for each row execute function public.handle_user_updated();

-- Trigger functions are not an API: nobody calls them directly.
revoke execute on function public.handle_new_user() from public, anon, authenticated;
revoke execute on function public.handle_user_updated() from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.profiles enable row level security;

create policy "Profiles are viewable by their owner"
  on public.profiles for select
  to authenticated
  using ((select auth.uid()) = id);

create policy "Profiles are updatable by their owner"
  on public.profiles for update
  to authenticated
  using ((select auth.uid()) = id)
  with check ((select auth.uid()) = id);

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
-- Start from nothing (hosted projects may still grant everything by default), then allow only
-- what the policies above are for. The owner may edit the name only: id, e-mail and role are not
-- granted for update, so changing them fails with "permission denied".
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (name) on table public.profiles to authenticated;
grant all on table public.profiles to service_role;
