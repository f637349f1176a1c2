-- Analytics
--
-- Privacy-friendly web analytics: an owner's sites (the domains their tracker may report from), the
-- raw events the `analytics` function stores, the daily salts that make a visitor id, and the
-- per-client and per-site limits of ingestion. A visitor is the first 8 bytes of
-- sha256(salt of the UTC day ‖ site ‖ IP ‖ user agent), computed here; the IP and the user agent
-- arrive as arguments of analytics_collect() and are never written to any column, and each day's
-- salt is deleted once the next day has begun, after which no id can be recomputed from an
-- address. The owner's dashboard reads analytics_stats(): closed days, and the open day until a few
-- minutes ago, from rollups that a scheduled pass writes (kept as long as the site), the minutes
-- since and filtered views from raw events;
-- "visitors now" from analytics_visitors_now() and, live, public.analytics_live through Realtime.
-- Design: docs/ANALYTICS.md.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.analytics_sites (
  id uuid default gen_random_uuid() not null,
  user_id uuid default auth.uid() not null,
  name text not null,
  domains text[] not null,
  retention_days integer default 395 not null,
  created_at timestamp with time zone default now() not null,
  constraint analytics_sites_pkey PRIMARY KEY (id),
  constraint analytics_sites_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint analytics_sites_name CHECK (((char_length(name) >= 1) AND (char_length(name) <= 100))),
  constraint analytics_sites_domains CHECK (((cardinality(domains) >= 1) AND (cardinality(domains) <= 10))),
  constraint analytics_sites_retention_days CHECK (((retention_days >= 30) AND (retention_days <= 1095)))
);
create index analytics_sites_user_id_idx ON public.analytics_sites (user_id);
comment on table public.analytics_sites is
  'Sites whose page views an owner counts: the domains the tracker may report from (a www. prefix counts as the domain) and how many days raw events are kept.';

create table private.analytics_salts (
  day date not null,
  salt bytea not null,
  constraint analytics_salts_pkey PRIMARY KEY (day)
);
comment on table private.analytics_salts is
  'One random 32-byte salt per UTC day for visitor ids; made on first use, earlier days deleted (analytics_rotate_salts()).';

create table private.analytics_events (
  site_id uuid not null,
  at timestamp with time zone default now() not null,
  visitor bigint not null,
  name text not null,
  path text not null,
  referrer_host text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  country text,
  browser text,
  os text,
  device text,
  screen text,
  entry boolean not null,
  props jsonb,
  constraint analytics_events_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE,
  constraint analytics_events_name CHECK (((char_length(name) >= 1) AND (char_length(name) <= 50))),
  constraint analytics_events_path CHECK (((char_length(path) >= 1) AND (char_length(path) <= 2000))),
  constraint analytics_events_referrer_host CHECK ((char_length(referrer_host) <= 253)),
  constraint analytics_events_utm CHECK (((char_length(utm_source) <= 200) AND (char_length(utm_medium) <= 200) AND (char_length(utm_campaign) <= 200))),
  constraint analytics_events_country CHECK ((country ~ '^[A-Z]{2}$'::text)),
  constraint analytics_events_browser_os CHECK (((char_length(browser) <= 50) AND (char_length(os) <= 50))),
  constraint analytics_events_device CHECK ((device = ANY (ARRAY['desktop'::text, 'mobile'::text, 'tablet'::text]))),
  constraint analytics_events_screen CHECK ((screen = ANY (ARRAY['mobile'::text, 'tablet'::text, 'laptop'::text, 'desktop'::text]))),
  constraint analytics_events_props CHECK ((jsonb_typeof(props) = 'object'::text))
);
create index analytics_events_site_at_idx ON private.analytics_events (site_id, at);
-- The entry flag's question: this visitor's latest event on this site.
create index analytics_events_site_visitor_idx ON private.analytics_events (site_id, visitor, at);
-- A filter on a page (the dashboard's commonest click) reads that page's events, not the range's.
create index analytics_events_site_path_idx ON private.analytics_events (site_id, path, at);
-- Rows arrive in time order, so a block range index finds old rows for almost nothing.
create index analytics_events_at_brin ON private.analytics_events USING brin (at);
comment on table private.analytics_events is
  'Raw analytics events (page views and custom events); no IP address or user agent, only the day''s visitor hash. Kept retention_days.';

create table private.analytics_rate_limits (
  site_id uuid not null,
  client bytea not null,
  minute_start timestamp with time zone not null,
  minute_hits integer default 0 not null,
  day_start timestamp with time zone not null,
  day_hits integer default 0 not null,
  constraint analytics_rate_limits_pkey PRIMARY KEY (site_id, client),
  constraint analytics_rate_limits_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE
);
comment on table private.analytics_rate_limits is
  'Events per site and client (a hash of the client''s network under the day''s salt) in its current minute and UTC day.';

create table private.analytics_site_counts (
  site_id uuid not null,
  minute_start timestamp with time zone not null,
  hits integer default 0 not null,
  constraint analytics_site_counts_pkey PRIMARY KEY (site_id),
  constraint analytics_site_counts_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE
);
comment on table private.analytics_site_counts is
  'Events accepted per site in its current minute, for the per-site cap.';

-- The account-wide cap's count. Keyed by the owner, referencing nothing: deleting and re-creating
-- sites must not reset it (as private.action_ledger); the sweep deletes earlier days' rows.
create table private.analytics_account_days (
  user_id uuid not null,
  day date not null,
  events integer default 0 not null,
  day_limit integer not null,
  constraint analytics_account_days_pkey PRIMARY KEY (user_id, day)
);
comment on table private.analytics_account_days is
  'Events stored per account and UTC day over all its sites, and the cap last applied to them; references nothing, purged by age only.';

-- Rollups: what the dashboard reads for closed days instead of raw events. One row per site and
-- bucket: kind 'day' (the UTC day's totals, value ''), 'hour' (an hour's totals, value '') or a
-- breakdown dimension (page, entry_page, referrer, utm_source, utm_medium, utm_campaign, country,
-- browser, os, device, event; t is the day) with its value. Visitors are distinct within the row's
-- own bucket, which is exact to add up over days: a visitor id lives one UTC day.
create table private.analytics_rollups (
  site_id uuid not null,
  t timestamp with time zone not null,
  kind text not null,
  value text not null,
  visitors integer not null,
  visits integer not null,
  pageviews integer not null,
  bounces integer not null,
  events integer not null,
  constraint analytics_rollups_pkey PRIMARY KEY (site_id, t, kind, value),
  constraint analytics_rollups_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE
);
comment on table private.analytics_rollups is
  'Per site and closed UTC day: totals (kind day), hourly totals (kind hour) and breakdowns (kind = the dimension); written by analytics_rollup(), kept as long as the site.';

create table private.analytics_rollup_marks (
  site_id uuid not null,
  rolled_through date not null,
  partial_through timestamp with time zone,
  constraint analytics_rollup_marks_pkey PRIMARY KEY (site_id),
  constraint analytics_rollup_marks_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE
);
comment on table private.analytics_rollup_marks is
  'The last closed UTC day of each site that analytics_rollups holds, and how far into the next day (today) its rows there reach, if at all; later events are read raw.';

-- A filtered view counts a visit's bounce on its entry; for rolled-up days the verdict is kept
-- here, written once by the rollup, so a filter on a big site does not read every visit again.
-- Its own insert-only table: rewriting events in place would scatter them out of time order.
create table private.analytics_bounces (
  site_id uuid not null,
  at timestamp with time zone not null,
  visitor bigint not null,
  constraint analytics_bounces_pkey PRIMARY KEY (site_id, at, visitor),
  constraint analytics_bounces_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE
);
comment on table private.analytics_bounces is
  'The entries (time and visitor) of a site''s rolled-up days whose visit had exactly one page view; written by analytics_rollup(), deleted with the raw events.';

-- "Visitors now" for the owner's open dashboard, through Realtime: ingestion rewrites a site's row
-- at most every 5 seconds, so a burst of events costs one write, not one per event.
create table public.analytics_live (
  site_id uuid not null,
  user_id uuid not null,
  visitors_now integer not null,
  updated_at timestamp with time zone not null,
  constraint analytics_live_pkey PRIMARY KEY (site_id),
  constraint analytics_live_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE,
  constraint analytics_live_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
-- Realtime filters on user_id and checks RLS on it: a change's old row must carry it too.
create unique index analytics_live_site_id_user_id_key ON public.analytics_live (site_id, user_id);
create index analytics_live_user_id_idx ON public.analytics_live (user_id);
alter table public.analytics_live replica identity using index analytics_live_site_id_user_id_key;
comment on table public.analytics_live is
  'Visitors of each site in the last 5 minutes, rewritten by analytics_collect() at most every 5 seconds; in the Realtime publication for the owner''s dashboard.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function private.prepare_analytics_site()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_domains text[] := '{}';
  v_domain text;
  v_count integer;
begin
  if tg_op = 'INSERT' then
    -- One account's inserts take turns, so two at once cannot both be the 50th.
    perform pg_advisory_xact_lock(hashtextextended('analytics_sites:' || new.user_id::text, 0));
    select count(*) into v_count from public.analytics_sites s where s.user_id = new.user_id;
    if v_count >= 50 then
      raise exception 'An account can have at most 50 analytics sites. Delete one to add another.'
        using errcode = 'check_violation', hint = 'analytics_site_limit';
    end if;
    new.created_at := now();
  else
    new.id := old.id;
    new.user_id := old.user_id;
    new.created_at := old.created_at;
  end if;

  -- Host names as a page's URL reports them: lower case, no trailing dot, each once.
  foreach v_domain in array coalesce(new.domains, '{}'::text[]) loop
    v_domain := rtrim(lower(btrim(coalesce(v_domain, ''))), '.');
    if char_length(v_domain) > 253
       or v_domain !~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$' then
      raise exception 'Each domain must be a host name such as example.com, without https://, a port or a path: "%".', left(v_domain, 100)
        using errcode = 'check_violation', hint = 'analytics_domain';
    end if;
    if not v_domain = any (v_domains) then
      v_domains := v_domains || v_domain;
    end if;
  end loop;
  if cardinality(v_domains) < 1 or cardinality(v_domains) > 10 then
    raise exception 'A site has between 1 and 10 domains.'
      using errcode = 'check_violation', hint = 'analytics_domain_count';
  end if;
  new.domains := v_domains;
  return new;
end;
$function$;
revoke all on function private.prepare_analytics_site() from public, anon, authenticated, service_role;

create or replace function private.analytics_rotate_salts()
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_deleted integer;
begin
  -- Once a day's salt is gone, that day's visitor ids cannot be recomputed from any address.
  delete from private.analytics_salts where day < (now() at time zone 'UTC')::date;
  get diagnostics v_deleted = row_count;
  return v_deleted;
end;
$function$;
revoke all on function private.analytics_rotate_salts() from public, anon, authenticated, service_role;
comment on function private.analytics_rotate_salts() is
  'Deletes the salt of every UTC day before today; run when a day''s salt is made and by the scheduled sweep.';

create or replace function private.analytics_salt()
 RETURNS bytea
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_day date := (now() at time zone 'UTC')::date;
  v_salt bytea;
begin
  select s.salt into v_salt from private.analytics_salts s where s.day = v_day;
  if found then
    return v_salt;
  end if;
  insert into private.analytics_salts (day, salt) values (v_day, extensions.gen_random_bytes(32))
    on conflict (day) do nothing;
  -- The first event of a day retires the earlier days' salts, whether or not a sweep runs.
  if found then
    perform private.analytics_rotate_salts();
  end if;
  select s.salt into v_salt from private.analytics_salts s where s.day = v_day;
  return v_salt;
end;
$function$;
revoke all on function private.analytics_salt() from public, anon, authenticated, service_role;

create or replace function private.analytics_visitor(p_salt bytea, p_site_id uuid, p_ip text, p_user_agent text)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  -- The first 8 bytes of sha256(salt ‖ site ‖ ip ‖ user agent), as a signed bigint. The IP
  -- cannot hold a newline, so the two texts cannot run into each other.
  select ('x' || encode(substring(sha256(
           p_salt || uuid_send(p_site_id) || convert_to(p_ip || E'\n' || p_user_agent, 'UTF8'))
         from 1 for 8), 'hex'))::bit(64)::bigint;
$function$;
revoke all on function private.analytics_visitor(p_salt bytea, p_site_id uuid, p_ip text, p_user_agent text) from public, anon, authenticated, service_role;

create or replace function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text DEFAULT NULL::text, p_utm_source text DEFAULT NULL::text, p_utm_medium text DEFAULT NULL::text, p_utm_campaign text DEFAULT NULL::text, p_country text DEFAULT NULL::text, p_browser text DEFAULT NULL::text, p_os text DEFAULT NULL::text, p_device text DEFAULT NULL::text, p_screen text DEFAULT NULL::text, p_props jsonb DEFAULT NULL::jsonb, p_per_minute integer DEFAULT 60, p_per_day integer DEFAULT 5000, p_site_per_minute integer DEFAULT 2000, p_account_per_day integer DEFAULT 100000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_domains text[];
  v_owner uuid;
  v_host text := rtrim(lower(coalesce(p_host, '')), '.');
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now(), 'UTC');
  v_salt bytea;
  v_client bytea;
  v_minute_hits integer;
  v_day_hits integer;
  v_visitor bigint;
  v_entry boolean;
begin
  select s.domains, s.user_id into v_domains, v_owner from public.analytics_sites s where s.id = p_site_id;
  if not found then
    return jsonb_build_object('status', 'site_not_found');
  end if;
  -- The site's own domains, and each with a www. in front; other subdomains only when listed.
  if not (v_host = any (v_domains)
          or (left(v_host, 4) = 'www.' and substr(v_host, 5) = any (v_domains))) then
    return jsonb_build_object('status', 'foreign_host');
  end if;

  v_salt := private.analytics_salt();
  -- The client's network (IPv6 by its /64), hashed under the day's salt: the counter cannot be
  -- traced back to an address once the salt is gone.
  v_client := substring(sha256(v_salt || convert_to('rate:' || coalesce(p_client_key, ''), 'UTF8')) from 1 for 16);

  -- Both of the client's windows counted in one statement, only when both have room; the row's
  -- lock makes a racing event of the same client decide on the count this one left.
  insert into private.analytics_rate_limits as r (site_id, client, minute_start, minute_hits, day_start, day_hits)
    values (p_site_id, v_client, v_minute, 1, v_day, 1)
    on conflict (site_id, client) do update
      set minute_start = v_minute,
          minute_hits = case when r.minute_start = v_minute then r.minute_hits else 0 end + 1,
          day_start = v_day,
          day_hits = case when r.day_start = v_day then r.day_hits else 0 end + 1
      where case when r.minute_start = v_minute then r.minute_hits else 0 end < p_per_minute
        and case when r.day_start = v_day then r.day_hits else 0 end < p_per_day;
  if not found then
    select case when r.minute_start = v_minute then r.minute_hits else 0 end,
           case when r.day_start = v_day then r.day_hits else 0 end
      into v_minute_hits, v_day_hits
      from private.analytics_rate_limits r where r.site_id = p_site_id and r.client = v_client;
    return jsonb_build_object('status', 'rate_limited', 'retry_after',
      greatest(ceil(extract(epoch from (
        case when coalesce(v_day_hits, 0) >= p_per_day then v_day + interval '1 day'
             else v_minute + interval '1 minute' end) - now()))::integer, 1));
  end if;

  -- The site's own cap, over all its clients.
  insert into private.analytics_site_counts as c (site_id, minute_start, hits)
    values (p_site_id, v_minute, 1)
    on conflict (site_id) do update
      set minute_start = v_minute,
          hits = case when c.minute_start = v_minute then c.hits else 0 end + 1
      where case when c.minute_start = v_minute then c.hits else 0 end < p_site_per_minute;
  if not found then
    return jsonb_build_object('status', 'rate_limited', 'retry_after',
      greatest(ceil(extract(epoch from (v_minute + interval '1 minute' - now())))::integer, 1));
  end if;

  -- The account's cap over all its sites, counted last so that it counts stored events only. One
  -- row per account and day: its lock orders the account's concurrent events on the count.
  insert into private.analytics_account_days as a (user_id, day, events, day_limit)
    select v_owner, (v_day at time zone 'UTC')::date, 1, p_account_per_day where p_account_per_day > 0
    on conflict (user_id, day) do update
      set events = a.events + 1, day_limit = p_account_per_day
      where a.events < p_account_per_day;
  if not found then
    -- The dashboard tells the owner the cap that refused the event.
    update private.analytics_account_days a set day_limit = p_account_per_day
     where a.user_id = v_owner and a.day = (v_day at time zone 'UTC')::date and a.day_limit <> p_account_per_day;
    return jsonb_build_object('status', 'account_limit', 'retry_after',
      greatest(ceil(extract(epoch from (v_day + interval '1 day' - now())))::integer, 1));
  end if;

  v_visitor := private.analytics_visitor(v_salt, p_site_id, coalesce(p_ip, ''), coalesce(p_user_agent, ''));
  -- A visit begins with an event after 30 minutes without one from the same visitor.
  v_entry := not exists (
    select 1 from private.analytics_events e
     where e.site_id = p_site_id and e.visitor = v_visitor and e.at > now() - interval '30 minutes');

  insert into private.analytics_events (site_id, at, visitor, name, path, referrer_host, utm_source,
                                        utm_medium, utm_campaign, country, browser, os, device,
                                        screen, entry, props)
    values (p_site_id, now(), v_visitor, p_name, p_path, p_referrer_host, p_utm_source,
            p_utm_medium, p_utm_campaign, p_country, p_browser, p_os, p_device, p_screen,
            v_entry, p_props);

  -- Visitors now, for the owner's open dashboard: rewritten only when the row is 5 seconds old.
  -- The check first, so most events of a burst neither count nor lock; of two that pass it at
  -- once, the second waits for the first's row lock and its own condition then fails.
  if not exists (select 1 from public.analytics_live l
                  where l.site_id = p_site_id and l.updated_at > now() - interval '5 seconds') then
    insert into public.analytics_live as l (site_id, user_id, visitors_now, updated_at)
      values (p_site_id, v_owner, private.analytics_visitors_now(p_site_id), now())
      on conflict (site_id) do update
        set user_id = excluded.user_id, visitors_now = excluded.visitors_now,
            updated_at = excluded.updated_at
        where l.updated_at <= now() - interval '5 seconds';
  end if;
  return jsonb_build_object('status', 'accepted', 'entry', v_entry);
end;
$function$;
revoke all on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) from public, anon, authenticated, service_role;
grant execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) to service_role;
comment on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) is
  'Stores one analytics event (the analytics function, service role): the site and host checked, the client, site and account limits counted, the visitor hashed with the day''s salt; the IP and user agent are not stored.';

create or replace function private.analytics_visitors_now(p_site_id uuid)
 RETURNS integer
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select count(distinct e.visitor)::integer from private.analytics_events e
   where e.site_id = p_site_id and e.at > now() - interval '5 minutes';
$function$;
revoke all on function private.analytics_visitors_now(p_site_id uuid) from public, anon, authenticated, service_role;
comment on function private.analytics_visitors_now(p_site_id uuid) is
  'Distinct visitors of the site with an event in the last 5 minutes.';

create or replace function private.analytics_filter_sql(p_filters jsonb)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_key text;
  v_value jsonb;
  v_text text;
  v_clause text;
  v_sql text := '';
begin
  if p_filters is null then
    return '';
  end if;
  if jsonb_typeof(p_filters) <> 'object' then
    raise exception 'Filters are a JSON object such as {"country": "DE"}.'
      using errcode = 'invalid_parameter_value', hint = 'analytics_filters';
  end if;
  for v_key, v_value in select f.key, f.value from jsonb_each(p_filters) f loop
    if jsonb_typeof(v_value) <> 'string' then
      raise exception 'The filter "%" takes a string.', left(v_key, 50)
        using errcode = 'invalid_parameter_value', hint = 'analytics_filters';
    end if;
    v_text := v_value #>> '{}';
    -- Values become literals (%L): the statement is planned for them, so a page filter uses the
    -- path's selectivity, not a generic plan.
    v_clause := case v_key
      when 'page' then format('e.path = %L', v_text)
      -- A visit's entry page: the path of the event that began it.
      when 'entry_page' then format('e.entry and e.path = %L', v_text)
      when 'referrer' then
        case when v_text = '(direct)' then 'e.referrer_host is null'
             else format('e.referrer_host = %L', v_text) end
      when 'utm_source' then format('e.utm_source = %L', v_text)
      when 'utm_medium' then format('e.utm_medium = %L', v_text)
      when 'utm_campaign' then format('e.utm_campaign = %L', v_text)
      when 'country' then format('e.country = %L', v_text)
      when 'browser' then format('e.browser = %L', v_text)
      when 'os' then format('e.os = %L', v_text)
      when 'device' then format('e.device = %L', v_text)
      when 'event' then format('e.name = %L', v_text)
    end;
    if v_clause is null then
      raise exception 'Unknown filter "%": filters are page, entry_page, referrer, utm_source, utm_medium, utm_campaign, country, browser, os, device and event.', left(v_key, 50)
        using errcode = 'invalid_parameter_value', hint = 'analytics_filters';
    end if;
    v_sql := v_sql || ' and ' || v_clause;
  end loop;
  return v_sql;
end;
$function$;
revoke all on function private.analytics_filter_sql(p_filters jsonb) from public, anon, authenticated, service_role;
comment on function private.analytics_filter_sql(p_filters jsonb) is
  'The stats filters as a SQL condition on private.analytics_events e (" and …", literals quoted); refuses unknown keys and values that are not strings.';

create or replace function private.analytics_cell_kind(p_grouping integer)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  -- p_grouping: grouping() of the twelve bucket columns in this order (hour, path, entry_page,
  -- referrer, utm_source, utm_medium, utm_campaign, country, browser, os, device, custom). A set
  -- keeps at most one of them, whose bit is 0; none kept is the day's row. No SET search_path
  -- (it names built-ins only): Postgres inlines a plain expression, and this one is evaluated
  -- for every row a stats query groups.
  select case when p_grouping & 2048 = 0 then 'hour'
              when p_grouping & 1024 = 0 then 'page'
              when p_grouping & 512 = 0 then 'entry_page'
              when p_grouping & 256 = 0 then 'referrer'
              when p_grouping & 128 = 0 then 'utm_source'
              when p_grouping & 64 = 0 then 'utm_medium'
              when p_grouping & 32 = 0 then 'utm_campaign'
              when p_grouping & 16 = 0 then 'country'
              when p_grouping & 8 = 0 then 'browser'
              when p_grouping & 4 = 0 then 'os'
              when p_grouping & 2 = 0 then 'device'
              when p_grouping & 1 = 0 then 'event'
              else 'day' end
$function$;
revoke all on function private.analytics_cell_kind(p_grouping integer) from public, anon, authenticated, service_role;
comment on function private.analytics_cell_kind(p_grouping integer) is
  'The kind of a grouping-sets row of the analytics cells (day, hour or the breakdown it keeps) from grouping() of its twelve bucket columns.';

create or replace function private.analytics_raw_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_filters jsonb, p_detail boolean)
 RETURNS TABLE(kind text, t timestamp with time zone, value text, visitors bigint, visits bigint, pageviews bigint, bounces bigint, events bigint)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
 SET work_mem TO '32MB'
AS $function$
declare
  v_where text := private.analytics_filter_sql(p_filters);
  v_bounced text;
  v_groups text;
begin
  -- (work_mem: a filtered month of a big site sorts tens of thousands of events once per
  -- breakdown; with the default 4 MB every sort spilled to disk.)
  --
  -- The events of [p_from, p_to) (whole UTC days) that pass the filters, counted per day (kind
  -- 'day'), and with p_detail per hour ('hour') and per day and breakdown value (kind = the
  -- dimension): the rows analytics_rollup() stores for a closed day, so rollups and raw events
  -- answer alike.
  --
  -- A bounce is a visit of one page view: from its entry to the visitor's next entry or the end
  -- of the day (the id ends with it). Unfiltered, every event of those visits is at hand and one
  -- sort numbers the visits. Filtered, an entry of a rolled-up day finds its visit's verdict in
  -- analytics_bounces; an entry of a later day looks its visit up through the (site_id, visitor,
  -- at) index, whatever the filters left of it.
  if v_where = '' then
    v_bounced := $b$
      select v.day, count(*) as n
        from (select ev.day, ev.visitor, ev.name,
                     count(*) filter (where ev.entry) over (partition by ev.visitor, ev.day
                                                            order by ev.at) as visit
                from ev) v
       where v.visit > 0
       group by v.day, v.visitor, v.visit
      having count(*) filter (where v.name = 'pageview') = 1$b$;
    v_bounced := 'select b.day, count(*) as n from (' || v_bounced || ') b group by b.day';
  else
    -- One index range per entry: the visitor's events from it to the end of the day, in order;
    -- those before the next entry (k = 1) are its visit.
    v_bounced := $b$
      select ev.day, count(*) as n
        from ev
       where ev.entry
         -- One primary-key probe per entry (a scalar subquery, never hashed): a narrow filter's
         -- few entries cost a few probes, not a read of the range's verdicts.
         and case when ev.at < $5
                  then (select true from private.analytics_bounces b
                         where b.site_id = $1 and b.at = ev.at and b.visitor = ev.visitor)
                       is not null
                  else (select count(*) filter (where y.k = 1 and y.name = 'pageview')
                          from (select x.name,
                                       count(*) filter (where x.entry) over (order by x.at) as k
                                  from private.analytics_events x
                                 where x.site_id = $1 and x.visitor = ev.visitor
                                   and x.at >= ev.at
                                   and x.at < (ev.day + 1)::timestamp at time zone 'UTC') y) = 1
             end
       group by ev.day$b$;
  end if;

  -- One grouping-sets pass: the day, its hours and each dimension's values, with distinct
  -- visitors per set (a breakdown row's null value is "none" and is dropped below). Without
  -- p_detail (the previous period's totals) only the days.
  if p_detail then
    v_groups := $g$
      select private.analytics_cell_kind(grouping(ev.hour, ev.path, ev.entry_page, ev.referrer,
                                                 ev.utm_source, ev.utm_medium, ev.utm_campaign,
                                                 ev.country, ev.browser, ev.os, ev.device,
                                                 ev.custom)) as kind,
             ev.day, ev.hour,
             coalesce(ev.path, ev.entry_page, ev.referrer, ev.utm_source, ev.utm_medium,
                      ev.utm_campaign, ev.country, ev.browser, ev.os, ev.device, ev.custom) as value,
             count(distinct ev.visitor) as visitors,
             count(*) filter (where ev.entry) as visits,
             count(*) filter (where ev.name = 'pageview') as pageviews,
             count(*) filter (where ev.name <> 'pageview') as events
        from ev
       group by grouping sets ((ev.day), (ev.day, ev.hour), (ev.day, ev.path),
                               (ev.day, ev.entry_page), (ev.day, ev.referrer),
                               (ev.day, ev.utm_source), (ev.day, ev.utm_medium),
                               (ev.day, ev.utm_campaign), (ev.day, ev.country),
                               (ev.day, ev.browser), (ev.day, ev.os), (ev.day, ev.device),
                               (ev.day, ev.custom))$g$;
  else
    v_groups := $g$
      select 'day' as kind, ev.day, null::timestamp as hour, null::text as value,
             count(distinct ev.visitor) as visitors,
             count(*) filter (where ev.entry) as visits,
             count(*) filter (where ev.name = 'pageview') as pageviews,
             count(*) filter (where ev.name <> 'pageview') as events
        from ev group by ev.day$g$;
  end if;

  return query execute format($sql$
    with ev as materialized (
      select e.at, e.visitor, e.name, e.path, e.entry,
             (e.at at time zone 'UTC')::date as day,
             date_trunc('hour', e.at at time zone 'UTC') as hour,
             case when e.entry then e.path end as entry_page,
             coalesce(e.referrer_host, '(direct)') as referrer,
             e.utm_source, e.utm_medium, e.utm_campaign, e.country, e.browser, e.os, e.device,
             case when e.name <> 'pageview' then e.name end as custom
        from private.analytics_events e
       where e.site_id = $1 and e.at >= $2 and e.at < $3 %s
    ),
    bounced as (%s),
    g as (%s)
    select g.kind,
           case when g.kind = 'hour' then g.hour at time zone 'UTC'
                else g.day::timestamp at time zone 'UTC' end,
           case when g.kind in ('day', 'hour') then '' else g.value end,
           g.visitors,
           case when g.kind in ('day', 'hour') then g.visits else 0 end,
           g.pageviews,
           case when g.kind = 'day' then coalesce(b.n, 0) else 0 end,
           g.events
      from g left join bounced b on g.kind = 'day' and b.day = g.day
     where g.kind = 'day' or ($4 and (g.kind = 'hour' or g.value is not null))
  $sql$, v_where, v_bounced, v_groups)
  using p_site_id, p_from, p_to, p_detail,
        coalesce((select (m.rolled_through + 1)::timestamp at time zone 'UTC'
                    from private.analytics_rollup_marks m where m.site_id = p_site_id),
                 '-infinity');
end;
$function$;
revoke all on function private.analytics_raw_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_filters jsonb, p_detail boolean) from public, anon, authenticated, service_role;
comment on function private.analytics_raw_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_filters jsonb, p_detail boolean) is
  'Counts raw events of a site and time range that pass the filters: per UTC day, and with p_detail per hour and per day and breakdown value; the rows analytics_rollups holds.';

create or replace function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean)
 RETURNS TABLE(kind text, t timestamp with time zone, value text, visitors bigint, visits bigint, pageviews bigint, bounces bigint, events bigint)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  -- What the events of [p_from, p_to) add to the day's rows rolled up until p_from (one UTC day,
  -- unfiltered): page views, events and visits are added; a visitor counts in a row only when
  -- none of their events before p_from did; a visit's bounce is judged again on the whole visit.
  -- Read with the same visitors' earlier events of the day, through (site_id, visitor, at): a few
  -- minutes' events and their visitors' history, not the day.
  with fresh as materialized (
    select distinct e.visitor from private.analytics_events e
     where e.site_id = p_site_id and e.at >= p_from and e.at < p_to
  ),
  ev as materialized (
    select e.at, e.visitor, e.name, e.path, e.entry, e.at >= p_from as fresh,
           (e.at at time zone 'UTC')::date as day,
           date_trunc('hour', e.at at time zone 'UTC') as hour,
           case when e.entry then e.path end as entry_page,
           coalesce(e.referrer_host, '(direct)') as referrer,
           e.utm_source, e.utm_medium, e.utm_campaign, e.country, e.browser, e.os, e.device,
           case when e.name <> 'pageview' then e.name end as custom
      from private.analytics_events e
     where e.site_id = p_site_id
       and e.visitor in (select f.visitor from fresh f)
       and e.at >= date_trunc('day', p_from at time zone 'UTC') at time zone 'UTC'
       and e.at < p_to
  ),
  visit as (
    select count(*) filter (where v.name = 'pageview') as total,
           count(*) filter (where v.name = 'pageview' and not v.fresh) as before,
           bool_or(v.entry and not v.fresh) as counted
      from (select ev.visitor, ev.name, ev.fresh, ev.entry,
                   count(*) filter (where ev.entry) over (partition by ev.visitor order by ev.at)
                     as n
              from ev) v
     where v.n > 0
     group by v.visitor, v.n
  ),
  -- Bounces now, less those the rolled-up rows counted for visits begun before p_from.
  bounced as (
    select count(*) filter (where visit.total = 1)
           - count(*) filter (where visit.counted and visit.before = 1) as n
      from visit
  ),
  g as (
    select private.analytics_cell_kind(grouping(ev.hour, ev.path, ev.entry_page, ev.referrer,
                                               ev.utm_source, ev.utm_medium, ev.utm_campaign,
                                               ev.country, ev.browser, ev.os, ev.device,
                                               ev.custom)) as kind,
           ev.day, ev.hour,
           coalesce(ev.path, ev.entry_page, ev.referrer, ev.utm_source, ev.utm_medium,
                    ev.utm_campaign, ev.country, ev.browser, ev.os, ev.device, ev.custom) as value,
           bool_or(not ev.fresh) as seen,
           bool_or(ev.fresh) as touched,
           count(*) filter (where ev.fresh and ev.entry) as visits,
           count(*) filter (where ev.fresh and ev.name = 'pageview') as pageviews,
           count(*) filter (where ev.fresh and ev.name <> 'pageview') as events
      from ev
     group by grouping sets ((ev.day, ev.visitor), (ev.day, ev.hour, ev.visitor),
                             (ev.day, ev.path, ev.visitor), (ev.day, ev.entry_page, ev.visitor),
                             (ev.day, ev.referrer, ev.visitor), (ev.day, ev.utm_source, ev.visitor),
                             (ev.day, ev.utm_medium, ev.visitor),
                             (ev.day, ev.utm_campaign, ev.visitor),
                             (ev.day, ev.country, ev.visitor), (ev.day, ev.browser, ev.visitor),
                             (ev.day, ev.os, ev.visitor), (ev.day, ev.device, ev.visitor),
                             (ev.day, ev.custom, ev.visitor))
  )
  select g.kind,
         case when g.kind = 'hour' then g.hour at time zone 'UTC'
              else g.day::timestamp at time zone 'UTC' end,
         case when g.kind in ('day', 'hour') then '' else g.value end,
         count(*) filter (where not g.seen),
         case when g.kind in ('day', 'hour') then sum(g.visits)::bigint else 0 end,
         sum(g.pageviews)::bigint,
         case when g.kind = 'day' then (select b.n from bounced b) else 0 end,
         sum(g.events)::bigint
    from g
   where g.touched
     and (g.kind = 'day' or (p_detail and (g.kind = 'hour' or g.value is not null)))
   group by g.kind, g.day, g.hour, g.value;
$function$;
revoke all on function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean) from public, anon, authenticated, service_role;
comment on function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean) is
  'What a day''s events from p_from add to its rows rolled up until p_from (visitors new to a row, visits, page views, events, the change in bounces); unfiltered.';

create or replace function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_day date := (p_until at time zone 'UTC')::date;
begin
  -- Only right after the rolled days: the open day's rows stand next to the closed ones.
  if not exists (select 1 from private.analytics_rollup_marks m
                  where m.site_id = p_site_id and m.rolled_through = v_day - 1) then
    return false;
  end if;
  delete from private.analytics_rollups r
   where r.site_id = p_site_id and r.t >= v_day::timestamp at time zone 'UTC';
  insert into private.analytics_rollups (site_id, t, kind, value, visitors, visits, pageviews,
                                         bounces, events)
    select p_site_id, c.t, c.kind, c.value, c.visitors, c.visits, c.pageviews, c.bounces, c.events
      from private.analytics_raw_cells(p_site_id, v_day::timestamp at time zone 'UTC', p_until,
                                       '{}'::jsonb, true) c;
  update private.analytics_rollup_marks m set partial_through = p_until
   where m.site_id = p_site_id;
  return true;
end;
$function$;
revoke all on function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone) from public, anon, authenticated, service_role;
comment on function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone) is
  'Rolls up the open UTC day of a site until p_until (its rows and the mark''s partial_through), when the days before it are rolled up.';

create or replace function private.analytics_cells(p_site_id uuid, p_from date, p_to date, p_filters jsonb, p_detail boolean)
 RETURNS TABLE(kind text, t timestamp with time zone, value text, visitors bigint, visits bigint, pageviews bigint, bounces bigint, events bigint)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  v_mark date;
  v_partial timestamptz;
  v_upto date;
  v_raw_from date := p_from;
begin
  -- Without filters, the days the rollups hold are read from them, today's rolled-up part with
  -- what its later events add; the rest (any day the scheduled pass has not reached) from raw
  -- events. Filtered views read raw events: the rollups hold no combinations of values.
  if p_filters = '{}'::jsonb then
    select m.rolled_through, m.partial_through into v_mark, v_partial
      from private.analytics_rollup_marks m where m.site_id = p_site_id;
    if (v_partial at time zone 'UTC')::date = v_mark + 1 then
      v_upto := v_mark + 1;
    else
      v_partial := null;
      v_upto := v_mark;
    end if;
    if v_upto >= p_from then
      return query
        select r.kind, r.t, r.value, r.visitors::bigint, r.visits::bigint, r.pageviews::bigint,
               r.bounces::bigint, r.events::bigint
          from private.analytics_rollups r
         where r.site_id = p_site_id
           and r.t >= p_from::timestamp at time zone 'UTC'
           and r.t < (least(v_upto, p_to) + 1)::timestamp at time zone 'UTC'
           and (p_detail or r.kind = 'day');
      if v_partial is not null and v_upto <= p_to then
        return query
          select * from private.analytics_tail_cells(p_site_id, v_partial,
                                                     (v_upto + 1)::timestamp at time zone 'UTC',
                                                     p_detail);
      end if;
      v_raw_from := v_upto + 1;
    end if;
  end if;
  if v_raw_from <= p_to then
    return query
      select * from private.analytics_raw_cells(p_site_id, v_raw_from::timestamp at time zone 'UTC',
                                                (p_to + 1)::timestamp at time zone 'UTC',
                                                p_filters, p_detail);
  end if;
end;
$function$;
revoke all on function private.analytics_cells(p_site_id uuid, p_from date, p_to date, p_filters jsonb, p_detail boolean) from public, anon, authenticated, service_role;
comment on function private.analytics_cells(p_site_id uuid, p_from date, p_to date, p_filters jsonb, p_detail boolean) is
  'The counts of a site for the UTC days p_from..p_to: rolled-up days from analytics_rollups when unfiltered, the rest from raw events.';

create or replace function private.analytics_judge_visits(p_site_id uuid, p_day date)
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  -- The entries of a closed UTC day whose visit (to the visitor's next entry or the day's end)
  -- had exactly one page view; the day's earlier verdicts are replaced, so a second pass changes
  -- nothing.
  delete from private.analytics_bounces b
   where b.site_id = p_site_id
     and b.at >= p_day::timestamp at time zone 'UTC'
     and b.at < (p_day + 1)::timestamp at time zone 'UTC';
  insert into private.analytics_bounces (site_id, at, visitor)
    select p_site_id, min(v.at) filter (where v.entry), v.visitor
      from (select e.at, e.visitor, e.entry, e.name,
                   count(*) filter (where e.entry) over (partition by e.visitor order by e.at)
                     as visit
              from private.analytics_events e
             where e.site_id = p_site_id
               and e.at >= p_day::timestamp at time zone 'UTC'
               and e.at < (p_day + 1)::timestamp at time zone 'UTC') v
     where v.visit > 0
     group by v.visitor, v.visit
    having count(*) filter (where v.name = 'pageview') = 1;
$function$;
revoke all on function private.analytics_judge_visits(p_site_id uuid, p_day date) from public, anon, authenticated, service_role;
comment on function private.analytics_judge_visits(p_site_id uuid, p_day date) is
  'Keeps the bounced entries of a closed UTC day of a site in analytics_bounces; run by analytics_rollup().';

create or replace function private.analytics_rollup(p_limit integer DEFAULT 20)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  -- A day is closed 5 minutes after midnight UTC: by then every transaction that stamped an
  -- event before midnight has committed.
  v_last date := ((now() - interval '5 minutes') at time zone 'UTC')::date - 1;
  v_site record;
  v_day date;
  v_next date;
  v_done integer := 0;
begin
  -- One pass at a time; a second one finds the lock taken and leaves the work to the first.
  if not pg_try_advisory_xact_lock(hashtextextended('analytics_rollup', 0)) then
    return 0;
  end if;
  for v_site in
    select s.id, m.rolled_through
      from public.analytics_sites s
      left join private.analytics_rollup_marks m on m.site_id = s.id
     where m.rolled_through is null or m.rolled_through < v_last
     order by m.rolled_through nulls first, s.id
  loop
    exit when v_done >= greatest(p_limit, 0);
    v_day := v_site.rolled_through + 1;
    loop
      -- The next day with events; days without any are passed over at once.
      select (min(e.at) at time zone 'UTC')::date into v_next
        from private.analytics_events e
       where e.site_id = v_site.id
         and e.at >= coalesce(v_day::timestamp at time zone 'UTC', '-infinity'::timestamptz);
      if v_next is null or v_next > v_last then
        -- No event in a closed day left, and none can arrive: events are stamped now().
        v_day := v_last + 1;
        exit;
      end if;
      exit when v_done >= p_limit;
      v_day := v_next;
      delete from private.analytics_rollups r
       where r.site_id = v_site.id
         and r.t >= v_day::timestamp at time zone 'UTC'
         and r.t < (v_day + 1)::timestamp at time zone 'UTC';
      insert into private.analytics_rollups (site_id, t, kind, value, visitors, visits, pageviews,
                                             bounces, events)
        select v_site.id, c.t, c.kind, c.value, c.visitors, c.visits, c.pageviews, c.bounces,
               c.events
          from private.analytics_raw_cells(v_site.id, v_day::timestamp at time zone 'UTC',
                                           (v_day + 1)::timestamp at time zone 'UTC',
                                           '{}'::jsonb, true) c;
      perform private.analytics_judge_visits(v_site.id, v_day);
      v_done := v_done + 1;
      v_day := v_day + 1;
    end loop;
    insert into private.analytics_rollup_marks as m (site_id, rolled_through, partial_through)
      values (v_site.id, v_day - 1, null)
      on conflict (site_id) do update
        set rolled_through = excluded.rolled_through,
            partial_through = case when m.rolled_through = excluded.rolled_through
                                   then m.partial_through end;
  end loop;

  -- The open day, up to 5 minutes ago, for sites whose closed days are all rolled up: the
  -- dashboard then reads only the events since (analytics_tail_cells()). Refreshed every 10
  -- minutes, so a view ending today reads at most a quarter of an hour of raw events.
  for v_site in
    select m.site_id as id from private.analytics_rollup_marks m
     where m.rolled_through = v_last
       and (m.partial_through is null or m.partial_through < now() - interval '15 minutes')
       and exists (select 1 from private.analytics_events e
                    where e.site_id = m.site_id
                      and e.at >= (v_last + 1)::timestamp at time zone 'UTC'
                      and e.at < now() - interval '5 minutes')
     order by m.partial_through nulls first
  loop
    exit when v_done >= greatest(p_limit, 0);
    perform private.analytics_rollup_today(v_site.id, now() - interval '5 minutes');
    v_done := v_done + 1;
  end loop;
  return v_done;
end;
$function$;
revoke all on function private.analytics_rollup(p_limit integer) from public, anon, authenticated, service_role;
comment on function private.analytics_rollup(p_limit integer) is
  'Rolls up closed UTC days (at most p_limit site-days a run) after each site''s mark into analytics_rollups; run by analytics_sweep().';

create or replace function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  v_filters jsonb := coalesce(p_filters, '{}'::jsonb);
  v_days integer;
  v_hourly boolean;
  v_answer jsonb;
begin
  if p_from is null or p_to is null then
    raise exception 'A range needs a first and a last day (p_from, p_to).'
      using errcode = 'invalid_parameter_value', hint = 'analytics_range';
  end if;
  if p_from > p_to then
    raise exception 'The range starts (%) after it ends (%).', p_from, p_to
      using errcode = 'invalid_parameter_value', hint = 'analytics_range';
  end if;
  v_days := p_to - p_from + 1;
  if v_days > 400 then
    raise exception 'A range is at most 400 days; % to % is % days.', p_from, p_to, v_days
      using errcode = 'invalid_parameter_value', hint = 'analytics_range';
  end if;
  -- Refuses unknown filters before anything is read.
  perform private.analytics_filter_sql(v_filters);
  v_hourly := p_from = p_to;

  with c as materialized (
    select * from private.analytics_cells(p_site_id, p_from, p_to, v_filters, true)
  ),
  p as materialized (
    select * from private.analytics_cells(p_site_id, p_from - v_days, p_from - 1, v_filters, false)
  ),
  -- Each dimension's values over the range in one pass, the first 10 by visitors, then value.
  ranked as (
    select x.kind,
           jsonb_agg(case when x.kind = 'event'
                          then jsonb_build_object('value', x.value, 'visitors', x.visitors,
                                                  'events', x.events)
                          else jsonb_build_object('value', x.value, 'visitors', x.visitors,
                                                  'pageviews', x.pageviews) end
                     order by x.visitors desc, x.value collate "C") as rows
      from (select v.*, row_number() over (partition by v.kind
                                           order by v.visitors desc, v.value collate "C") as n
              from (select c.kind, c.value, sum(c.visitors)::bigint as visitors,
                           sum(c.pageviews)::bigint as pageviews, sum(c.events)::bigint as events
                      from c where c.kind not in ('day', 'hour')
                     group by c.kind, c.value) v) x
     where x.n <= 10
     group by x.kind
  ),
  -- Every bucket, empty ones included: hours of the one day, or the days. Stepped in UTC
  -- timestamps, so the session's time zone cannot shift them.
  buckets as (
    select b at time zone 'UTC' as t
      from generate_series(p_from::timestamp,
                           case when v_hourly then (p_to + 1)::timestamp - interval '1 hour'
                                else p_to::timestamp end,
                           case when v_hourly then interval '1 hour' else interval '1 day' end) b
  )
  select jsonb_build_object(
    'range', jsonb_build_object('from', p_from, 'to', p_to,
                                'bucket', case when v_hourly then 'hour' else 'day' end),
    'totals', (select private.analytics_totals(sum(c.visitors), sum(c.visits), sum(c.pageviews),
                                               sum(c.bounces), sum(c.events))
                 from c where c.kind = 'day'),
    'previous', (select private.analytics_totals(sum(p.visitors), sum(p.visits), sum(p.pageviews),
                                                 sum(p.bounces), sum(p.events))
                   from p where p.kind = 'day'),
    'series', (select jsonb_agg(jsonb_build_object(
                        't', to_char(b.t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                        'visitors', coalesce(s.visitors, 0),
                        'pageviews', coalesce(s.pageviews, 0)) order by b.t)
                 from buckets b
                 left join (select c.t, sum(c.visitors)::bigint as visitors,
                                   sum(c.pageviews)::bigint as pageviews
                              from c where c.kind = case when v_hourly then 'hour' else 'day' end
                             group by c.t) s on s.t = b.t),
    'top', (select jsonb_object_agg(k.kind, coalesce(r.rows, '[]'::jsonb))
              from unnest(array['page', 'entry_page', 'referrer', 'utm_source', 'utm_medium',
                                'utm_campaign', 'country', 'browser', 'os', 'device', 'event'])
                   k(kind)
              left join ranked r on r.kind = k.kind))
    into v_answer;
  return v_answer;
end;
$function$;
revoke all on function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) from public, anon, authenticated, service_role;
comment on function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) is
  'The stats of a site, whoever asks: the body of analytics_stats() and analytics_shared_stats(), which check who may read them.';

create or replace function public.analytics_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb DEFAULT '{}'::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not exists (select 1 from public.analytics_sites s
                  where s.id = p_site_id and s.user_id = (select auth.uid())) then
    -- Bad arguments are refused whoever asks; a good question about another's site is null.
    perform private.analytics_site_stats(null, p_from, p_to, p_filters);
    return null;
  end if;
  return private.analytics_site_stats(p_site_id, p_from, p_to, p_filters);
end;
$function$;
revoke all on function public.analytics_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) from public, anon, authenticated, service_role;
grant execute on function public.analytics_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) to authenticated;
comment on function public.analytics_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) is
  'The owner''s stats of a site for the UTC days p_from..p_to (at most 400) and filters: totals, the previous period''s, a series (hours for one day), top 10 of each breakdown; null when the site is not the caller''s.';

create or replace function private.analytics_totals(p_visitors numeric, p_visits numeric, p_pageviews numeric, p_bounces numeric, p_events numeric)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
    'visitors', coalesce(p_visitors, 0)::bigint,
    'visits', coalesce(p_visits, 0)::bigint,
    'pageviews', coalesce(p_pageviews, 0)::bigint,
    -- Whole percent of visits with a single page view.
    'bounce_rate', case when coalesce(p_visits, 0) > 0
                        then round(100 * coalesce(p_bounces, 0) / p_visits)::integer else 0 end,
    'events', coalesce(p_events, 0)::bigint);
$function$;
revoke all on function private.analytics_totals(p_visitors numeric, p_visits numeric, p_pageviews numeric, p_bounces numeric, p_events numeric) from public, anon, authenticated, service_role;

create or replace function public.analytics_visitors_now(p_site_id uuid)
 RETURNS integer
 LANGUAGE plpgsql
 STABLE
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not exists (select 1 from public.analytics_sites s
                  where s.id = p_site_id and s.user_id = (select auth.uid())) then
    return null;
  end if;
  return private.analytics_visitors_now(p_site_id);
end;
$function$;
revoke all on function public.analytics_visitors_now(p_site_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.analytics_visitors_now(p_site_id uuid) to authenticated;
comment on function public.analytics_visitors_now(p_site_id uuid) is
  'The owner''s count of the site''s visitors with an event in the last 5 minutes; null when the site is not the caller''s.';

create or replace function public.analytics_account_today()
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select jsonb_build_object('events', coalesce(a.events, 0), 'limit', a.day_limit)
    from (select 1) one
    left join private.analytics_account_days a
      on a.user_id = (select auth.uid()) and a.day = (now() at time zone 'UTC')::date;
$function$;
revoke all on function public.analytics_account_today() from public, anon, authenticated, service_role;
grant execute on function public.analytics_account_today() to authenticated;
comment on function public.analytics_account_today() is
  'The caller''s events stored today (UTC) over all their sites, and the daily cap last applied (null before the day''s first event).';

create or replace function private.analytics_sweep(p_limit integer DEFAULT 5000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_rolled integer;
  v_events integer;
  v_salts integer;
  v_limits integer;
begin
  -- Closed days into the rollups first, so no day's events reach retention unrolled (retention
  -- is at least 30 days; a day is rolled within minutes of closing).
  v_rolled := private.analytics_rollup();

  -- Events older than their site's retention, a batch per run (the (site_id, at) index per site).
  with doomed as (
    select e.ctid
      from public.analytics_sites s
      cross join lateral (
        select e.ctid from private.analytics_events e
         where e.site_id = s.id and e.at < now() - make_interval(days => s.retention_days)
         limit greatest(p_limit, 0)) e
     limit greatest(p_limit, 0)
  )
  delete from private.analytics_events e using doomed where e.ctid = doomed.ctid;
  get diagnostics v_events = row_count;
  -- Bounce verdicts go with the events they judged, in batches alike.
  with doomed as (
    select b.ctid
      from public.analytics_sites s
      cross join lateral (
        select b.ctid from private.analytics_bounces b
         where b.site_id = s.id and b.at < now() - make_interval(days => s.retention_days)
         limit greatest(p_limit, 0)) b
     limit greatest(p_limit, 0)
  )
  delete from private.analytics_bounces b using doomed where b.ctid = doomed.ctid;

  v_salts := private.analytics_rotate_salts();

  -- Counters of earlier days are keyed by a salt that is gone: nothing can match them again.
  delete from private.analytics_rate_limits r where r.day_start < date_trunc('day', now(), 'UTC');
  get diagnostics v_limits = row_count;
  -- The account cap's counts, by age alone (no site's deletion touches them).
  delete from private.analytics_account_days a where a.day < (now() at time zone 'UTC')::date;

  return jsonb_build_object('rolled_days', v_rolled, 'events', v_events, 'salts', v_salts,
                            'rate_limits', v_limits);
end;
$function$;
revoke all on function private.analytics_sweep(p_limit integer) from public, anon, authenticated, service_role;
comment on function private.analytics_sweep(p_limit integer) is
  'Rolls up closed days, then deletes events past their site''s retention (at most p_limit), earlier days'' salts, stale counters and account counts; run by sweep_retention().';

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger analytics_sites_prepare BEFORE INSERT OR UPDATE ON public.analytics_sites FOR EACH ROW EXECUTE FUNCTION private.prepare_analytics_site();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.analytics_sites enable row level security;
create policy "Analytics sites are deletable by their owner" on public.analytics_sites
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Analytics sites can be created by users for themselves" on public.analytics_sites
  for insert to authenticated
  with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Analytics sites are viewable by their owner" on public.analytics_sites
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Analytics sites are updatable by their owner" on public.analytics_sites
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

alter table public.analytics_live enable row level security;
create policy "Live visitor counts are viewable by their owner" on public.analytics_live
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

alter table private.analytics_salts enable row level security;
alter table private.analytics_events enable row level security;
alter table private.analytics_rate_limits enable row level security;
alter table private.analytics_site_counts enable row level security;
alter table private.analytics_account_days enable row level security;
alter table private.analytics_rollups enable row level security;
alter table private.analytics_rollup_marks enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.analytics_sites from public, anon, authenticated, service_role;
grant select, delete on table public.analytics_sites to authenticated;
grant all on table public.analytics_sites to service_role;
grant insert (user_id, name, domains, retention_days) on table public.analytics_sites to authenticated;
grant update (name, domains, retention_days) on table public.analytics_sites to authenticated;
revoke all on table private.analytics_salts from public, anon, authenticated, service_role;
revoke all on table private.analytics_events from public, anon, authenticated, service_role;
revoke all on table private.analytics_rate_limits from public, anon, authenticated, service_role;
revoke all on table private.analytics_site_counts from public, anon, authenticated, service_role;
revoke all on table private.analytics_account_days from public, anon, authenticated, service_role;
revoke all on table private.analytics_rollups from public, anon, authenticated, service_role;
revoke all on table private.analytics_rollup_marks from public, anon, authenticated, service_role;
revoke all on table public.analytics_live from public, anon, authenticated, service_role;
grant select on table public.analytics_live to authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Realtime
-- ------------------------------------------------------------------------------------------------
alter publication supabase_realtime add table public.analytics_live;

-- ================================================================================================
-- Forms meet analytics
--
-- An entry posted from a page with the tracker keeps the owner's site, the page's path and the
-- visit's referrer host (04-entries.sql, stored by accept_entry()); form_conversion() sets a form's
-- submissions against the page views of the pages they came from.
-- ================================================================================================
alter table public.entries add constraint entries_source_site_id_fkey FOREIGN KEY (source_site_id) REFERENCES public.analytics_sites(id) ON DELETE SET NULL;

create or replace function public.form_conversion(p_form_id uuid, p_days integer DEFAULT 30)
 RETURNS TABLE(views bigint, submissions bigint, conversion numeric)
 LANGUAGE plpgsql
 STABLE
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  v_to date := (now() at time zone 'UTC')::date;
  v_from date;
  v_views bigint := 0;
  v_submissions bigint;
  v_site uuid;
  v_pages text[];
begin
  if p_days is null or p_days < 1 or p_days > 400 then
    raise exception 'The period is 1 to 400 days.' using errcode = '22023';
  end if;
  -- Another account's form answers as a missing one: nothing tells the two apart.
  if not exists (select 1 from public.forms f
                  where f.id = p_form_id and f.user_id = (select auth.uid())) then
    raise exception 'This form does not exist.' using errcode = 'PT404';
  end if;
  v_from := v_to - (p_days - 1);

  -- Submissions sent from pages with the tracker, spam left out.
  select count(*) into v_submissions
    from public.entries e
   where e.form_id = p_form_id and not e.is_spam and e.source_site_id is not null
     and e.created_at >= v_from::timestamp at time zone 'UTC';

  -- The page views of the pages those submissions came from, site by site, from the same
  -- unfiltered counts the dashboard reads (rollups, then raw events for the rest).
  for v_site, v_pages in
    select e.source_site_id, array_agg(distinct e.source_page)
      from public.entries e
     where e.form_id = p_form_id and not e.is_spam and e.source_site_id is not null
       and e.source_page is not null
       and e.created_at >= v_from::timestamp at time zone 'UTC'
     group by e.source_site_id
  loop
    v_views := v_views + coalesce((
      select sum(c.pageviews)
        from private.analytics_cells(v_site, v_from, v_to, '{}'::jsonb, true) c
       where c.kind = 'page' and c.value = any (v_pages)
    ), 0);
  end loop;

  return query select v_views, v_submissions,
    case when v_views > 0 then round(100.0 * v_submissions / v_views, 1) end;
end;
$function$;
revoke all on function public.form_conversion(p_form_id uuid, p_days integer) from public, anon, authenticated, service_role;
grant execute on function public.form_conversion(p_form_id uuid, p_days integer) to authenticated;
comment on function public.form_conversion(p_form_id uuid, p_days integer) is
  'For the caller''s form over the last p_days UTC days: page views of the pages its tracked submissions came from, those submissions, and the percentage (null without views).';

-- ------------------------------------------------------------------------------------------------
-- Share links
--
-- An owner may publish a site's stats at an unguessable link (/share/analytics/<token>): 32 random
-- bytes, base64url. The token is kept readable so the owner can copy the link again; it grants
-- only reading that one site's stats. Rotating or revoking replaces or deletes the row, so an old
-- token stops working at once. Anyone holding the link may call the shared functions, so their
-- range is capped and each token has a per-minute budget (counted on its row).
-- ------------------------------------------------------------------------------------------------
create table private.analytics_shares (
  site_id uuid not null,
  token text not null,
  created_at timestamp with time zone default now() not null,
  stats_minute timestamp with time zone,
  stats_hits integer default 0 not null,
  now_minute timestamp with time zone,
  now_hits integer default 0 not null,
  constraint analytics_shares_pkey PRIMARY KEY (site_id),
  constraint analytics_shares_token_key UNIQUE (token),
  constraint analytics_shares_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.analytics_sites(id) ON DELETE CASCADE
);
comment on table private.analytics_shares is
  'The public share link of a site''s stats (at most one per site) and its per-minute call counters.';

create or replace function private.analytics_own_site(p_site_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  -- Another account's site answers as a missing one: its existence is not revealed.
  if not exists (select 1 from public.analytics_sites s
                  where s.id = p_site_id and s.user_id = (select auth.uid())) then
    raise exception 'This site does not exist, or it is not yours.'
      using errcode = 'PT404', hint = 'analytics_site_not_found';
  end if;
end;
$function$;
revoke all on function private.analytics_own_site(p_site_id uuid) from public, anon, authenticated, service_role;

create or replace function public.analytics_share_create(p_site_id uuid)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_token text := rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=');
begin
  perform private.analytics_own_site(p_site_id);
  insert into private.analytics_shares (site_id, token, created_at)
    values (p_site_id, v_token, now())
    on conflict (site_id) do update
      set token = excluded.token, created_at = excluded.created_at,
          stats_minute = null, stats_hits = 0, now_minute = null, now_hits = 0;
  return v_token;
end;
$function$;
revoke all on function public.analytics_share_create(p_site_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.analytics_share_create(p_site_id uuid) to authenticated;
comment on function public.analytics_share_create(p_site_id uuid) is
  'Makes a new public share token for the caller''s site, replacing (and so revoking) any earlier one; returns it.';

create or replace function public.analytics_share_revoke(p_site_id uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.analytics_own_site(p_site_id);
  delete from private.analytics_shares s where s.site_id = p_site_id;
  return found;
end;
$function$;
revoke all on function public.analytics_share_revoke(p_site_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.analytics_share_revoke(p_site_id uuid) to authenticated;
comment on function public.analytics_share_revoke(p_site_id uuid) is
  'Deletes the share link of the caller''s site; true when there was one.';

create or replace function public.analytics_share_get(p_site_id uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_token text;
begin
  perform private.analytics_own_site(p_site_id);
  select s.token into v_token from private.analytics_shares s where s.site_id = p_site_id;
  return v_token;
end;
$function$;
revoke all on function public.analytics_share_get(p_site_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.analytics_share_get(p_site_id uuid) to authenticated;
comment on function public.analytics_share_get(p_site_id uuid) is
  'The share token of the caller''s site, or null when it has none.';

create or replace function private.analytics_share_not_found()
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  raise exception 'This share link does not exist or has been revoked.'
    using errcode = 'PT404', hint = 'analytics_share_not_found';
end;
$function$;
revoke all on function private.analytics_share_not_found() from public, anon, authenticated, service_role;

create or replace function public.analytics_shared_site(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_answer jsonb;
begin
  -- The token is looked up by its unique index; nothing compares it character by character.
  select jsonb_build_object('name', s.name, 'domains', to_jsonb(s.domains)) into v_answer
    from private.analytics_shares h
    join public.analytics_sites s on s.id = h.site_id
   where h.token = p_token;
  if v_answer is null then
    perform private.analytics_share_not_found();
  end if;
  return v_answer;
end;
$function$;
revoke all on function public.analytics_shared_site(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.analytics_shared_site(p_token text) to anon, authenticated;
comment on function public.analytics_shared_site(p_token text) is
  'The name and domains of the site a share token opens; refused (hint analytics_share_not_found) for an unknown or revoked token.';

create or replace function private.analytics_share_take(p_token text, p_stats boolean)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_site uuid;
begin
  -- The token's minute budget (60 stats calls, or 120 of "visitors now"), counted and checked in
  -- one statement on its row.
  if p_stats then
    update private.analytics_shares h
       set stats_minute = v_minute,
           stats_hits = case when h.stats_minute = v_minute then h.stats_hits else 0 end + 1
     where h.token = p_token
       and case when h.stats_minute = v_minute then h.stats_hits else 0 end < 60
    returning h.site_id into v_site;
  else
    update private.analytics_shares h
       set now_minute = v_minute,
           now_hits = case when h.now_minute = v_minute then h.now_hits else 0 end + 1
     where h.token = p_token
       and case when h.now_minute = v_minute then h.now_hits else 0 end < 120
    returning h.site_id into v_site;
  end if;
  if v_site is null then
    if not exists (select 1 from private.analytics_shares h where h.token = p_token) then
      perform private.analytics_share_not_found();
    end if;
    raise exception 'This share link has been used too often in the last minute. Try again in a minute.'
      using errcode = 'PT429', hint = 'analytics_share_rate';
  end if;
  return v_site;
end;
$function$;
revoke all on function private.analytics_share_take(p_token text, p_stats boolean) from public, anon, authenticated, service_role;
comment on function private.analytics_share_take(p_token text, p_stats boolean) is
  'Counts a call of a share token against its minute budget (stats or visitors now) and returns its site; refused when the token is unknown or over budget.';

create or replace function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb DEFAULT '{}'::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not exists (select 1 from private.analytics_shares h where h.token = p_token) then
    perform private.analytics_share_not_found();
  end if;
  -- Anyone with the link may ask: at most a year, refused before anything is counted or read.
  if p_to - p_from + 1 > 366 then
    raise exception 'A shared range is at most 366 days; % to % is % days.', p_from, p_to, p_to - p_from + 1
      using errcode = 'invalid_parameter_value', hint = 'analytics_range';
  end if;
  return private.analytics_site_stats(private.analytics_share_take(p_token, true), p_from, p_to,
                                      p_filters);
end;
$function$;
revoke all on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) from public, anon, authenticated, service_role;
grant execute on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) to anon, authenticated;
comment on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) is
  'analytics_stats() of the site a share token opens, for at most 366 days and 60 calls a minute per token; refused for an unknown or revoked token.';

create or replace function public.analytics_shared_visitors_now(p_token text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return private.analytics_visitors_now(private.analytics_share_take(p_token, false));
end;
$function$;
revoke all on function public.analytics_shared_visitors_now(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.analytics_shared_visitors_now(p_token text) to anon, authenticated;
comment on function public.analytics_shared_visitors_now(p_token text) is
  'Visitors in the last 5 minutes of the site a share token opens, at most 120 calls a minute per token; refused for an unknown or revoked token.';

alter table private.analytics_shares enable row level security;
revoke all on table private.analytics_shares from public, anon, authenticated, service_role;
