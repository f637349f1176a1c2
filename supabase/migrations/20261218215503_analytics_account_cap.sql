-- An account-wide cap on stored analytics events: a count per account and UTC day that no
-- site's deletion resets, analytics_collect()'s p_account_per_day, the owner's analytics_account_today().

set check_function_bodies = off;

drop function if exists "public"."analytics_collect"(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer);

create table "private"."analytics_account_days" (
    "user_id" uuid not null,
    "day" date not null,
    "events" integer not null default 0,
    "day_limit" integer not null
      );

alter table "private"."analytics_account_days" enable row level security;

CREATE UNIQUE INDEX analytics_account_days_pkey ON private.analytics_account_days USING btree (user_id, day);

alter table "private"."analytics_account_days" add constraint "analytics_account_days_pkey" PRIMARY KEY using index "analytics_account_days_pkey";

CREATE OR REPLACE FUNCTION public.analytics_account_today()
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select jsonb_build_object('events', coalesce(a.events, 0), 'limit', a.day_limit)
    from (select 1) one
    left join private.analytics_account_days a
      on a.user_id = (select auth.uid()) and a.day = (now() at time zone 'UTC')::date;
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text DEFAULT NULL::text, p_utm_source text DEFAULT NULL::text, p_utm_medium text DEFAULT NULL::text, p_utm_campaign text DEFAULT NULL::text, p_country text DEFAULT NULL::text, p_browser text DEFAULT NULL::text, p_os text DEFAULT NULL::text, p_device text DEFAULT NULL::text, p_screen text DEFAULT NULL::text, p_props jsonb DEFAULT NULL::jsonb, p_per_minute integer DEFAULT 60, p_per_day integer DEFAULT 5000, p_site_per_minute integer DEFAULT 2000, p_account_per_day integer DEFAULT 100000)
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_sweep(p_limit integer DEFAULT 5000)
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

  v_salts := private.analytics_rotate_salts();

  -- Counters of earlier days are keyed by a salt that is gone: nothing can match them again.
  delete from private.analytics_rate_limits r where r.day_start < date_trunc('day', now(), 'UTC');
  get diagnostics v_limits = row_count;
  -- The account cap's counts, by age alone (no site's deletion touches them).
  delete from private.analytics_account_days a where a.day < (now() at time zone 'UTC')::date;

  return jsonb_build_object('rolled_days', v_rolled, 'events', v_events, 'salts', v_salts,
                            'rate_limits', v_limits);
end;
$function$
;

alter function public.analytics_account_today() set search_path to '';

alter function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) set search_path to '';

comment on function private.analytics_sweep(p_limit integer) is 'Rolls up closed days, then deletes events past their site''s retention (at most p_limit), earlier days'' salts, stale counters and account counts; run by sweep_retention().';

comment on function public.analytics_account_today() is 'The caller''s events stored today (UTC) over all their sites, and the daily cap last applied (null before the day''s first event).';

comment on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) is 'Stores one analytics event (the analytics function, service role): the site and host checked, the client, site and account limits counted, the visitor hashed with the day''s salt; the IP and user agent are not stored.';

comment on table private.analytics_account_days is 'Events stored per account and UTC day over all its sites, and the cap last applied to them; references nothing, purged by age only.';

grant execute on function public.analytics_account_today() to authenticated;

grant execute on function public.analytics_account_today() to postgres;

grant execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) to postgres;

grant execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) to service_role;
