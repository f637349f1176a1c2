-- Filtered analytics views count the bounces of rolled-up days from verdicts the rollup keeps
-- (private.analytics_bounces) instead of reading each entry's visit again; the grouping-sets rows
-- name their kind through one function.
create table "private"."analytics_bounces" (
    "site_id" uuid not null,
    "at" timestamp with time zone not null,
    "visitor" bigint not null
      );


CREATE UNIQUE INDEX analytics_bounces_pkey ON private.analytics_bounces USING btree (site_id, at, visitor);

alter table "private"."analytics_bounces" add constraint "analytics_bounces_pkey" PRIMARY KEY using index "analytics_bounces_pkey";

alter table "private"."analytics_bounces" add constraint "analytics_bounces_site_id_fkey" FOREIGN KEY (site_id) REFERENCES analytics_sites(id) ON DELETE CASCADE not valid;

alter table "private"."analytics_bounces" validate constraint "analytics_bounces_site_id_fkey";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.analytics_cell_kind(p_grouping integer)
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_judge_visits(p_site_id uuid, p_day date)
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_raw_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_filters jsonb, p_detail boolean)
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
        left join private.analytics_bounces b
          on b.site_id = $1 and b.at >= $2 and b.at < least($3, $5)
         and b.at = ev.at and b.visitor = ev.visitor
       where ev.entry
         and case when ev.at < $5 then b.site_id is not null
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_rollup(p_limit integer DEFAULT 20)
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
$function$
;

CREATE OR REPLACE FUNCTION private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean)
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
$function$
;

alter function private.analytics_judge_visits(p_site_id uuid, p_day date) set search_path to '';
alter function private.analytics_raw_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_filters jsonb, p_detail boolean) set work_mem to '32MB';
comment on function private.analytics_cell_kind(p_grouping integer) is 'The kind of a grouping-sets row of the analytics cells (day, hour or the breakdown it keeps) from grouping() of its twelve bucket columns.';
comment on function private.analytics_judge_visits(p_site_id uuid, p_day date) is 'Keeps the bounced entries of a closed UTC day of a site in analytics_bounces; run by analytics_rollup().';
comment on table private.analytics_bounces is 'The entries (time and visitor) of a site''s rolled-up days whose visit had exactly one page view; written by analytics_rollup(), deleted with the raw events.';
grant execute on function private.analytics_cell_kind(p_grouping integer) to postgres;
grant execute on function private.analytics_judge_visits(p_site_id uuid, p_day date) to postgres;
revoke execute on function private.analytics_cell_kind(p_grouping integer) from public;
revoke execute on function private.analytics_judge_visits(p_site_id uuid, p_day date) from public;

-- The days rolled up before verdicts were kept get theirs now.
select private.analytics_judge_visits(m.site_id, d::date)
  from private.analytics_rollup_marks m
  cross join lateral generate_series(
    (select (min(e.at) at time zone 'UTC')::date from private.analytics_events e
      where e.site_id = m.site_id)::timestamp,
    m.rolled_through::timestamp, interval '1 day') d;
