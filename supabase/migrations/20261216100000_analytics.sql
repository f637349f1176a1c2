-- Analytics: an owner's sites (public.analytics_sites: name, 1–10 domains, retention; at most 50
-- per account, under RLS like the forms) and the ingestion internals in `private`: raw events
-- (no IP address and no user agent: a visitor is the first 8 bytes of sha256 over the UTC day's
-- salt, the site, the IP and the user agent), one random salt per day (earlier days' deleted on the
-- first event of a day and by the sweep), per-client and per-site counters. analytics_collect()
-- (service role only) checks the site and the page's host, counts the limits, hashes the visitor,
-- tells whether the event starts a visit (none in the previous 30 minutes) and stores it.
-- sweep_retention() now also runs analytics_sweep(): events past their site's retention_days, in
-- batches, old salts and counters.

create table "private"."analytics_events" (
    "site_id" uuid not null,
    "at" timestamp with time zone not null default now(),
    "visitor" bigint not null,
    "name" text not null,
    "path" text not null,
    "referrer_host" text,
    "utm_source" text,
    "utm_medium" text,
    "utm_campaign" text,
    "country" text,
    "browser" text,
    "os" text,
    "device" text,
    "screen" text,
    "entry" boolean not null,
    "props" jsonb
      );

alter table "private"."analytics_events" enable row level security;

  create table "private"."analytics_rate_limits" (
    "site_id" uuid not null,
    "client" bytea not null,
    "minute_start" timestamp with time zone not null,
    "minute_hits" integer not null default 0,
    "day_start" timestamp with time zone not null,
    "day_hits" integer not null default 0
      );

alter table "private"."analytics_rate_limits" enable row level security;

  create table "private"."analytics_salts" (
    "day" date not null,
    "salt" bytea not null
      );

alter table "private"."analytics_salts" enable row level security;

  create table "private"."analytics_site_counts" (
    "site_id" uuid not null,
    "minute_start" timestamp with time zone not null,
    "hits" integer not null default 0
      );

alter table "private"."analytics_site_counts" enable row level security;

  create table "public"."analytics_sites" (
    "id" uuid not null default gen_random_uuid(),
    "user_id" uuid not null default auth.uid(),
    "name" text not null,
    "domains" text[] not null,
    "retention_days" integer not null default 395,
    "created_at" timestamp with time zone not null default now()
      );

alter table "public"."analytics_sites" enable row level security;

CREATE INDEX analytics_events_at_brin ON private.analytics_events USING brin (at);

CREATE INDEX analytics_events_site_at_idx ON private.analytics_events USING btree (site_id, at);

CREATE INDEX analytics_events_site_visitor_idx ON private.analytics_events USING btree (site_id, visitor, at);

CREATE UNIQUE INDEX analytics_rate_limits_pkey ON private.analytics_rate_limits USING btree (site_id, client);

CREATE UNIQUE INDEX analytics_salts_pkey ON private.analytics_salts USING btree (day);

CREATE UNIQUE INDEX analytics_site_counts_pkey ON private.analytics_site_counts USING btree (site_id);

CREATE UNIQUE INDEX analytics_sites_pkey ON public.analytics_sites USING btree (id);

CREATE INDEX analytics_sites_user_id_idx ON public.analytics_sites USING btree (user_id);

alter table "private"."analytics_rate_limits" add constraint "analytics_rate_limits_pkey" PRIMARY KEY using index "analytics_rate_limits_pkey";

alter table "private"."analytics_salts" add constraint "analytics_salts_pkey" PRIMARY KEY using index "analytics_salts_pkey";

alter table "private"."analytics_site_counts" add constraint "analytics_site_counts_pkey" PRIMARY KEY using index "analytics_site_counts_pkey";

alter table "public"."analytics_sites" add constraint "analytics_sites_pkey" PRIMARY KEY using index "analytics_sites_pkey";

alter table "private"."analytics_events" add constraint "analytics_events_browser_os" CHECK (((char_length(browser) <= 50) AND (char_length(os) <= 50))) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_browser_os";

alter table "private"."analytics_events" add constraint "analytics_events_country" CHECK ((country ~ '^[A-Z]{2}$'::text)) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_country";

alter table "private"."analytics_events" add constraint "analytics_events_device" CHECK ((device = ANY (ARRAY['desktop'::text, 'mobile'::text, 'tablet'::text]))) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_device";

alter table "private"."analytics_events" add constraint "analytics_events_name" CHECK (((char_length(name) >= 1) AND (char_length(name) <= 50))) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_name";

alter table "private"."analytics_events" add constraint "analytics_events_path" CHECK (((char_length(path) >= 1) AND (char_length(path) <= 2000))) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_path";

alter table "private"."analytics_events" add constraint "analytics_events_props" CHECK ((jsonb_typeof(props) = 'object'::text)) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_props";

alter table "private"."analytics_events" add constraint "analytics_events_referrer_host" CHECK ((char_length(referrer_host) <= 253)) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_referrer_host";

alter table "private"."analytics_events" add constraint "analytics_events_screen" CHECK ((screen = ANY (ARRAY['mobile'::text, 'tablet'::text, 'laptop'::text, 'desktop'::text]))) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_screen";

alter table "private"."analytics_events" add constraint "analytics_events_site_id_fkey" FOREIGN KEY (site_id) REFERENCES analytics_sites(id) ON DELETE CASCADE not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_site_id_fkey";

alter table "private"."analytics_events" add constraint "analytics_events_utm" CHECK (((char_length(utm_source) <= 200) AND (char_length(utm_medium) <= 200) AND (char_length(utm_campaign) <= 200))) not valid;

alter table "private"."analytics_events" validate constraint "analytics_events_utm";

alter table "private"."analytics_rate_limits" add constraint "analytics_rate_limits_site_id_fkey" FOREIGN KEY (site_id) REFERENCES analytics_sites(id) ON DELETE CASCADE not valid;

alter table "private"."analytics_rate_limits" validate constraint "analytics_rate_limits_site_id_fkey";

alter table "private"."analytics_site_counts" add constraint "analytics_site_counts_site_id_fkey" FOREIGN KEY (site_id) REFERENCES analytics_sites(id) ON DELETE CASCADE not valid;

alter table "private"."analytics_site_counts" validate constraint "analytics_site_counts_site_id_fkey";

alter table "public"."analytics_sites" add constraint "analytics_sites_domains" CHECK (((cardinality(domains) >= 1) AND (cardinality(domains) <= 10))) not valid;

alter table "public"."analytics_sites" validate constraint "analytics_sites_domains";

alter table "public"."analytics_sites" add constraint "analytics_sites_name" CHECK (((char_length(name) >= 1) AND (char_length(name) <= 100))) not valid;

alter table "public"."analytics_sites" validate constraint "analytics_sites_name";

alter table "public"."analytics_sites" add constraint "analytics_sites_retention_days" CHECK (((retention_days >= 30) AND (retention_days <= 1095))) not valid;

alter table "public"."analytics_sites" validate constraint "analytics_sites_retention_days";

alter table "public"."analytics_sites" add constraint "analytics_sites_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."analytics_sites" validate constraint "analytics_sites_user_id_fkey";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.analytics_rotate_salts()
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_salt()
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_sweep(p_limit integer DEFAULT 5000)
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_visitor(p_salt bytea, p_site_id uuid, p_ip text, p_user_agent text)
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
$function$
;

CREATE OR REPLACE FUNCTION private.prepare_analytics_site()
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text DEFAULT NULL::text, p_utm_source text DEFAULT NULL::text, p_utm_medium text DEFAULT NULL::text, p_utm_campaign text DEFAULT NULL::text, p_country text DEFAULT NULL::text, p_browser text DEFAULT NULL::text, p_os text DEFAULT NULL::text, p_device text DEFAULT NULL::text, p_screen text DEFAULT NULL::text, p_props jsonb DEFAULT NULL::jsonb, p_per_minute integer DEFAULT 60, p_per_day integer DEFAULT 5000, p_site_per_minute integer DEFAULT 2000)
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
$function$
;

CREATE OR REPLACE FUNCTION public.sweep_retention(p_limit integer DEFAULT 5000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_old integer;
  v_forwarded integer;
  v_mails integer;
  v_ledger integer;
  v_keys integer;
  v_analytics jsonb;
begin
  -- Entries older than their form's number of days.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e
        on e.form_id = r.form_id and e.created_at < now() - make_interval(days => r.days)
     where r.mode = 'days'
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_old = row_count;

  -- "Forward only": entries none of whose deliveries is still pending or being sent. Deliveries
  -- are queued in the entry's transaction, so a committed entry without one has none to wait for.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e on e.form_id = r.form_id
     where r.mode = 'forward_only'
       and not exists (select 1 from public.email_deliveries d
                        where d.entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.email_deliveries d
                        where d.source_entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.webhook_deliveries w
                        where w.entry_id = e.id and w.status in ('pending', 'sending'))
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_forwarded = row_count;

  -- Copies of replies still kept (their entry kept too) go 30 days after they were queued.
  delete from public.email_deliveries d
   where d.kind = 'autoresponse' and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  get diagnostics v_mails = row_count;

  v_ledger := private.purge_action_ledger();
  v_keys := private.purge_revoked_api_keys();
  -- Analytics events past their site's retention, and the salts of earlier days.
  v_analytics := private.analytics_sweep(p_limit);

  return jsonb_build_object('expired', v_old, 'forwarded', v_forwarded, 'autoresponses', v_mails,
                            'ledger', v_ledger, 'revoked_keys', v_keys, 'analytics', v_analytics);
end;
$function$
;

grant delete on table "public"."analytics_sites" to "authenticated";

grant select on table "public"."analytics_sites" to "authenticated";

grant delete on table "public"."analytics_sites" to "service_role";

grant insert on table "public"."analytics_sites" to "service_role";

grant references on table "public"."analytics_sites" to "service_role";

grant select on table "public"."analytics_sites" to "service_role";

grant trigger on table "public"."analytics_sites" to "service_role";

grant truncate on table "public"."analytics_sites" to "service_role";

grant update on table "public"."analytics_sites" to "service_role";

  create policy "Analytics sites are deletable by their owner"
  on "public"."analytics_sites"
  as permissive
  for delete
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));

  create policy "Analytics sites are updatable by their owner"
  on "public"."analytics_sites"
  as permissive
  for update
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id))
with check ((( SELECT auth.uid() AS uid) = user_id));

  create policy "Analytics sites are viewable by their owner"
  on "public"."analytics_sites"
  as permissive
  for select
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));

  create policy "Analytics sites can be created by users for themselves"
  on "public"."analytics_sites"
  as permissive
  for insert
  to authenticated
with check ((( SELECT auth.uid() AS uid) = user_id));

CREATE TRIGGER analytics_sites_prepare BEFORE INSERT OR UPDATE ON public.analytics_sites FOR EACH ROW EXECUTE FUNCTION private.prepare_analytics_site();

alter function private.analytics_rotate_salts() set search_path to '';
alter function private.analytics_salt() set search_path to '';
alter function private.analytics_sweep(p_limit integer) set search_path to '';
alter function private.analytics_visitor(p_salt bytea, p_site_id uuid, p_ip text, p_user_agent text) set search_path to '';
alter function private.prepare_analytics_site() set search_path to '';
alter function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) set search_path to '';
comment on function private.analytics_rotate_salts() is 'Deletes the salt of every UTC day before today; run when a day''s salt is made and by the scheduled sweep.';
comment on function private.analytics_sweep(p_limit integer) is 'Deletes events past their site''s retention (at most p_limit), earlier days'' salts and stale counters; run by sweep_retention().';
comment on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) is 'Stores one analytics event (the analytics function, service role): the site and host checked, the client and site limits counted, the visitor hashed with the day''s salt; the IP and user agent are not stored.';
comment on table private.analytics_events is 'Raw analytics events (page views and custom events); no IP address or user agent, only the day''s visitor hash. Kept retention_days.';
comment on table private.analytics_rate_limits is 'Events per site and client (a hash of the client''s network under the day''s salt) in its current minute and UTC day.';
comment on table private.analytics_salts is 'One random 32-byte salt per UTC day for visitor ids; made on first use, earlier days deleted (analytics_rotate_salts()).';
comment on table private.analytics_site_counts is 'Events accepted per site in its current minute, for the per-site cap.';
comment on table public.analytics_sites is 'Sites whose page views an owner counts: the domains the tracker may report from (a www. prefix counts as the domain) and how many days raw events are kept.';
grant execute on function private.analytics_rotate_salts() to postgres;
grant execute on function private.analytics_salt() to postgres;
grant execute on function private.analytics_sweep(p_limit integer) to postgres;
grant execute on function private.analytics_visitor(p_salt bytea, p_site_id uuid, p_ip text, p_user_agent text) to postgres;
grant execute on function private.prepare_analytics_site() to postgres;
grant execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) to postgres;
grant execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) to service_role;
grant insert (domains) on table public.analytics_sites to authenticated;
grant insert (name) on table public.analytics_sites to authenticated;
grant insert (retention_days) on table public.analytics_sites to authenticated;
grant insert (user_id) on table public.analytics_sites to authenticated;
grant update (domains) on table public.analytics_sites to authenticated;
grant update (name) on table public.analytics_sites to authenticated;
grant update (retention_days) on table public.analytics_sites to authenticated;

-- Only the definer functions and the service role run these.
revoke execute on function private.analytics_rotate_salts() from public;
revoke execute on function private.analytics_salt() from public;
revoke execute on function private.analytics_sweep(p_limit integer) from public;
revoke execute on function private.analytics_visitor(p_salt bytea, p_site_id uuid, p_ip text, p_user_agent text) from public;
revoke execute on function private.prepare_analytics_site() from public;
revoke execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer) from public;
