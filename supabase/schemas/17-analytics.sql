-- Analytics
--
-- Privacy-friendly web analytics: an owner's sites (the domains their tracker may report from), the
-- raw events the `analytics` function stores, the daily salts that make a visitor id, and the
-- per-client and per-site limits of ingestion. A visitor is the first 8 bytes of
-- sha256(salt of the UTC day ‖ site ‖ IP ‖ user agent), computed here; the IP and the user agent
-- arrive as arguments of analytics_collect() and are never written to any column, and each day's
-- salt is deleted once the next day has begun, after which no id can be recomputed from an
-- address. Design: docs/ANALYTICS.md.
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

create or replace function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text DEFAULT NULL::text, p_utm_source text DEFAULT NULL::text, p_utm_medium text DEFAULT NULL::text, p_utm_campaign text DEFAULT NULL::text, p_country text DEFAULT NULL::text, p_browser text DEFAULT NULL::text, p_os text DEFAULT NULL::text, p_device text DEFAULT NULL::text, p_screen text DEFAULT NULL::text, p_props jsonb DEFAULT NULL::jsonb, p_per_minute integer DEFAULT 60, p_per_day integer DEFAULT 5000, p_site_per_minute integer DEFAULT 2000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_domains text[];
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
  select s.domains into v_domains from public.analytics_sites s where s.id = p_site_id;
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
  return jsonb_build_object('status', 'accepted', 'entry', v_entry);
end;
$function$;
revoke all on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) from public, anon, authenticated, service_role;
grant execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) to service_role;
comment on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) is
  'Stores one analytics event (the analytics function, service role): the site and host checked, the client and site limits counted, the visitor hashed with the day''s salt; the IP and user agent are not stored.';

create or replace function private.analytics_sweep(p_limit integer DEFAULT 5000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_events integer;
  v_salts integer;
  v_limits integer;
begin
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

  v_salts := private.analytics_rotate_salts();

  -- Counters of earlier days are keyed by a salt that is gone: nothing can match them again.
  delete from private.analytics_rate_limits r where r.day_start < date_trunc('day', now(), 'UTC');
  get diagnostics v_limits = row_count;

  return jsonb_build_object('events', v_events, 'salts', v_salts, 'rate_limits', v_limits);
end;
$function$;
revoke all on function private.analytics_sweep(p_limit integer) from public, anon, authenticated, service_role;
comment on function private.analytics_sweep(p_limit integer) is
  'Deletes events past their site''s retention (at most p_limit), earlier days'' salts and stale counters; run by sweep_retention().';

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

alter table private.analytics_salts enable row level security;
alter table private.analytics_events enable row level security;
alter table private.analytics_rate_limits enable row level security;
alter table private.analytics_site_counts enable row level security;

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
