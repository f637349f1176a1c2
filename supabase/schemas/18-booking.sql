-- Booking
--
-- An owner's booking forms (availability in their own time zone), the bookings visitors make on
-- the public page, and the links that let a visitor cancel or reschedule. Slots are computed here,
-- in UTC, from the weekly ranges and date overrides read in the owner's zone: each range becomes
-- the instants its local start and end name, and slots step through it in real minutes, so a day
-- of a daylight-saving change has the hours it really has. Two confirmed bookings of one owner
-- never overlap, whichever booking form they came from: an exclusion constraint over the time each
-- occupies, buffers included, refuses the second (23P01), so no order of concurrent requests can
-- double-book. Confirmations and cancellations go through the outbox, each with an iCalendar
-- invitation in UTC times; what a visitor typed reaches the visitor's own copy only as a clipped
-- name, and mail to any one address is capped in the action ledger (00-private.sql), which no
-- deletion resets.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- Scalar equality inside a GiST exclusion constraint (owner = owner and time && time).
create extension if not exists btree_gist with schema extensions;

-- ------------------------------------------------------------------------------------------------
-- Validation (booking_forms_prepare() runs these on every write)
-- ------------------------------------------------------------------------------------------------
create or replace function private.booking_time_zone_ok(p_zone text)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  -- Zone names only (Area/City, UTC): no abbreviations with offsets or POSIX strings.
  if p_zone is null or char_length(p_zone) > 64 or p_zone !~ '^[A-Za-z][A-Za-z_]*(/[A-Za-z0-9_+-]+){0,2}$' then
    return false;
  end if;
  perform timezone(p_zone, timestamptz '2000-01-01 00:00:00+00');
  return true;
exception when others then
  return false;
end;
$function$;
revoke all on function private.booking_time_zone_ok(p_zone text) from public, anon, authenticated, service_role;

create or replace function private.booking_ranges_ok(p_ranges jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_typeof(p_ranges) = 'array'
     and jsonb_array_length(p_ranges) <= 6
     and coalesce((
       select bool_and(
                jsonb_typeof(r) = 'array' and jsonb_array_length(r) = 2
                and jsonb_typeof(r -> 0) = 'number' and jsonb_typeof(r -> 1) = 'number'
                and (r ->> 0) ~ '^\d+$' and (r ->> 1) ~ '^\d+$'
                and (r ->> 0)::numeric < (r ->> 1)::numeric and (r ->> 1)::numeric <= 1440
                and (i = 1 or (r ->> 0)::numeric >= (p_ranges -> (i - 2)::integer ->> 1)::numeric))
         from jsonb_array_elements(p_ranges) with ordinality e(r, i)), true);
$function$;
revoke all on function private.booking_ranges_ok(p_ranges jsonb) from public, anon, authenticated, service_role;

create or replace function private.booking_weekly_ok(p_weekly jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  -- A value of the wrong shape may raise in a cast: it is not valid.
  return jsonb_typeof(p_weekly) = 'array'
     and jsonb_array_length(p_weekly) = 7
     and (select bool_and(private.booking_ranges_ok(d)) from jsonb_array_elements(p_weekly) d);
exception when others then
  return false;
end;
$function$;
revoke all on function private.booking_weekly_ok(p_weekly jsonb) from public, anon, authenticated, service_role;

create or replace function private.booking_overrides_ok(p_overrides jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  -- A date that does not exist (2026-02-30) makes to_date() raise: the value is not valid.
  return jsonb_typeof(p_overrides) = 'array'
     and jsonb_array_length(p_overrides) <= 200
     and coalesce((
       select bool_and(
                jsonb_typeof(o) = 'object'
                and (select count(*) from jsonb_object_keys(o)) = 2
                and (o ->> 'date') ~ '^\d{4}-\d{2}-\d{2}$'
                and to_char(to_date(o ->> 'date', 'YYYY-MM-DD'), 'YYYY-MM-DD') = (o ->> 'date')
                and o ? 'ranges' and private.booking_ranges_ok(o -> 'ranges'))
         from jsonb_array_elements(p_overrides) o), true)
     and (select count(distinct o ->> 'date') = count(*) from jsonb_array_elements(p_overrides) o);
exception when others then
  return false;
end;
$function$;
revoke all on function private.booking_overrides_ok(p_overrides jsonb) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.booking_forms (
  id uuid default gen_random_uuid() not null,
  user_id uuid default auth.uid() not null,
  slug text not null,
  name text not null,
  description text default ''::text not null,
  location text default ''::text not null,
  duration_minutes integer default 30 not null,
  time_zone text default 'UTC'::text not null,
  weekly jsonb default '[[[540, 1020]], [[540, 1020]], [[540, 1020]], [[540, 1020]], [[540, 1020]], [], []]'::jsonb not null,
  overrides jsonb default '[]'::jsonb not null,
  buffer_before_minutes integer default 0 not null,
  buffer_after_minutes integer default 0 not null,
  min_notice_minutes integer default 240 not null,
  max_days_ahead integer default 60 not null,
  daily_max integer,
  ask_note boolean default true not null,
  captcha_provider text,
  captcha_site_key text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint booking_forms_pkey PRIMARY KEY (id),
  constraint booking_forms_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint booking_forms_slug_key UNIQUE (slug),
  constraint booking_forms_slug CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$' and slug not in ('manage', 'new')),
  constraint booking_forms_name CHECK (char_length(name) >= 1 and char_length(name) <= 100 and btrim(name) <> ''),
  constraint booking_forms_description CHECK (char_length(description) <= 1000),
  constraint booking_forms_location CHECK (char_length(location) <= 300),
  constraint booking_forms_duration CHECK (duration_minutes between 5 and 480),
  constraint booking_forms_buffers CHECK (buffer_before_minutes >= 0 and buffer_before_minutes <= 240 and buffer_after_minutes >= 0 and buffer_after_minutes <= 240),
  constraint booking_forms_min_notice CHECK (min_notice_minutes between 0 and 43200),
  constraint booking_forms_max_days_ahead CHECK (max_days_ahead between 1 and 365),
  constraint booking_forms_daily_max CHECK (daily_max is null or daily_max between 1 and 100),
  constraint booking_forms_captcha_provider CHECK (captcha_provider = any (array['turnstile'::text, 'hcaptcha'::text, 'recaptcha'::text])),
  constraint booking_forms_captcha_complete CHECK ((captcha_provider is null) = (captcha_site_key is null))
);
create index booking_forms_user_id_idx ON public.booking_forms (user_id);
comment on table public.booking_forms is
  'An owner''s booking forms: what is booked, when (weekly ranges and date overrides, minutes of the day in time_zone) and the limits of the public page /book/<slug>.';
comment on column public.booking_forms.weekly is
  'Seven arrays, Monday first, of [start_minute, end_minute] ranges (0–1440, sorted, not overlapping) in time_zone.';
comment on column public.booking_forms.overrides is
  'Dates whose ranges replace the weekday''s: [{"date": "YYYY-MM-DD", "ranges": [[s, e], …]}]; no ranges is a day off.';

create table public.bookings (
  id uuid default gen_random_uuid() not null,
  booking_form_id uuid not null,
  user_id uuid not null,
  starts_at timestamp with time zone not null,
  ends_at timestamp with time zone not null,
  blocked tstzrange not null,
  name text not null,
  email text not null,
  note text default ''::text not null,
  visitor_time_zone text not null,
  status text default 'confirmed'::text not null,
  cancelled_at timestamp with time zone,
  cancelled_by text,
  cancel_reason text,
  sequence integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint bookings_pkey PRIMARY KEY (id),
  constraint bookings_booking_form_id_fkey FOREIGN KEY (booking_form_id) REFERENCES public.booking_forms(id) ON DELETE CASCADE,
  constraint bookings_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint bookings_times CHECK (starts_at < ends_at and blocked @> tstzrange(starts_at, ends_at, '[)')),
  constraint bookings_name CHECK (char_length(name) between 1 and 100),
  constraint bookings_email CHECK (char_length(email) <= 254),
  constraint bookings_note CHECK (char_length(note) <= 2000),
  constraint bookings_status CHECK (status = any (array['confirmed'::text, 'cancelled'::text])),
  constraint bookings_cancelled CHECK ((status = 'cancelled') = (cancelled_at is not null) and (status = 'cancelled') = (cancelled_by is not null)),
  constraint bookings_cancelled_by CHECK (cancelled_by = any (array['visitor'::text, 'owner'::text])),
  constraint bookings_cancel_reason CHECK (char_length(cancel_reason) <= 1000),
  -- The guarantee: one owner's confirmed bookings never overlap, buffers included. Half-open
  -- ranges let back-to-back bookings touch; a cancelled booking frees its time.
  constraint bookings_no_overlap EXCLUDE USING gist (user_id WITH =, blocked WITH &&) WHERE (status = 'confirmed'::text)
);
create index bookings_booking_form_starts_idx ON public.bookings (booking_form_id, starts_at);
create index bookings_user_starts_idx ON public.bookings (user_id, starts_at);
-- A deleted booking's change carries its owner, so Realtime's owner filter lets it through.
create unique index bookings_id_user_id_key ON public.bookings (id, user_id);
alter table public.bookings replica identity using index bookings_id_user_id_key;
comment on table public.bookings is
  'Bookings made on the public booking pages; blocked is the time a booking occupies, buffers included.';

create table private.booking_tokens (
  token_hash text not null,
  booking_id uuid not null,
  created_at timestamp with time zone default now() not null,
  used_at timestamp with time zone,
  constraint booking_tokens_pkey PRIMARY KEY (token_hash),
  constraint booking_tokens_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES public.bookings(id) ON DELETE CASCADE,
  constraint booking_tokens_hash_format CHECK (token_hash ~ '^[0-9a-f]{64}$')
);
create index booking_tokens_booking_id_idx ON private.booking_tokens (booking_id);
comment on table private.booking_tokens is
  'SHA-256 (hex) of the cancel-or-reschedule links mailed to visitors; each spent once (used_at).';

create table private.booking_slot_reads (
  booking_form_id uuid not null,
  minute timestamp with time zone not null,
  hits integer default 0 not null,
  constraint booking_slot_reads_pkey PRIMARY KEY (booking_form_id),
  constraint booking_slot_reads_form_fkey FOREIGN KEY (booking_form_id) REFERENCES public.booking_forms(id) ON DELETE CASCADE
);
comment on table private.booking_slot_reads is
  'Free-slot reads of each booking form in its current minute: booking_slots() is open to anyone, and each read computes up to 62 days.';

create table private.booking_captcha_secrets (
  booking_form_id uuid not null,
  secret text not null,
  updated_at timestamp with time zone default now() not null,
  constraint booking_captcha_secrets_pkey PRIMARY KEY (booking_form_id),
  constraint booking_captcha_secrets_form_fkey FOREIGN KEY (booking_form_id) REFERENCES public.booking_forms(id) ON DELETE CASCADE,
  constraint booking_captcha_secrets_secret CHECK (char_length(secret) <= 500 and secret ~ '^[!-~]+$')
);
comment on table private.booking_captcha_secrets is
  'CAPTCHA secret keys of booking forms: set through set_booking_captcha(), read by the booking function.';

create or replace function private.booking_forms_prepare()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- Checks a constraint cannot express (jsonb shapes, zone names), raised as check violations.
  -- A definer function: the writing owner has no access to the private schema.
  if not private.booking_time_zone_ok(new.time_zone) then
    raise exception 'Choose a time zone from the list.'
      using errcode = '23514', constraint = 'booking_forms_time_zone';
  end if;
  if not private.booking_weekly_ok(new.weekly) then
    raise exception 'Weekly hours are seven lists of ranges (start before end, within the day, in order, at most 6 a day).'
      using errcode = '23514', constraint = 'booking_forms_weekly';
  end if;
  if not private.booking_overrides_ok(new.overrides) then
    raise exception 'Date overrides need real, distinct dates and valid ranges (at most 200).'
      using errcode = '23514', constraint = 'booking_forms_overrides';
  end if;
  new.updated_at := now();
  new.name := btrim(new.name);
  return new;
end;
$function$;
revoke all on function private.booking_forms_prepare() from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Slots
-- ------------------------------------------------------------------------------------------------
create or replace function private.booking_free_slots(p_form public.booking_forms, p_from timestamp with time zone, p_to timestamp with time zone, p_except uuid DEFAULT NULL::uuid)
 RETURNS SETOF timestamp with time zone
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  with bounds as (
    select greatest(p_from, now() + make_interval(mins => p_form.min_notice_minutes)) as lo,
           least(p_to, now() + make_interval(days => p_form.max_days_ahead)) as hi,
           make_interval(mins => p_form.duration_minutes) as dur,
           make_interval(mins => p_form.buffer_before_minutes) as before,
           make_interval(mins => p_form.buffer_after_minutes) as after
  ),
  -- The owner's local dates the bounds touch (a day either side: a local day may start before
  -- the bound's UTC day does).
  days as (
    select d::date as day
      from bounds b,
           generate_series((b.lo at time zone p_form.time_zone)::date - 1,
                           (b.hi at time zone p_form.time_zone)::date + 1, interval '1 day') d
     where b.lo < b.hi
  ),
  ranges as (
    select y.day, (r ->> 0)::integer as s, (r ->> 1)::integer as e
      from days y,
           lateral (select coalesce(
                      (select o -> 'ranges' from jsonb_array_elements(p_form.overrides) o
                        where o ->> 'date' = y.day::text limit 1),
                      p_form.weekly -> (extract(isodow from y.day)::integer - 1)) as rs) x,
           lateral jsonb_array_elements(x.rs) r
  ),
  -- A range's local start and end as instants; slots step in real minutes between them.
  candidates as (
    select distinct g as starts_at, w.day
      from bounds b, ranges w,
           lateral generate_series(
             (w.day + make_interval(mins => w.s)) at time zone p_form.time_zone,
             ((w.day + make_interval(mins => w.e)) at time zone p_form.time_zone) - b.dur,
             b.dur) g
     where g >= b.lo and g < b.hi
  ),
  per_day as (
    select (k.starts_at at time zone p_form.time_zone)::date as day, count(*) as n
      from public.bookings k, bounds b
     where p_form.daily_max is not null
       and k.booking_form_id = p_form.id and k.status = 'confirmed'
       and k.starts_at >= b.lo - interval '2 days' and k.starts_at < b.hi + interval '2 days'
       and k.id is distinct from p_except
     group by 1
  )
  select c.starts_at
    from candidates c, bounds b
   where not exists (
           select 1 from public.bookings k
            where k.user_id = p_form.user_id and k.status = 'confirmed'
              and k.blocked && tstzrange(c.starts_at - b.before, c.starts_at + b.dur + b.after, '[)')
              and k.id is distinct from p_except)
     and (p_form.daily_max is null
          or coalesce((select p.n from per_day p where p.day = c.day), 0) < p_form.daily_max)
   order by c.starts_at;
$function$;
revoke all on function private.booking_free_slots(p_form public.booking_forms, p_from timestamp with time zone, p_to timestamp with time zone, p_except uuid) from public, anon, authenticated, service_role;

create or replace function public.booking_page(p_slug text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
           'id', f.id, 'slug', f.slug, 'name', f.name, 'description', f.description,
           'location', f.location, 'duration_minutes', f.duration_minutes,
           'time_zone', f.time_zone, 'ask_note', f.ask_note, 'max_days_ahead', f.max_days_ahead,
           'min_notice_minutes', f.min_notice_minutes, 'captcha_provider', f.captcha_provider,
           'captcha_site_key', f.captcha_site_key)
    from public.booking_forms f
   where f.slug = lower(btrim(p_slug));
$function$;
comment on function public.booking_page(p_slug text) is
  'What the public booking page shows of a booking form (nothing of its owner), or null.';
revoke all on function public.booking_page(p_slug text) from public, anon, authenticated, service_role;
grant execute on function public.booking_page(p_slug text) to anon, authenticated, service_role;

create or replace function public.booking_slots(p_slug text, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  -- Reads of one booking form a minute, from everyone together (a visit makes one to three).
  c_per_minute constant integer := 600;
  v_form public.booking_forms;
  v_minute timestamptz := date_trunc('minute', now());
  v_counted boolean;
begin
  if p_from is null or p_to is null or p_to <= p_from or p_to - p_from > interval '62 days' then
    raise exception 'Ask for at most 62 days of slots at a time.' using errcode = '22023';
  end if;
  select f.* into v_form from public.booking_forms f where f.slug = lower(btrim(p_slug));
  if not found then
    return null;
  end if;
  -- The minute's budget, counted and checked in one statement on the form's row.
  insert into private.booking_slot_reads as r (booking_form_id, minute, hits)
    values (v_form.id, v_minute, 1)
    on conflict (booking_form_id) do update
      set minute = v_minute,
          hits = case when r.minute = v_minute then r.hits else 0 end + 1
      where case when r.minute = v_minute then r.hits else 0 end < c_per_minute
    returning true into v_counted;
  if v_counted is null then
    raise exception 'This booking page is busy. Try again in a minute.'
      using errcode = 'PT429', hint = 'booking_slots_rate';
  end if;
  return jsonb_build_object(
    'duration_minutes', v_form.duration_minutes,
    'slots', coalesce((
      select jsonb_agg(to_char(s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') order by s)
        from private.booking_free_slots(v_form, p_from, p_to) s), '[]'::jsonb));
end;
$function$;
comment on function public.booking_slots(p_slug text, p_from timestamp with time zone, p_to timestamp with time zone) is
  'Free slot starts (UTC) of a booking form in [p_from, p_to), at most 62 days, at most 600 reads of a form a minute; null for an unknown slug.';
revoke all on function public.booking_slots(p_slug text, p_from timestamp with time zone, p_to timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.booking_slots(p_slug text, p_from timestamp with time zone, p_to timestamp with time zone) to anon, authenticated, service_role;

create or replace function private.booking_next_slots(p_form public.booking_forms, p_after timestamp with time zone, p_except uuid DEFAULT NULL::uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select coalesce(jsonb_agg(to_char(s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') order by s), '[]'::jsonb)
    from (select s from private.booking_free_slots(p_form, p_after, p_after + interval '14 days', p_except) s
           limit 6) n;
$function$;
revoke all on function private.booking_next_slots(p_form public.booking_forms, p_after timestamp with time zone, p_except uuid) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Invitations and mail
-- ------------------------------------------------------------------------------------------------
create or replace function private.ics_text(p_value text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  -- RFC 5545 TEXT: backslash, semicolon and comma escaped, line breaks as \n, other controls gone.
  select regexp_replace(
           replace(replace(replace(replace(replace(coalesce(p_value, ''), '\', '\\'), ';', '\;'), ',', '\,'),
                   E'\r\n', '\n'), E'\n', '\n'),
           '[\x01-\x1f\x7f]', '', 'g');
$function$;
revoke all on function private.ics_text(p_value text) from public, anon, authenticated, service_role;

create or replace function private.ics_param(p_value text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  -- A quoted parameter value: no double quotes, controls, or line breaks can appear in one.
  select '"' || regexp_replace(coalesce(p_value, ''), '[\x01-\x1f\x7f"]', '', 'g') || '"';
$function$;
revoke all on function private.ics_param(p_value text) from public, anon, authenticated, service_role;

create or replace function private.ics_fold(p_line text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_out text := '';
  v_part text := '';
  v_limit integer := 75;
  c text;
begin
  -- Lines of at most 75 octets, continued after CRLF + space, never inside a UTF-8 sequence.
  foreach c in array regexp_split_to_array(p_line, '') loop
    if octet_length(v_part) + octet_length(c) > v_limit then
      v_out := v_out || v_part || E'\r\n ';
      v_part := '';
      v_limit := 74;
    end if;
    v_part := v_part || c;
  end loop;
  return v_out || v_part;
end;
$function$;
revoke all on function private.ics_fold(p_line text) from public, anon, authenticated, service_role;

create or replace function private.booking_ics(p_booking public.bookings, p_form public.booking_forms, p_method text, p_organizer_name text, p_organizer_email text, p_description text)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select string_agg(private.ics_fold(l), E'\r\n' order by n) || E'\r\n'
    from unnest(array[
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//tinyback.tools//Booking//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:' || p_method,
      'BEGIN:VEVENT',
      'UID:' || p_booking.id::text || '@tinyback.tools',
      'DTSTAMP:' || to_char(now() at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"'),
      'SEQUENCE:' || p_booking.sequence::text,
      'DTSTART:' || to_char(p_booking.starts_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"'),
      'DTEND:' || to_char(p_booking.ends_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"'),
      'SUMMARY:' || private.ics_text(p_form.name),
      'LOCATION:' || private.ics_text(p_form.location),
      'DESCRIPTION:' || private.ics_text(p_description),
      'ORGANIZER;CN=' || private.ics_param(p_organizer_name) || ':mailto:' || p_organizer_email,
      'ATTENDEE;CN=' || private.ics_param(private.mail_label(p_booking.name, 40))
        || ';ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:' || p_booking.email,
      'STATUS:' || case when p_method = 'CANCEL' then 'CANCELLED' else 'CONFIRMED' end,
      'END:VEVENT',
      'END:VCALENDAR']) with ordinality t(l, n);
$function$;
revoke all on function private.booking_ics(p_booking public.bookings, p_form public.booking_forms, p_method text, p_organizer_name text, p_organizer_email text, p_description text) from public, anon, authenticated, service_role;

create or replace function private.booking_when(p_booking public.bookings, p_zone text)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  -- "Tue 1 Dec 2026, 09:00–09:30 (Europe/Berlin)": both ends read in the zone.
  select to_char(p_booking.starts_at at time zone p_zone, 'Dy FMDD Mon YYYY, HH24:MI') || '–'
      || to_char(p_booking.ends_at at time zone p_zone, 'HH24:MI') || ' (' || p_zone || ')';
$function$;
revoke all on function private.booking_when(p_booking public.bookings, p_zone text) from public, anon, authenticated, service_role;

create or replace function private.booking_html(p_text text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><div>'
      || replace(public.confirmation_mail_escape(p_text), E'\n', '<br>')
      || '</div></body></html>';
$function$;
revoke all on function private.booking_html(p_text text) from public, anon, authenticated, service_role;

create or replace function private.booking_queue_mails(p_booking public.bookings, p_method text, p_link text, p_owner_message text, p_per_recipient_day integer)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_form public.booking_forms;
  v_owner_email text;
  v_owner_name text;
  v_visitor_name text := coalesce(nullif(private.mail_label(p_booking.name, 40), ''), 'there');
  v_form_label text;
  v_target text := private.address_key(p_booking.email);
  v_cancel boolean := p_method = 'CANCEL';
  v_text text;
  v_subject text;
  v_mailed boolean := false;
begin
  select f.* into v_form from public.booking_forms f where f.id = p_booking.booking_form_id;
  select u.email, coalesce(nullif(btrim(p.name), ''), u.email) into v_owner_email, v_owner_name
    from auth.users u left join public.profiles p on p.id = u.id where u.id = p_booking.user_id;
  v_form_label := left(btrim(regexp_replace(v_form.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), 100);

  -- The visitor's copy: the owner's words and a clipped name only (anyone can type any address
  -- into a public page), and at most p_per_recipient_day of them a day to one address.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.booking-to:' || v_target, 0));
  if private.ledger_count_target('booking_mail', now() - interval '1 day', p_per_recipient_day, v_target)
       < p_per_recipient_day then
    v_subject := case when v_cancel then 'Cancelled: ' else 'Booked: ' end || v_form_label;
    v_text := 'Hello ' || v_visitor_name || ',' || E'\n\n'
      || case when v_cancel then 'this booking is cancelled:' else 'your booking is confirmed:' end || E'\n\n'
      || v_form_label || E'\n'
      || private.booking_when(p_booking, p_booking.visitor_time_zone) || E'\n'
      || case when p_booking.visitor_time_zone <> v_form.time_zone
              then private.booking_when(p_booking, v_form.time_zone) || E'\n' else '' end
      || case when v_form.location <> '' then 'Where: ' || v_form.location || E'\n' else '' end
      || case when v_cancel and coalesce(p_owner_message, '') <> ''
              then E'\nMessage from ' || v_owner_name || E':\n' || p_owner_message || E'\n' else '' end
      || case when p_link is not null
              then E'\nTo cancel or reschedule: ' || p_link || E'\n' else '' end
      || E'\n--\nYou receive this because this address was entered on the booking page "'
      || v_form_label || '" on tinyback.tools. If you did not book this, '
      || case when p_link is not null then 'cancel it with the link above.' else 'ignore this message.' end;
    insert into private.action_ledger (kind, user_id, target)
      values ('booking_mail', p_booking.user_id, v_target);
    insert into public.email_deliveries
        (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name, calendar, calendar_method)
      values (case when v_cancel then 'booking_cancellation' else 'booking_confirmation' end,
              p_booking.user_id, p_booking.email, v_subject, null, v_text, private.booking_html(v_text),
              private.autoresponse_from_name(v_form.name),
              private.booking_ics(p_booking, v_form, p_method, v_owner_name, v_owner_email, v_form.description),
              p_method);
    v_mailed := true;
  end if;

  -- The owner's copy, with everything the visitor wrote.
  if v_owner_email is not null then
    v_subject := case when v_cancel then 'Booking cancelled: ' else 'New booking: ' end
      || left(private.mail_label(p_booking.name, 40), 40) || ' – ' || v_form_label;
    v_text := case when v_cancel
                   then 'A booking was cancelled by ' || case when p_booking.cancelled_by = 'owner' then 'you' else 'the visitor' end || '.'
                   else 'You have a new booking.' end || E'\n\n'
      || v_form_label || E'\n'
      || private.booking_when(p_booking, v_form.time_zone) || E'\n'
      || 'Name: ' || p_booking.name || E'\n'
      || 'E-mail: ' || p_booking.email || E'\n'
      || 'Visitor''s time zone: ' || p_booking.visitor_time_zone || E'\n'
      || case when p_booking.note <> '' then E'Note:\n' || p_booking.note || E'\n' else '' end
      || case when v_cancel and coalesce(p_booking.cancel_reason, '') <> ''
              then E'Reason:\n' || p_booking.cancel_reason || E'\n' else '' end;
    insert into public.email_deliveries
        (kind, user_id, recipient, subject, reply_to, text_body, html_body, calendar, calendar_method)
      values (case when v_cancel then 'booking_cancellation' else 'booking_notice' end,
              p_booking.user_id, v_owner_email,
              left(regexp_replace(v_subject, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g'), 200),
              case when public.autoresponse_address_ok(p_booking.email) then p_booking.email end,
              v_text, private.booking_html(v_text),
              private.booking_ics(p_booking, v_form, p_method, v_owner_name, v_owner_email,
                                  case when p_booking.note <> '' then p_booking.name || ': ' || p_booking.note else '' end),
              p_method);
  end if;
  return v_mailed;
end;
$function$;
revoke all on function private.booking_queue_mails(p_booking public.bookings, p_method text, p_link text, p_owner_message text, p_per_recipient_day integer) from public, anon, authenticated, service_role;

create or replace function private.booking_new_token(p_booking_id uuid)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_token text := rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=');
begin
  insert into private.booking_tokens (token_hash, booking_id)
    values (encode(sha256(convert_to(v_token, 'UTF8')), 'hex'), p_booking_id);
  return v_token;
end;
$function$;
revoke all on function private.booking_new_token(p_booking_id uuid) from public, anon, authenticated, service_role;

create or replace function private.booking_answer(p_booking public.bookings)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
           'id', p_booking.id, 'slug', f.slug, 'booking_form_name', f.name, 'location', f.location,
           'duration_minutes', f.duration_minutes, 'time_zone', f.time_zone,
           'visitor_time_zone', p_booking.visitor_time_zone,
           'starts_at', to_char(p_booking.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           'ends_at', to_char(p_booking.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           'name', p_booking.name, 'status', p_booking.status)
    from public.booking_forms f where f.id = p_booking.booking_form_id;
$function$;
revoke all on function private.booking_answer(p_booking public.bookings) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Booking, cancelling, rescheduling
-- ------------------------------------------------------------------------------------------------
create or replace function public.booking_take_attempt(p_slug text, p_client text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
  v_client text := left(coalesce(p_client, ''), 200);
  v_per_minute integer := coalesce((p_caps ->> 'per_client_minute')::integer, 5);
  v_per_day integer := coalesce((p_caps ->> 'per_client_day')::integer, 20);
begin
  -- Counted before anything else is done for the request (a CAPTCHA check, a booking), whatever
  -- its outcome: a client that keeps failing keeps spending its allowance.
  select f.user_id into v_owner from public.booking_forms f where f.slug = lower(btrim(coalesce(p_slug, '')));
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.booking-client:' || v_owner::text || ':' || v_client, 0));
  if private.ledger_count('booking_request', now() - interval '1 minute', v_per_minute,
                          v_owner, null, null, v_client) >= v_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 60);
  end if;
  if private.ledger_count('booking_request', now() - interval '1 day', v_per_day,
                          v_owner, null, null, v_client) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  insert into private.action_ledger (kind, user_id, client) values ('booking_request', v_owner, v_client);
  return jsonb_build_object('status', 'ok');
end;
$function$;
comment on function public.booking_take_attempt(p_slug text, p_client text, p_caps jsonb) is
  'Counts one request of a client (a salted hash) to a booking form''s owner, or refuses it past the minute''s or the day''s cap; the booking function calls it first.';
revoke all on function public.booking_take_attempt(p_slug text, p_client text, p_caps jsonb) from public, anon, authenticated, service_role;
grant execute on function public.booking_take_attempt(p_slug text, p_client text, p_caps jsonb) to service_role;

create or replace function public.booking_request(p_slug text, p_start timestamp with time zone, p_name text, p_email text, p_note text, p_visitor_time_zone text, p_client text, p_link_prefix text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_form public.booking_forms;
  v_name text := btrim(regexp_replace(coalesce(p_name, ''), '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g'));
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_note text := btrim(coalesce(p_note, ''));
  v_per_account_day integer := coalesce((p_caps ->> 'per_account_day')::integer, 200);
  v_per_recipient_day integer := coalesce((p_caps ->> 'per_recipient_day')::integer, 3);
  v_client text := left(coalesce(p_client, ''), 200);
  v_booking public.bookings;
  v_token text;
  v_mailed boolean;
begin
  if char_length(v_name) < 1 or char_length(v_name) > 100 then
    return jsonb_build_object('status', 'invalid', 'field', 'name', 'message', 'Enter your name (at most 100 characters).');
  end if;
  if not public.autoresponse_address_ok(v_email) then
    return jsonb_build_object('status', 'invalid', 'field', 'email', 'message', 'Enter a valid e-mail address.');
  end if;
  if char_length(v_note) > 2000 then
    return jsonb_build_object('status', 'invalid', 'field', 'note', 'message', 'Keep the note under 2000 characters.');
  end if;
  if not private.booking_time_zone_ok(p_visitor_time_zone) then
    return jsonb_build_object('status', 'invalid', 'field', 'time_zone', 'message', 'Choose a time zone from the list.');
  end if;
  if p_start is null then
    return jsonb_build_object('status', 'invalid', 'field', 'start', 'message', 'Choose a time.');
  end if;
  if p_link_prefix is null or p_link_prefix !~ '^https?://[^\s"<>]+$' then
    raise exception 'booking_request needs the link prefix of the manage page' using errcode = '22023';
  end if;

  select f.* into v_form from public.booking_forms f where f.slug = lower(btrim(coalesce(p_slug, '')));
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if not v_form.ask_note then
    v_note := '';
  end if;

  -- One decision at a time per owner: the account's cap, the free-slot check and the daily maximum
  -- see every booking committed before. The exclusion constraint stays the guarantee against
  -- overlaps. (The client's own limits were taken before, by booking_take_attempt().)
  perform pg_advisory_xact_lock(hashtextextended('tinyback.booking:' || v_form.user_id::text, 0));
  if private.ledger_count('booking', now() - interval '1 day', v_per_account_day, v_form.user_id)
       >= v_per_account_day then
    return jsonb_build_object('status', 'account_limit', 'retry_after', 3600);
  end if;

  if not exists (select 1 from private.booking_free_slots(v_form, p_start, p_start + interval '1 second') s
                  where s = p_start) then
    return jsonb_build_object('status', 'slot_taken', 'next', private.booking_next_slots(v_form, p_start));
  end if;

  begin
    insert into public.bookings
        (booking_form_id, user_id, starts_at, ends_at, blocked, name, email, note, visitor_time_zone)
      values (v_form.id, v_form.user_id, p_start, p_start + make_interval(mins => v_form.duration_minutes),
              tstzrange(p_start - make_interval(mins => v_form.buffer_before_minutes),
                        p_start + make_interval(mins => v_form.duration_minutes + v_form.buffer_after_minutes), '[)'),
              v_name, v_email, v_note, p_visitor_time_zone)
      returning * into v_booking;
  exception when exclusion_violation then
    return jsonb_build_object('status', 'slot_taken', 'next', private.booking_next_slots(v_form, p_start));
  end;
  insert into private.action_ledger (kind, user_id, form_id, client)
    values ('booking', v_form.user_id, null, v_client);

  v_token := private.booking_new_token(v_booking.id);
  v_mailed := private.booking_queue_mails(v_booking, 'REQUEST', p_link_prefix || v_token, null, v_per_recipient_day);
  return jsonb_build_object('status', 'booked', 'booking', private.booking_answer(v_booking),
                            'visitor_mailed', v_mailed);
end;
$function$;
revoke all on function public.booking_request(p_slug text, p_start timestamp with time zone, p_name text, p_email text, p_note text, p_visitor_time_zone text, p_client text, p_link_prefix text, p_caps jsonb) from public, anon, authenticated, service_role;
grant execute on function public.booking_request(p_slug text, p_start timestamp with time zone, p_name text, p_email text, p_note text, p_visitor_time_zone text, p_client text, p_link_prefix text, p_caps jsonb) to service_role;

create or replace function private.booking_by_token(p_token text)
 RETURNS uuid
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select t.booking_id from private.booking_tokens t
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
     and t.used_at is null
     and char_length(coalesce(p_token, '')) between 20 and 100;
$function$;
revoke all on function private.booking_by_token(p_token text) from public, anon, authenticated, service_role;

create or replace function private.booking_spend_token(p_token text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  update private.booking_tokens t set used_at = now()
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex');
$function$;
revoke all on function private.booking_spend_token(p_token text) from public, anon, authenticated, service_role;

create or replace function public.booking_manage(p_token text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select private.booking_answer(b) from public.bookings b where b.id = private.booking_by_token(p_token);
$function$;
revoke all on function public.booking_manage(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.booking_manage(p_token text) to service_role;

create or replace function public.booking_cancel_by_token(p_token text, p_reason text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_booking public.bookings;
  v_id uuid := private.booking_by_token(p_token);
begin
  if v_id is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  select b.* into v_booking from public.bookings b where b.id = v_id for update;
  if v_booking.status = 'cancelled' then
    return jsonb_build_object('status', 'already_cancelled');
  end if;
  if v_booking.starts_at <= now() then
    return jsonb_build_object('status', 'past');
  end if;
  perform private.booking_spend_token(p_token);
  update public.bookings b
     set status = 'cancelled', cancelled_at = now(), cancelled_by = 'visitor',
         cancel_reason = nullif(left(btrim(coalesce(p_reason, '')), 1000), ''),
         sequence = b.sequence + 1, updated_at = now()
   where b.id = v_id
  returning * into v_booking;
  perform private.booking_queue_mails(v_booking, 'CANCEL', null, null, 3);
  return jsonb_build_object('status', 'cancelled', 'booking', private.booking_answer(v_booking));
end;
$function$;
revoke all on function public.booking_cancel_by_token(p_token text, p_reason text) from public, anon, authenticated, service_role;
grant execute on function public.booking_cancel_by_token(p_token text, p_reason text) to service_role;

create or replace function public.booking_reschedule_by_token(p_token text, p_start timestamp with time zone, p_link_prefix text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_booking public.bookings;
  v_form public.booking_forms;
  v_id uuid := private.booking_by_token(p_token);
  v_token text;
begin
  if p_link_prefix is null or p_link_prefix !~ '^https?://[^\s"<>]+$' then
    raise exception 'booking_reschedule_by_token needs the link prefix of the manage page' using errcode = '22023';
  end if;
  if v_id is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  if p_start is null then
    return jsonb_build_object('status', 'invalid', 'field', 'start', 'message', 'Choose a time.');
  end if;
  select b.* into v_booking from public.bookings b where b.id = v_id;
  select f.* into v_form from public.booking_forms f where f.id = v_booking.booking_form_id;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.booking:' || v_booking.user_id::text, 0));
  select b.* into v_booking from public.bookings b where b.id = v_id for update;
  if v_booking.status = 'cancelled' then
    return jsonb_build_object('status', 'already_cancelled');
  end if;
  if v_booking.starts_at <= now() then
    return jsonb_build_object('status', 'past');
  end if;
  if not exists (select 1 from private.booking_free_slots(v_form, p_start, p_start + interval '1 second', v_id) s
                  where s = p_start) then
    return jsonb_build_object('status', 'slot_taken', 'next', private.booking_next_slots(v_form, p_start, v_id));
  end if;
  begin
    update public.bookings b
       set starts_at = p_start,
           ends_at = p_start + make_interval(mins => v_form.duration_minutes),
           blocked = tstzrange(p_start - make_interval(mins => v_form.buffer_before_minutes),
                               p_start + make_interval(mins => v_form.duration_minutes + v_form.buffer_after_minutes), '[)'),
           sequence = b.sequence + 1, updated_at = now()
     where b.id = v_id
    returning * into v_booking;
  exception when exclusion_violation then
    return jsonb_build_object('status', 'slot_taken', 'next', private.booking_next_slots(v_form, p_start, v_id));
  end;
  perform private.booking_spend_token(p_token);
  v_token := private.booking_new_token(v_id);
  perform private.booking_queue_mails(v_booking, 'REQUEST', p_link_prefix || v_token, null, 3);
  return jsonb_build_object('status', 'rescheduled', 'booking', private.booking_answer(v_booking));
end;
$function$;
revoke all on function public.booking_reschedule_by_token(p_token text, p_start timestamp with time zone, p_link_prefix text) from public, anon, authenticated, service_role;
grant execute on function public.booking_reschedule_by_token(p_token text, p_start timestamp with time zone, p_link_prefix text) to service_role;

create or replace function public.booking_owner_cancel(p_booking_id uuid, p_message text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_booking public.bookings;
  v_message text := left(btrim(coalesce(p_message, '')), 1000);
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to cancel a booking.' using errcode = '42501';
  end if;
  select b.* into v_booking from public.bookings b
   where b.id = p_booking_id and b.user_id = (select auth.uid())
     for update;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if v_booking.status = 'cancelled' then
    return jsonb_build_object('status', 'already_cancelled');
  end if;
  update public.bookings b
     set status = 'cancelled', cancelled_at = now(), cancelled_by = 'owner',
         cancel_reason = nullif(v_message, ''), sequence = b.sequence + 1, updated_at = now()
   where b.id = p_booking_id
  returning * into v_booking;
  update private.booking_tokens t set used_at = now() where t.booking_id = p_booking_id and t.used_at is null;
  -- Past bookings are only marked: nobody needs an invitation withdrawn after the fact.
  if v_booking.starts_at > now() then
    perform private.booking_queue_mails(v_booking, 'CANCEL', null, nullif(v_message, ''), 3);
  end if;
  return jsonb_build_object('status', 'cancelled');
end;
$function$;
revoke all on function public.booking_owner_cancel(p_booking_id uuid, p_message text) from public, anon, authenticated, service_role;
grant execute on function public.booking_owner_cancel(p_booking_id uuid, p_message text) to authenticated;

-- ------------------------------------------------------------------------------------------------
-- Sweep (run by sweep_retention(), 11-retention.sql)
-- ------------------------------------------------------------------------------------------------
create or replace function private.booking_sweep(p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_tokens integer;
  v_mails integer;
begin
  -- Links that can no longer act: spent ones, and those of bookings begun or cancelled.
  with doomed as (
    select t.token_hash
      from private.booking_tokens t
      join public.bookings b on b.id = t.booking_id
     where t.used_at is not null or b.starts_at <= now() or b.status = 'cancelled'
     limit greatest(p_limit, 0)
  )
  delete from private.booking_tokens t using doomed where t.token_hash = doomed.token_hash;
  get diagnostics v_tokens = row_count;
  -- Copies of booking mail (they name the visitor) go 30 days after they were queued, as replies do.
  delete from public.email_deliveries d
   where d.kind in ('booking_confirmation', 'booking_notice', 'booking_cancellation')
     and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  get diagnostics v_mails = row_count;
  return jsonb_build_object('tokens', v_tokens, 'mails', v_mails);
end;
$function$;
revoke all on function private.booking_sweep(p_limit integer) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- CAPTCHA
-- ------------------------------------------------------------------------------------------------
create or replace function public.set_booking_captcha(p_booking_form_id uuid, p_provider text, p_site_key text, p_secret text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_current text;
  v_site_key text := btrim(coalesce(p_site_key, ''));
  -- The secret to store (null: keep the stored one).
  v_secret text;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change a booking form''s CAPTCHA.' using errcode = '42501';
  end if;
  select f.captcha_provider into v_current from public.booking_forms f
   where f.id = p_booking_form_id and f.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This booking form no longer exists.' using errcode = 'PT404';
  end if;
  if p_provider is null then
    update public.booking_forms f set captcha_provider = null, captcha_site_key = null
     where f.id = p_booking_form_id;
    delete from private.booking_captcha_secrets s where s.booking_form_id = p_booking_form_id;
    return jsonb_build_object('captcha_provider', null, 'captcha_site_key', null);
  end if;
  v_secret := private.captcha_keys(p_provider, v_site_key, p_secret, v_current,
    exists (select 1 from private.booking_captcha_secrets s where s.booking_form_id = p_booking_form_id));
  if v_secret is not null then
    insert into private.booking_captcha_secrets (booking_form_id, secret) values (p_booking_form_id, v_secret)
      on conflict (booking_form_id) do update set secret = excluded.secret, updated_at = now();
  end if;
  update public.booking_forms f set captcha_provider = p_provider, captcha_site_key = v_site_key
   where f.id = p_booking_form_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$function$;
revoke all on function public.set_booking_captcha(p_booking_form_id uuid, p_provider text, p_site_key text, p_secret text) from public, anon, authenticated, service_role;
grant execute on function public.set_booking_captcha(p_booking_form_id uuid, p_provider text, p_site_key text, p_secret text) to authenticated;

create or replace function public.booking_captcha_secret(p_booking_form_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select s.secret from private.booking_captcha_secrets s where s.booking_form_id = p_booking_form_id;
$function$;
revoke all on function public.booking_captcha_secret(p_booking_form_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.booking_captcha_secret(p_booking_form_id uuid) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger booking_forms_prepare BEFORE INSERT OR UPDATE ON public.booking_forms FOR EACH ROW EXECUTE FUNCTION private.booking_forms_prepare();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.booking_forms enable row level security;
create policy "Booking forms are viewable by their owner" on public.booking_forms
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Booking forms can be created by users for themselves" on public.booking_forms
  for insert to authenticated
  with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Booking forms are updatable by their owner" on public.booking_forms
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Booking forms are deletable by their owner" on public.booking_forms
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

alter table public.bookings enable row level security;
create policy "Bookings are viewable by their owner" on public.bookings
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

alter table private.booking_tokens enable row level security;
alter table private.booking_captcha_secrets enable row level security;
alter table private.booking_slot_reads enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.booking_forms from public, anon, authenticated, service_role;
grant select, delete on table public.booking_forms to authenticated;
grant all on table public.booking_forms to service_role;
grant insert (user_id, slug, name, description, location, duration_minutes, time_zone, weekly, overrides, buffer_before_minutes, buffer_after_minutes, min_notice_minutes, max_days_ahead, daily_max, ask_note) on table public.booking_forms to authenticated;
grant update (slug, name, description, location, duration_minutes, time_zone, weekly, overrides, buffer_before_minutes, buffer_after_minutes, min_notice_minutes, max_days_ahead, daily_max, ask_note) on table public.booking_forms to authenticated;
revoke all on table public.bookings from public, anon, authenticated, service_role;
grant select on table public.bookings to authenticated;
grant all on table public.bookings to service_role;
revoke all on table private.booking_tokens from public, anon, authenticated, service_role;
revoke all on table private.booking_captcha_secrets from public, anon, authenticated, service_role;
revoke all on table private.booking_slot_reads from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Realtime
-- ------------------------------------------------------------------------------------------------
alter publication supabase_realtime add table public.bookings;
