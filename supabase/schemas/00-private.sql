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
  constraint action_ledger_kind CHECK ((kind = ANY (ARRAY['autoresponse'::text, 'target_confirmation'::text, 'webhook_manual_send'::text, 'webhook_attempt'::text, 'api_key_created'::text]))),
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
  v_counters text := case when p_form_id is null then 'private.newsletter_rate_limits'
                          else 'private.submission_rate_limits' end;
  v_key text := case when p_form_id is null then 'ip_hash' else 'form_id, ip_hash' end;
  v_values text := case when p_form_id is null then '$2' else '$1, $2' end;
  v_match text := case when p_form_id is null then 'ip_hash = $2'
                       else 'form_id = $1 and ip_hash = $2' end;
  v_minute_hits integer;
  v_day_hits integer;
begin
  execute format(
    'insert into %1$s as r (%2$s, window_kind, window_start) values (%3$s, $3, $4)
       on conflict (%2$s, window_kind) do update
         set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
             window_start = excluded.window_start
       returning hits', v_counters, v_key, v_values)
    into v_minute_hits using p_form_id, p_ip_hash, 'minute', v_minute;
  execute format(
    'insert into %1$s as r (%2$s, window_kind, window_start) values (%3$s, $3, $4)
       on conflict (%2$s, window_kind) do update
         set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
             window_start = excluded.window_start
       returning hits', v_counters, v_key, v_values)
    into v_day_hits using p_form_id, p_ip_hash, 'day', v_day;

  if v_day_hits >= p_per_day then
    return greatest(ceil(extract(epoch from (v_day + interval '1 day' - now())))::integer, 1);
  elsif v_minute_hits >= p_per_minute then
    return greatest(ceil(extract(epoch from (v_minute + interval '1 minute' - now())))::integer, 1);
  end if;

  execute format('update %s set hits = hits + 1 where %s', v_counters, v_match)
    using p_form_id, p_ip_hash;
  return 0;
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

create or replace function public.ring_add(p_hits integer[], p_units bigint[], p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT units bigint[])
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_slot integer := (p_unit % p_size)::integer + 1;
begin
  hits := p_hits;
  units := p_units;
  if coalesce(cardinality(hits), 0) <> p_size or coalesce(cardinality(units), 0) <> p_size then
    hits := array_fill(0, array[p_size]);
    units := array_fill(-1::bigint, array[p_size]);
  end if;
  if units[v_slot] < p_unit then
    hits[v_slot] := p_by;
    units[v_slot] := p_unit;
  elsif units[v_slot] = p_unit then
    hits[v_slot] := hits[v_slot] + p_by;
  end if;
end;
$function$;
revoke all on function public.ring_add(p_hits integer[], p_units bigint[], p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT units bigint[]) from public, anon, authenticated, service_role;

create or replace function public.ring_count(p_hits integer[], p_units bigint[], p_since bigint)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(sum(r.h), 0)::integer
    from unnest(p_hits, p_units) as r(h, u)
   where r.u >= p_since;
$function$;
revoke all on function public.ring_count(p_hits integer[], p_units bigint[], p_since bigint) from public, anon, authenticated, service_role;

create or replace function public.ring_oldest(p_hits integer[], p_units bigint[], p_since bigint)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select min(r.u) from unnest(p_hits, p_units) as r(h, u) where r.u >= p_since and r.h > 0;
$function$;
revoke all on function public.ring_oldest(p_hits integer[], p_units bigint[], p_since bigint) from public, anon, authenticated, service_role;

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
