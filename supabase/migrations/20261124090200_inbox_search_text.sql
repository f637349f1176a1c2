-- Inbox search text: keep entries.search_text as a plain column maintained by a trigger instead of
-- a stored generated column.
--
-- Why: the dashboard places live changes of entries in cached search results by the Realtime
-- payload's search_text. Logical replication (pgoutput) never sends generated columns before
-- PostgreSQL 18, and on 18 only when the publication asks for them; a plain column is always
-- sent. Because the trigger rewrites it on every update, it is sent even when the message itself
-- is large and unchanged (an unchanged TOASTed value is left out of an UPDATE's payload). It also
-- keeps entries clear of PostgreSQL 18's refusal to update or delete rows of a published table
-- whose REPLICA IDENTITY FULL contains an unpublished generated column.

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
