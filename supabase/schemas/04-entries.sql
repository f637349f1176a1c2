-- Entries
--
-- Messages posted to a form: owner, search text, custom-field order, the inbox counts, Realtime
-- publication.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.entries (
  id uuid default gen_random_uuid() not null,
  form_id uuid not null,
  user_id uuid not null,
  name text,
  email text,
  message text,
  data jsonb default '{}'::jsonb not null,
  is_spam boolean default false not null,
  read_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  search_text text,
  notification_skipped text,
  field_order text[],
  source_page text,
  source_referrer text,
  source_site_id uuid,
  constraint entries_pkey PRIMARY KEY (id),
  constraint entries_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint entries_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint entries_data_is_object CHECK ((jsonb_typeof(data) = 'object'::text)),
  constraint entries_email_length CHECK ((char_length(email) <= 320)),
  constraint entries_message_length CHECK ((char_length(message) <= 10000)),
  constraint entries_name_length CHECK ((char_length(name) <= 200)),
  constraint entries_source_page CHECK (((source_page ~ '^/'::text) AND (char_length(source_page) <= 2000) AND (source_page !~ '[[:cntrl:]]'::text))),
  constraint entries_source_referrer CHECK (((char_length(source_referrer) <= 253) AND (source_referrer ~ '^[a-z0-9.-]+$'::text))),
  constraint entries_notification_skipped CHECK ((notification_skipped = ANY (ARRAY['off'::text, 'unverified'::text, 'hourly_limit'::text, 'daily_limit'::text])))
);
create index entries_form_created_id_idx ON public.entries (form_id, created_at, id);
create index entries_form_spam_created_idx ON public.entries (form_id, is_spam, created_at DESC, id DESC);
create index entries_search_text_trgm_idx ON public.entries USING gin (search_text extensions.gin_trgm_ops);
create index entries_user_spam_created_idx ON public.entries (user_id, is_spam, created_at DESC, id DESC);
-- Deleting an analytics site sets its entries' source_site_id to null.
create index entries_source_site_id_idx ON public.entries (source_site_id) WHERE (source_site_id IS NOT NULL);
create unique index entries_id_user_id_key ON public.entries (id, user_id);
alter table public.entries replica identity using index entries_id_user_id_key;
comment on table public.entries is
  'Form submissions; inserted only by the form endpoint with the service role.';
comment on column public.entries.search_text is
  'Name, e-mail, message and the custom fields'' values (bounded), lower-cased by a trigger: the inbox search target.';
comment on column public.entries.notification_skipped is
  'Why no notification was queued: off, unverified, hourly_limit or daily_limit; null otherwise.';
comment on column public.entries.source_site_id is
  'The owner''s analytics site whose tracker was on the page the post came from (its foreign key, ON DELETE SET NULL, is in 17-analytics.sql); null otherwise.';
comment on column public.entries.source_page is
  'The path of the page the form was on, as the tracker reported it; null without the tracker.';
comment on column public.entries.source_referrer is
  'The host that referred the visit to the site (as analytics keeps it); null for a direct visit or without the tracker.';
comment on column public.entries.field_order is
  'The keys of data in the order the visitor sent them (each once); null for entries stored before it was kept.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.set_entry_owner()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
revoke all on function public.set_entry_owner() from public, anon, authenticated, service_role;

create or replace function public.set_entry_search_text()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_fields text;
begin
  -- Each custom value (each item of a list) cut at 500 characters, 4000 characters in all.
  select left(string_agg(left(v.val, 500), ' ' order by e.n, v.i), 4000)
    into v_fields
    from jsonb_each(case when jsonb_typeof(new.data) = 'object' then new.data else '{}'::jsonb end)
           with ordinality as e(key, value, n)
    cross join lateral (
      select a.val, a.i
        from jsonb_array_elements_text(
               case when jsonb_typeof(e.value) = 'array' then e.value else '[]'::jsonb end
             ) with ordinality as a(val, i)
      union all
      select e.value #>> '{}', 0 where jsonb_typeof(e.value) <> 'array'
    ) v;
  -- concat_ws leaves out a missing part (no custom fields: no trailing space).
  new.search_text := lower(
    concat_ws(' ', coalesce(new.name, ''), coalesce(new.email, ''), coalesce(new.message, ''),
              v_fields)
  );
  return new;
end;
$function$;
revoke all on function public.set_entry_search_text() from public, anon, authenticated, service_role;

create or replace function private.entry_field_order(p_data jsonb, p_wanted text[])
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  with data as (
    select case when jsonb_typeof(p_data) = 'object' then p_data else '{}'::jsonb end as obj
  ), keys as (
    select w.k, w.n
      from data, unnest(coalesce(p_wanted, '{}'::text[])) with ordinality as w(k, n)
     where data.obj ? w.k
    union all
    select j.k, 1000000 + j.n
      from data, jsonb_object_keys(data.obj) with ordinality as j(k, n)
  )
  select coalesce(array_agg(k order by first_n), '{}'::text[])
    from (select k, min(n) as first_n from keys group by k) ordered;
$function$;
revoke all on function private.entry_field_order(p_data jsonb, p_wanted text[]) from public, anon, authenticated, service_role;

create or replace function private.set_entry_field_order()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- The order the visitor sent (accept_post() stores it), kept to the keys data has, each once.
  new.field_order := private.entry_field_order(new.data, new.field_order);
  return new;
end;
$function$;
revoke all on function private.set_entry_field_order() from public, anon, authenticated, service_role;

create or replace function public.form_message_counts()
 RETURNS TABLE(form_id uuid, total integer, unread integer, spam integer)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select e.form_id,
         (count(*) filter (where not e.is_spam))::integer,
         (count(*) filter (where not e.is_spam and e.read_at is null))::integer,
         (count(*) filter (where e.is_spam))::integer
    from public.entries e
   where e.user_id = (select auth.uid())
   group by e.form_id;
$function$;
revoke all on function public.form_message_counts() from public, anon, authenticated, service_role;
grant execute on function public.form_message_counts() to authenticated;
grant execute on function public.form_message_counts() to service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger entries_set_field_order BEFORE INSERT OR UPDATE OF data, field_order ON public.entries FOR EACH ROW EXECUTE FUNCTION private.set_entry_field_order();
create trigger entries_set_owner BEFORE INSERT OR UPDATE OF form_id, user_id ON public.entries FOR EACH ROW EXECUTE FUNCTION public.set_entry_owner();
create trigger entries_set_search_text BEFORE INSERT OR UPDATE ON public.entries FOR EACH ROW EXECUTE FUNCTION public.set_entry_search_text();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.entries enable row level security;
create policy "Entries are deletable by the form owner" on public.entries
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Entries are viewable by the form owner" on public.entries
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Entries are updatable by the form owner" on public.entries
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.entries from public, anon, authenticated, service_role;
grant select, delete on table public.entries to authenticated;
grant all on table public.entries to service_role;
grant update (is_spam, read_at) on table public.entries to authenticated;

-- ------------------------------------------------------------------------------------------------
-- Realtime
-- ------------------------------------------------------------------------------------------------
alter publication supabase_realtime add table public.entries;
