-- The signed-in dashboard: per-form settings the endpoint honours, an indexed inbox (keyset
-- pagination, search, spam view), message counts per form, live deletes for the owner, and
-- self-service account deletion.

-- ------------------------------------------------------------------------------------------------
-- Extensions
-- ------------------------------------------------------------------------------------------------
-- Trigram indexes make `ilike '%term%'` searches use an index (Supabase ships pg_trgm).
create extension if not exists pg_trgm with schema extensions;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------

-- Per-form settings: whether each accepted message is e-mailed to the target address, and the
-- page a browser is sent to after posting when the form itself names none (`_next`).
alter table public.forms
  add column notify_email boolean not null default true,
  add column redirect_url text,
  add constraint forms_redirect_url_format check (
    redirect_url is null
    or (char_length(redirect_url) <= 2000 and redirect_url ~ '^https?://[^\s/?#]+([/?#][^\s]*)?$')
  );

comment on column public.forms.notify_email is 'E-mail each accepted, non-spam message to target_email.';
comment on column public.forms.redirect_url is 'Thank-you page for browser posts without _next; null = the site''s /thanks.';

-- What the inbox search looks in, lower-cased once at write time so a trigram index serves it.
-- A plain column kept by a trigger rather than a generated column: logical replication leaves
-- generated columns out, and Realtime payloads then carry it, so the dashboard can tell whether a
-- live change belongs in a cached search result without another request.
alter table public.entries add column search_text text;

comment on column public.entries.search_text is
  'Name, e-mail and message, lower-cased by a trigger: the inbox search target.';

-- The inbox reads newest first per owner and view (inbox or spam), and pages by (created_at, id).
create index entries_user_spam_created_idx
  on public.entries (user_id, is_spam, created_at desc, id desc);
create index entries_form_spam_created_idx
  on public.entries (form_id, is_spam, created_at desc, id desc);
create index entries_search_text_trgm_idx
  on public.entries using gin (search_text extensions.gin_trgm_ops);
-- Superseded by the two indexes above.
drop index if exists public.entries_form_id_created_at_idx;

-- A delete carries only the key in the WAL; logging the owner with it lets Realtime match a DELETE
-- against the dashboard's owner filter (`user_id=eq.<uid>`), so another open tab sees it. An
-- identity index on (id, user_id) logs just those two columns (REPLICA IDENTITY FULL would log
-- whole rows). Realtime still sends only the primary key of a deleted row on tables with RLS.
create unique index forms_id_user_id_key on public.forms (id, user_id);
alter table public.forms replica identity using index forms_id_user_id_key;
create unique index entries_id_user_id_key on public.entries (id, user_id);
alter table public.entries replica identity using index entries_id_user_id_key;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
-- Recomputed on every write, whatever the writer sent (owners cannot write it anyway: their
-- UPDATE grant covers read_at and is_spam only).
create function public.set_entry_search_text()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.search_text := lower(
    coalesce(new.name, '') || ' ' || coalesce(new.email, '') || ' ' || coalesce(new.message, '')
  );
  return new;
end;
$$;

create trigger entries_set_search_text
  before insert or update on public.entries
  for each row execute function public.set_entry_search_text();

revoke execute on function public.set_entry_search_text() from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------

-- Message counts of each of the caller's forms. Runs as the caller, so RLS limits it to their own
-- entries; forms without messages are absent (the dashboard shows 0).
create function public.form_message_counts()
returns table (form_id uuid, total integer, unread integer, spam integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select e.form_id,
         (count(*) filter (where not e.is_spam))::integer,
         (count(*) filter (where not e.is_spam and e.read_at is null))::integer,
         (count(*) filter (where e.is_spam))::integer
    from public.entries e
   where e.user_id = (select auth.uid())
   group by e.form_id;
$$;

-- Deletes the caller's account and, through the foreign keys, every form, message and profile.
-- Security definer because only the database owner may delete from auth.users.
create function public.delete_own_account()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'Not signed in.' using errcode = '42501';
  end if;
  delete from auth.users where id = v_uid;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
grant insert (notify_email, redirect_url) on table public.forms to authenticated;
grant update (notify_email, redirect_url) on table public.forms to authenticated;

revoke execute on function public.form_message_counts() from public, anon;
grant execute on function public.form_message_counts() to authenticated, service_role;
revoke execute on function public.delete_own_account() from public, anon;
grant execute on function public.delete_own_account() to authenticated;
