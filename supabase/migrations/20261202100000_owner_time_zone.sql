-- The owner's time zone, so that a notification states when a message arrived in the owner's own
-- local time (it used to say UTC only).
--
-- - `profiles.time_zone`: an IANA zone name (`Europe/Berlin`), or null (the mails then say UTC).
--   The signed-in dashboard records the browser's zone (Intl.DateTimeFormat) when it differs from
--   the stored one. Only the owner writes it (RLS on profiles, a column grant), and only a zone
--   Postgres knows (pg_timezone_names) behind a strict pattern, so the column never holds text
--   that the endpoint would put into a mail as it is.
-- - `form_owner_time_zone()`: the zone of a form's owner, for the `forms` function (service role),
--   which reads it beside the form and remembers it as long as the form (a minute at most).

alter table public.profiles
  add column time_zone text,
  add constraint profiles_time_zone_format check (
    time_zone is null
    or (char_length(time_zone) <= 64
        and time_zone ~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$')
  );

comment on column public.profiles.time_zone is
  'IANA time zone of the owner (as the dashboard''s browser reports it); null: UTC. Notifications state times in it.';

-- A zone name of the right shape that Postgres does not know (a typo, a zone of a newer tz
-- database) is refused rather than stored: the endpoint would fall back to UTC for it anyway.
create function private.check_time_zone()
returns trigger
language plpgsql
set search_path = ''
as $$
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
$$;

revoke execute on function private.check_time_zone() from public, anon, authenticated, service_role;

create trigger profiles_time_zone_known
  before insert or update of time_zone on public.profiles
  for each row execute function private.check_time_zone();

grant update (time_zone) on table public.profiles to authenticated;

-- The zone of the form's owner, or null (no zone recorded, or no such form).
create function public.form_owner_time_zone(p_form_id uuid)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select p.time_zone
    from public.forms f
    join public.profiles p on p.id = f.user_id
   where f.id = p_form_id;
$$;

revoke execute on function public.form_owner_time_zone(uuid) from public, anon, authenticated;
grant execute on function public.form_owner_time_zone(uuid) to service_role;
