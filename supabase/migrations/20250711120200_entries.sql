-- Entries: the messages visitors submit through a form. Only the form endpoint (service role)
-- writes them; the form's owner reads them, marks them read or spam, and deletes them.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.entries (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references public.forms (id) on delete cascade,
  -- The form's owner, copied from the form by a trigger: policies filter on it without a join,
  -- and Realtime can check each change against it.
  user_id uuid not null references auth.users (id) on delete cascade,
  name text,
  email text,
  message text,
  -- Every other submitted field, by name.
  data jsonb not null default '{}'::jsonb,
  is_spam boolean not null default false,
  read_at timestamptz,
  created_at timestamptz not null default now(),
  -- The same caps the form endpoint enforces (supabase/functions/_shared/limits.ts).
  constraint entries_name_length check (char_length(name) <= 200),
  constraint entries_email_length check (char_length(email) <= 320),
  constraint entries_message_length check (char_length(message) <= 10000),
  constraint entries_data_is_object check (jsonb_typeof(data) = 'object')
);

comment on table public.entries is 'Form submissions; inserted only by the form endpoint with the service role.';

create index entries_user_id_idx on public.entries (user_id);
create index entries_form_id_created_at_idx on public.entries (form_id, created_at desc);

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------

-- The owner comes from the form, whatever the writer sent, so an entry can never be made to
-- appear in another user's inbox.
create function public.set_entry_owner()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
declare
  owner_id uuid;
begin
  select f.user_id into owner_id from public.forms f where f.id = new.form_id;
  if owner_id is null then
    raise exception 'form % does not exist', new.form_id
      using errcode = 'foreign_key_violation';
  end if;
  new.user_id := owner_id;
  return new;
end;
$$;

create trigger entries_set_owner
  before insert or update of form_id, user_id on public.entries
  for each row execute function public.set_entry_owner();

revoke execute on function public.set_entry_owner() from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
-- No insert policy: visitors post through the form endpoint, which checks origin, limits and
-- spam first and then writes with the service role (which bypasses RLS).
alter table public.entries enable row level security;

create policy "Entries are viewable by the form owner"
  on public.entries for select
  to authenticated
  using ((select auth.uid()) = user_id);

create policy "Entries are updatable by the form owner"
  on public.entries for update
  to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);

create policy "Entries are deletable by the form owner"
  on public.entries for delete
  to authenticated
  using ((select auth.uid()) = user_id);

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
-- The owner may only flag an entry (read, spam): what the visitor sent stays as sent.
revoke all on table public.entries from anon, authenticated;
grant select, delete on table public.entries to authenticated;
grant update (read_at, is_spam) on table public.entries to authenticated;
grant all on table public.entries to service_role;

-- ------------------------------------------------------------------------------------------------
-- Realtime
-- ------------------------------------------------------------------------------------------------
-- New messages appear in the dashboard live; Realtime delivers each to the form's owner only.
alter publication supabase_realtime add table public.entries;
