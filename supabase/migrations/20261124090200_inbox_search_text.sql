-- Inbox search text: keep entries.search_text as a plain column maintained by a trigger instead of
-- a stored generated column.
--
-- Why: entries is in the supabase_realtime publication with replica identity full. Since
-- PostgreSQL 18, a table whose replica identity contains a generated column the publication does
-- not publish refuses every UPDATE and DELETE ("Replica identity must not contain unpublished
-- generated columns"), so owners could no longer mark, spam or delete messages, and deleting a
-- form or an account (cascading to its entries) failed. A plain column behaves the same on
-- PostgreSQL 15 to 18, and Realtime payloads carry it, which lets the dashboard place a live
-- message in a cached search result without another request.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
-- Keeps the stored values and the trigram index; only the generation expression goes.
alter table public.entries alter column search_text drop expression;

comment on column public.entries.search_text is
  'Name, e-mail and message, lower-cased by a trigger: the inbox search target.';

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
-- Recomputed on every write, whatever the writer sent, so the column always mirrors the message
-- (owners cannot write it anyway: their UPDATE grant covers read_at and is_spam only).
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
