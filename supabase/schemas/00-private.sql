-- Private schema and shared helpers
--
-- The `private` schema (internals the Data API does not expose), the extensions the schema uses,
-- the action ledger every cap on outward traffic counts in, and small helpers several capabilities
-- share (the fixed-window rate limiter of the endpoint and the newsletter, ring counters, address
-- and host keys, mail labels).
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Schema
-- ------------------------------------------------------------------------------------------------
create schema if not exists private;
comment on schema private is
  'Internals of tinyback: counters, ledgers and tokens. Not exposed by the Data API; only definer functions use it.';
revoke all on schema private from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Extensions
-- ------------------------------------------------------------------------------------------------
create extension if not exists pg_trgm with schema extensions version '1.6';

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table private.action_ledger (
  id bigint generated always as identity,
  kind text not null,
  user_id uuid not null,
  target text,
  form_id uuid,
  client text,
  created_at timestamp with time zone default now() not null,
  constraint action_ledger_pkey PRIMARY KEY (id),
  constraint action_ledger_client_length CHECK ((char_length(client) <= 200)),
  constraint action_ledger_kind CHECK ((kind = ANY (ARRAY['autoresponse'::text, 'target_confirmation'::text, 'webhook_manual_send'::text, 'webhook_attempt'::text, 'api_key_created'::text, 'booking_request'::text, 'booking'::text, 'booking_mail'::text, 'list_signup'::text, 'list_confirmation'::text, 'campaign_test'::text]))),
  constraint action_ledger_target_length CHECK ((char_length(target) <= 300))
);
create index action_ledger_created_idx ON private.action_ledger (created_at);
create index action_ledger_target_idx ON private.action_ledger (kind, target, created_at DESC) WHERE (target IS NOT NULL);
create index action_ledger_user_idx ON private.action_ledger (kind, user_id, created_at DESC);
comment on table private.action_ledger is
  'One row per capped action (what, account, target, form, visitor network, when); references nothing, purged by age only.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function private.take_fixed_window(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
begin
  -- A client's two windows are one row. One statement counts the request when both have room: it
  -- locks the row, and a racing request of the same client waits, then re-reads the row and
  -- decides on the count this one left. A window that has ended counts from 0.
  for attempt in 1 .. 2 loop
    if p_form_id is null then
      update private.newsletter_rate_limits r
         set minute_start = v_minute,
             minute_hits = case when r.minute_start = v_minute then r.minute_hits else 0 end + 1,
             day_start = v_day,
             day_hits = case when r.day_start = v_day then r.day_hits else 0 end + 1
       where r.ip_hash = p_ip_hash
         and case when r.minute_start = v_minute then r.minute_hits else 0 end < p_per_minute
         and case when r.day_start = v_day then r.day_hits else 0 end < p_per_day;
    else
      update private.submission_rate_limits r
         set minute_start = v_minute,
             minute_hits = case when r.minute_start = v_minute then r.minute_hits else 0 end + 1,
             day_start = v_day,
             day_hits = case when r.day_start = v_day then r.day_hits else 0 end + 1
       where r.form_id = p_form_id and r.ip_hash = p_ip_hash
         and case when r.minute_start = v_minute then r.minute_hits else 0 end < p_per_minute
         and case when r.day_start = v_day then r.day_hits else 0 end < p_per_day;
    end if;
    if found then
      return 0;
    end if;
    -- The client's first request: its row, counted. A racing first request makes the insert
    -- wait for that one's row, and the second round counts on it.
    exit when attempt = 2 or p_per_minute < 1 or p_per_day < 1;
    if p_form_id is null then
      insert into private.newsletter_rate_limits (ip_hash, minute_start, minute_hits, day_start, day_hits)
        values (p_ip_hash, v_minute, 1, v_day, 1)
        on conflict (ip_hash) do nothing;
    else
      insert into private.submission_rate_limits (form_id, ip_hash, minute_start, minute_hits, day_start, day_hits)
        values (p_form_id, p_ip_hash, v_minute, 1, v_day, 1)
        on conflict (form_id, ip_hash) do nothing;
    end if;
    if found then
      return 0;
    end if;
  end loop;

  -- Refused: the seconds until the fuller window ends.
  if p_form_id is null then
    select case when r.minute_start = v_minute then r.minute_hits else 0 end,
           case when r.day_start = v_day then r.day_hits else 0 end
      into v_minute_hits, v_day_hits
      from private.newsletter_rate_limits r where r.ip_hash = p_ip_hash;
  else
    select case when r.minute_start = v_minute then r.minute_hits else 0 end,
           case when r.day_start = v_day then r.day_hits else 0 end
      into v_minute_hits, v_day_hits
      from private.submission_rate_limits r where r.form_id = p_form_id and r.ip_hash = p_ip_hash;
  end if;
  if coalesce(v_day_hits, 0) >= p_per_day then
    return greatest(ceil(extract(epoch from (v_day + interval '1 day' - now())))::integer, 1);
  end if;
  return greatest(ceil(extract(epoch from (v_minute + interval '1 minute' - now())))::integer, 1);
end;
$function$;
revoke all on function private.take_fixed_window(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer) from public, anon, authenticated, service_role;
comment on function private.take_fixed_window(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer) is
  'Counts a client in its one-minute and one-day windows (per form, or for the newsletter when p_form_id is null); 0 when counted, else the seconds to wait.';

create or replace function private.address_key(p_address text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select encode(sha256(convert_to(lower(btrim(coalesce(p_address, ''))), 'UTF8')), 'hex');
$function$;
revoke all on function private.address_key(p_address text) from public, anon, authenticated, service_role;

create or replace function private.url_host(p_url text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select left(lower(substring(p_url from '^[A-Za-z][A-Za-z0-9+.-]*://(\[[^\]]*\]|[^/?#:]*)')), 300);
$function$;
revoke all on function private.url_host(p_url text) from public, anon, authenticated, service_role;

create or replace function private.whatwg_ipv4(p_host text)
 RETURNS inet
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_parts text[] := string_to_array(p_host, '.');
  v_n integer;
  v_numbers numeric[] := '{}';
  v_part text;
  v_digit text;
  v_value numeric;
  v_base integer;
  v_ip numeric := 0;
begin
  if p_host is null or p_host = '' or char_length(p_host) > 100 then
    return null;
  end if;
  if cardinality(v_parts) > 1 and v_parts[cardinality(v_parts)] = '' then
    v_parts := v_parts[1:cardinality(v_parts) - 1];
  end if;
  v_n := cardinality(v_parts);
  if v_n < 1 or v_n > 4 then
    return null;
  end if;
  foreach v_part in array v_parts loop
    v_part := lower(v_part);
    if v_part ~ '^0x[0-9a-f]*$' then
      v_base := 16;
      v_part := substr(v_part, 3);
    elsif v_part ~ '^0[0-9]+$' then
      -- Octal; an 8 or 9 makes it no address at all.
      if v_part ~ '[89]' then
        return null;
      end if;
      v_base := 8;
      v_part := substr(v_part, 2);
    elsif v_part ~ '^[0-9]+$' then
      v_base := 10;
    else
      return null;
    end if;
    v_value := 0;
    foreach v_digit in array regexp_split_to_array(v_part, '') loop
      continue when v_digit = '';
      v_value := v_value * v_base + ('x' || lpad(v_digit, 8, '0'))::bit(32)::integer;
      if v_value > 4294967295 then
        return null;
      end if;
    end loop;
    v_numbers := v_numbers || v_value;
  end loop;
  for i in 1 .. v_n - 1 loop
    if v_numbers[i] > 255 then
      return null;
    end if;
    v_ip := v_ip + v_numbers[i] * power(256::numeric, 4 - i);
  end loop;
  if v_numbers[v_n] >= power(256::numeric, 5 - v_n) then
    return null;
  end if;
  v_ip := v_ip + v_numbers[v_n];
  return format('%s.%s.%s.%s', (v_ip::bigint >> 24) & 255, (v_ip::bigint >> 16) & 255,
                (v_ip::bigint >> 8) & 255, v_ip::bigint & 255)::inet;
end;
$function$;
revoke all on function private.whatwg_ipv4(p_host text) from public, anon, authenticated, service_role;

create or replace function private.mail_label(p_value text, p_max integer)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select left(btrim(regexp_replace(
    regexp_replace(
      regexp_replace(
        coalesce(p_value, ''),
        '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]+', ' ', 'g'),
      -- scheme:anything, www.anything, and anything.tld (full-width and ideographic dots too)
      '([a-z][a-z0-9+.-]*:\S+|www[.。．｡]\S*|\S*[a-z0-9-][.。．｡][a-z]{2,}\S*)', ' ', 'gi'),
    '[@＠\s]+', ' ', 'g')), greatest(p_max, 0));
$function$;
revoke all on function private.mail_label(p_value text, p_max integer) from public, anon, authenticated, service_role;

create or replace function private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer)
 RETURNS integer[]
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_hits integer[] := p_hits;
begin
  -- A ring of p_size counts: slot (u % p_size) + 1 counts unit u, for the p_size units up to
  -- p_last (the latest counted). As of p_unit, the slots of the units after p_last are emptied.
  if p_last is null or coalesce(cardinality(v_hits), 0) <> p_size or p_unit - p_last >= p_size then
    return array_fill(0, array[p_size]);
  end if;
  for i in 1 .. greatest(p_unit - p_last, 0) loop
    v_hits[((p_last + i) % p_size)::integer + 1] := 0;
  end loop;
  return v_hits;
end;
$function$;
revoke all on function private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) from public, anon, authenticated, service_role;
comment on function private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) is
  'A ring counter as of p_unit: its p_size slots count the units up to p_last (slot u % p_size + 1 counts unit u); the slots of units after p_last are emptied.';

create or replace function private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(sum(h), 0)::integer from unnest(private.ring_now(p_hits, p_last, p_unit, p_size)) h;
$function$;
revoke all on function private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) from public, anon, authenticated, service_role;
comment on function private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) is
  'What a ring counter holds as of p_unit: the count of the last p_size units.';

create or replace function private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  hits := private.ring_now(p_hits, p_last, p_unit, p_size);
  last := greatest(coalesce(p_last, p_unit), p_unit);
  -- A unit before the ring's (a transaction that began earlier than the last one counted) is
  -- counted in its own slot while the ring still holds it.
  if p_unit > last - p_size then
    hits[(p_unit % p_size)::integer + 1] := hits[(p_unit % p_size)::integer + 1] + p_by;
  end if;
end;
$function$;
revoke all on function private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint) from public, anon, authenticated, service_role;
comment on function private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint) is
  'A ring counter with p_by more in unit p_unit, and its latest unit.';

create or replace function private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer)
 RETURNS bigint
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_hits integer[] := private.ring_now(p_hits, p_last, p_unit, p_size);
  v_top bigint := greatest(coalesce(p_last, p_unit), p_unit);
  v_unit bigint;
begin
  for k in reverse p_size - 1 .. 0 loop
    v_unit := v_top - k;
    if v_hits[(v_unit % p_size)::integer + 1] > 0 then
      return v_unit;
    end if;
  end loop;
  return null;
end;
$function$;
revoke all on function private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) from public, anon, authenticated, service_role;
comment on function private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) is
  'The oldest unit a ring counter holds a count in as of p_unit; null when it is empty.';

create or replace function private.ledger_count(p_kind text, p_since timestamp with time zone, p_cap integer, p_user uuid, p_target text DEFAULT NULL::text, p_form uuid DEFAULT NULL::uuid, p_client text DEFAULT NULL::text)
 RETURNS integer
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select count(*)::integer from (
    select 1 from private.action_ledger l
     where l.kind = p_kind and l.user_id = p_user and l.created_at > p_since
       and (p_target is null or l.target = p_target)
       and (p_form is null or l.form_id = p_form)
       and (p_client is null or l.client = p_client)
     limit greatest(p_cap, 0)
  ) n;
$function$;
revoke all on function private.ledger_count(p_kind text, p_since timestamp with time zone, p_cap integer, p_user uuid, p_target text, p_form uuid, p_client text) from public, anon, authenticated, service_role;

create or replace function private.ledger_count_target(p_kind text, p_since timestamp with time zone, p_cap integer, p_target text)
 RETURNS integer
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select count(*)::integer from (
    select 1 from private.action_ledger l
     where l.kind = p_kind and l.target = p_target and l.created_at > p_since
     limit greatest(p_cap, 0)
  ) n;
$function$;
revoke all on function private.ledger_count_target(p_kind text, p_since timestamp with time zone, p_cap integer, p_target text) from public, anon, authenticated, service_role;

create or replace function private.purge_action_ledger()
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_attempts integer;
  v_rest integer;
begin
  delete from private.action_ledger l
   where l.kind = 'webhook_attempt' and l.created_at < now() - interval '1 hour';
  get diagnostics v_attempts = row_count;
  delete from private.action_ledger l where l.created_at < now() - interval '2 days';
  get diagnostics v_rest = row_count;
  return v_attempts + v_rest;
end;
$function$;
revoke all on function private.purge_action_ledger() from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table private.action_ledger from public, anon, authenticated, service_role;
