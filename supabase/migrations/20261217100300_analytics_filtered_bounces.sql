-- Analytics stats: a filtered view judges each entry's visit through one index range (the visitor's
-- events from the entry to the end of the day, visits told apart by counting entries) instead of
-- two look-ups.

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
    -- One index range per entry: the visitor's events from it to the end of the day, in order;
    -- those before the next entry (k = 1) are its visit.
    v_bounced := $b$
      select ev.day, count(*) as n
        from ev
       where ev.entry
         and (select count(*) filter (where y.k = 1 and y.name = 'pageview')
                from (select x.name,
                             count(*) filter (where x.entry) over (order by x.at) as k
                        from private.analytics_events x
                       where x.site_id = $1 and x.visitor = ev.visitor and x.at >= ev.at
                         and x.at < (ev.day + 1)::timestamp at time zone 'UTC') y) = 1
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
