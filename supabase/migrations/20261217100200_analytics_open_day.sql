-- Analytics stats, the open day: the scheduled pass also rolls up today until 5 minutes ago
-- (every 10 minutes; analytics_rollup_today(), the mark's partial_through), and the dashboard adds
-- what the events since then change (analytics_tail_cells(): new visitors per row, visits, page
-- views, events, bounces judged again), instead of counting the whole day's raw events.

alter table "private"."analytics_rollup_marks" add column "partial_through" timestamp with time zone;

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone)
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
    select case when grouping(ev.hour) = 0 then 'hour'
                when grouping(ev.path) = 0 then 'page'
                when grouping(ev.entry_page) = 0 then 'entry_page'
                when grouping(ev.referrer) = 0 then 'referrer'
                when grouping(ev.utm_source) = 0 then 'utm_source'
                when grouping(ev.utm_medium) = 0 then 'utm_medium'
                when grouping(ev.utm_campaign) = 0 then 'utm_campaign'
                when grouping(ev.country) = 0 then 'country'
                when grouping(ev.browser) = 0 then 'browser'
                when grouping(ev.os) = 0 then 'os'
                when grouping(ev.device) = 0 then 'device'
                when grouping(ev.custom) = 0 then 'event'
                else 'day' end as kind,
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

CREATE OR REPLACE FUNCTION private.analytics_cells(p_site_id uuid, p_from date, p_to date, p_filters jsonb, p_detail boolean)
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

alter function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone) set search_path to '';
alter function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean) set search_path to '';
comment on function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone) is 'Rolls up the open UTC day of a site until p_until (its rows and the mark''s partial_through), when the days before it are rolled up.';
comment on function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean) is 'What a day''s events from p_from add to its rows rolled up until p_from (visitors new to a row, visits, page views, events, the change in bounces); unfiltered.';
comment on table private.analytics_rollup_marks is 'The last closed UTC day of each site that analytics_rollups holds, and how far into the next day (today) its rows there reach, if at all; later events are read raw.';
grant execute on function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone) to postgres;
grant execute on function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean) to postgres;
revoke execute on function private.analytics_rollup_today(p_site_id uuid, p_until timestamp with time zone) from public;
revoke execute on function private.analytics_tail_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_detail boolean) from public;
