-- Forms: the endpoints a user creates. Each form forwards its submissions to one target e-mail
-- address and accepts browser posts from one allowed origin. Only the owner sees or changes them.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.forms (
  -- The dashboard generates the id in the browser so it can show the embed code at once.
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  target_email text not null,
  allowed_origin text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint forms_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint forms_target_email_format check (
    char_length(target_email) <= 320
    and target_email ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'
  ),
  -- An origin as browsers send it in the Origin header: scheme://host[:port], nothing after.
  -- Hosts are DNS names (a single label such as `localhost` included), IPv4 or bracketed IPv6.
  constraint forms_allowed_origin_format check (
    char_length(allowed_origin) <= 300
    and allowed_origin ~ '^https?://([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$'
  )
);

comment on table public.forms is 'Form endpoints; submissions go to /functions/v1/forms/<id>.';
comment on column public.forms.allowed_origin is 'Origin allowed to post, stored lower-case without a trailing slash.';

create index forms_user_id_idx on public.forms (user_id);

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------

-- Normalises what people paste: surrounding spaces, an upper-case host, one trailing slash
-- (`https://Example.com/` becomes `https://example.com`), so the endpoint can compare the stored
-- value with the browser's Origin header as plain text. Also keeps `updated_at` honest.
create function public.normalize_form()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  new.target_email := btrim(new.target_email);
  new.allowed_origin := regexp_replace(lower(btrim(new.allowed_origin)), '/$', '');
  if tg_op = 'INSERT' then
    new.created_at := now();
  else
    new.created_at := old.created_at;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create trigger forms_normalize
  before insert or update on public.forms
  for each row execute function public.normalize_form();

revoke execute on function public.normalize_form() from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.forms enable row level security;

create policy "Forms are viewable by their owner"
  on public.forms for select
  to authenticated
  using ((select auth.uid()) = user_id);

create policy "Forms can be created by users for themselves"
  on public.forms for insert
  to authenticated
  with check ((select auth.uid()) = user_id);

create policy "Forms are updatable by their owner"
  on public.forms for update
  to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);

create policy "Forms are deletable by their owner"
  on public.forms for delete
  to authenticated
  using ((select auth.uid()) = user_id);

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
-- Visitors get nothing. Users may write the fields they own; the id and owner are fixed once the
-- form exists (entries point at the id), and timestamps are the database's.
revoke all on table public.forms from anon, authenticated;
grant select, delete on table public.forms to authenticated;
grant insert (id, user_id, name, target_email, allowed_origin) on table public.forms to authenticated;
grant update (name, target_email, allowed_origin) on table public.forms to authenticated;
grant all on table public.forms to service_role;

-- ------------------------------------------------------------------------------------------------
-- Realtime
-- ------------------------------------------------------------------------------------------------
-- The dashboard's forms list updates live; Realtime delivers each change only to the owner.
alter publication supabase_realtime add table public.forms;
