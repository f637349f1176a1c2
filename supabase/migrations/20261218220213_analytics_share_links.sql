create table "private"."analytics_shares" (
    "site_id" uuid not null,
    "token" text not null,
    "created_at" timestamp with time zone not null default now(),
    "stats_minute" timestamp with time zone,
    "stats_hits" integer not null default 0,
    "now_minute" timestamp with time zone,
    "now_hits" integer not null default 0
      );


alter table "private"."analytics_shares" enable row level security;

CREATE UNIQUE INDEX analytics_shares_pkey ON private.analytics_shares USING btree (site_id);

CREATE UNIQUE INDEX analytics_shares_token_key ON private.analytics_shares USING btree (token);

alter table "private"."analytics_shares" add constraint "analytics_shares_pkey" PRIMARY KEY using index "analytics_shares_pkey";

alter table "private"."analytics_shares" add constraint "analytics_shares_site_id_fkey" FOREIGN KEY (site_id) REFERENCES analytics_sites(id) ON DELETE CASCADE not valid;

alter table "private"."analytics_shares" validate constraint "analytics_shares_site_id_fkey";

alter table "private"."analytics_shares" add constraint "analytics_shares_token_key" UNIQUE using index "analytics_shares_token_key";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.analytics_own_site(p_site_id uuid)
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_share_not_found()
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  raise exception 'This share link does not exist or has been revoked.'
    using errcode = 'PT404', hint = 'analytics_share_not_found';
end;
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb)
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_share_create(p_site_id uuid)
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_share_get(p_site_id uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_token text;
begin
  perform private.analytics_own_site(p_site_id);
  select s.token into v_token from private.analytics_shares s where s.site_id = p_site_id;
  return v_token;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_share_revoke(p_site_id uuid)
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_shared_site(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb DEFAULT '{}'::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_site uuid;
begin
  if not exists (select 1 from private.analytics_shares h where h.token = p_token) then
    perform private.analytics_share_not_found();
  end if;
  -- Anyone with the link may ask: at most a year, refused before anything is counted or read.
  if p_to - p_from + 1 > 366 then
    raise exception 'A shared range is at most 366 days; % to % is % days.', p_from, p_to, p_to - p_from + 1
      using errcode = 'invalid_parameter_value', hint = 'analytics_range';
  end if;
  -- The token's minute budget, counted and checked in one statement on its row.
  update private.analytics_shares h
     set stats_minute = v_minute,
         stats_hits = case when h.stats_minute = v_minute then h.stats_hits else 0 end + 1
   where h.token = p_token
     and case when h.stats_minute = v_minute then h.stats_hits else 0 end < 60
  returning h.site_id into v_site;
  if v_site is null then
    if not exists (select 1 from private.analytics_shares h where h.token = p_token) then
      perform private.analytics_share_not_found();
    end if;
    raise exception 'This share link has been used too often in the last minute. Try again in a minute.'
      using errcode = 'PT429', hint = 'analytics_share_rate';
  end if;
  return private.analytics_site_stats(v_site, p_from, p_to, p_filters);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_shared_visitors_now(p_token text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_site uuid;
begin
  update private.analytics_shares h
     set now_minute = v_minute,
         now_hits = case when h.now_minute = v_minute then h.now_hits else 0 end + 1
   where h.token = p_token
     and case when h.now_minute = v_minute then h.now_hits else 0 end < 120
  returning h.site_id into v_site;
  if v_site is null then
    if not exists (select 1 from private.analytics_shares h where h.token = p_token) then
      perform private.analytics_share_not_found();
    end if;
    raise exception 'This share link has been used too often in the last minute. Try again in a minute.'
      using errcode = 'PT429', hint = 'analytics_share_rate';
  end if;
  return private.analytics_visitors_now(v_site);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb DEFAULT '{}'::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
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
$function$
;

alter function private.analytics_own_site(p_site_id uuid) set search_path to '';
alter function private.analytics_share_not_found() set search_path to '';
alter function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) set search_path to '';
alter function public.analytics_share_create(p_site_id uuid) set search_path to '';
alter function public.analytics_share_get(p_site_id uuid) set search_path to '';
alter function public.analytics_share_revoke(p_site_id uuid) set search_path to '';
alter function public.analytics_shared_site(p_token text) set search_path to '';
alter function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) set search_path to '';
alter function public.analytics_shared_visitors_now(p_token text) set search_path to '';
comment on function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) is 'The stats of a site, whoever asks: the body of analytics_stats() and analytics_shared_stats(), which check who may read them.';
comment on function public.analytics_share_create(p_site_id uuid) is 'Makes a new public share token for the caller''s site, replacing (and so revoking) any earlier one; returns it.';
comment on function public.analytics_share_get(p_site_id uuid) is 'The share token of the caller''s site, or null when it has none.';
comment on function public.analytics_share_revoke(p_site_id uuid) is 'Deletes the share link of the caller''s site; true when there was one.';
comment on function public.analytics_shared_site(p_token text) is 'The name and domains of the site a share token opens; refused (hint analytics_share_not_found) for an unknown or revoked token.';
comment on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) is 'analytics_stats() of the site a share token opens, for at most 366 days and 60 calls a minute per token; refused for an unknown or revoked token.';
comment on function public.analytics_shared_visitors_now(p_token text) is 'Visitors in the last 5 minutes of the site a share token opens, at most 120 calls a minute per token; refused for an unknown or revoked token.';
comment on table private.analytics_shares is 'The public share link of a site''s stats (at most one per site) and its per-minute call counters.';
grant execute on function private.analytics_own_site(p_site_id uuid) to postgres;
grant execute on function private.analytics_share_not_found() to postgres;
grant execute on function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) to postgres;
grant execute on function public.analytics_share_create(p_site_id uuid) to authenticated;
grant execute on function public.analytics_share_create(p_site_id uuid) to postgres;
grant execute on function public.analytics_share_get(p_site_id uuid) to authenticated;
grant execute on function public.analytics_share_get(p_site_id uuid) to postgres;
grant execute on function public.analytics_share_revoke(p_site_id uuid) to authenticated;
grant execute on function public.analytics_share_revoke(p_site_id uuid) to postgres;
grant execute on function public.analytics_shared_site(p_token text) to anon;
grant execute on function public.analytics_shared_site(p_token text) to authenticated;
grant execute on function public.analytics_shared_site(p_token text) to postgres;
grant execute on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) to anon;
grant execute on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) to authenticated;
grant execute on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) to postgres;
grant execute on function public.analytics_shared_visitors_now(p_token text) to anon;
grant execute on function public.analytics_shared_visitors_now(p_token text) to authenticated;
grant execute on function public.analytics_shared_visitors_now(p_token text) to postgres;
revoke execute on function private.analytics_own_site(p_site_id uuid) from public;
revoke execute on function private.analytics_share_not_found() from public;
revoke execute on function private.analytics_site_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb) from public;
revoke execute on function public.analytics_share_create(p_site_id uuid) from public;
revoke execute on function public.analytics_share_get(p_site_id uuid) from public;
revoke execute on function public.analytics_share_revoke(p_site_id uuid) from public;
revoke execute on function public.analytics_shared_site(p_token text) from public;
revoke execute on function public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb) from public;
revoke execute on function public.analytics_shared_visitors_now(p_token text) from public;
