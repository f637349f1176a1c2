-- Analytics stats, faster: raw events are counted in one grouping-sets pass (day, hours and every
-- breakdown at once) and, unfiltered, bounces by numbering each visitor's visits in one sort;
-- analytics_stats() ranks each breakdown's values in one pass; an index on (site_id, path, at)
-- lets a page filter read only that page's events.

CREATE INDEX analytics_events_site_path_idx ON private.analytics_events USING btree (site_id, path, at);

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.analytics_raw_cells(p_site_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_filters jsonb, p_detail boolean)
 RETURNS TABLE(kind text, t timestamp with time zone, value text, visitors bigint, visits bigint, pageviews bigint, bounces bigint, events bigint)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  v_where text := private.analytics_filter_sql(p_filters);
  v_bounced text;
  v_groups text;
begin
  -- The events of [p_from, p_to) (whole UTC days) that pass the filters, counted per day (kind
  -- 'day'), and with p_detail per hour ('hour') and per day and breakdown value (kind = the
  -- dimension): the rows analytics_rollup() stores for a closed day, so rollups and raw events
  -- answer alike.
  --
  -- A bounce is a visit of one page view: from its entry to the visitor's next entry or the end
  -- of the day (the id ends with it). Unfiltered, every event of those visits is at hand and one
  -- sort numbers the visits; filtered, each remaining entry looks its visit up through the
  -- (site_id, visitor, at) index, whatever the filters left of it.
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
    v_bounced := $b$
      select ev.day, count(*) as n
        from ev
       where ev.entry
         and (select count(*) from private.analytics_events x
               where x.site_id = $1 and x.visitor = ev.visitor and x.name = 'pageview'
                 and x.at >= ev.at
                 and x.at < coalesce(
                       (select min(y.at) from private.analytics_events y
                         where y.site_id = $1 and y.visitor = ev.visitor and y.entry
                           and y.at > ev.at
                           and y.at < (ev.day + 1)::timestamp at time zone 'UTC'),
                       (ev.day + 1)::timestamp at time zone 'UTC')) = 1
       group by ev.day$b$;
  end if;

  -- One grouping-sets pass: the day, its hours and each dimension's values, with distinct
  -- visitors per set (a breakdown row's null value is "none" and is dropped below). Without
  -- p_detail (the previous period's totals) only the days.
  if p_detail then
    v_groups := $g$
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
  using p_site_id, p_from, p_to, p_detail;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_stats(p_site_id uuid, p_from date, p_to date, p_filters jsonb DEFAULT '{}'::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
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
  if not exists (select 1 from public.analytics_sites s
                  where s.id = p_site_id and s.user_id = (select auth.uid())) then
    return null;
  end if;
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
