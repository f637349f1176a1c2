-- Filtered views probe each entry's bounce verdict by primary key (a narrow filter reads a few
-- verdicts, not the range's); the share links' minute budget is counted in one function.
set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.analytics_share_take(p_token text, p_stats boolean)
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_shared_stats(p_token text, p_from date, p_to date, p_filters jsonb DEFAULT '{}'::jsonb)
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
$function$
;

CREATE OR REPLACE FUNCTION public.analytics_shared_visitors_now(p_token text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return private.analytics_visitors_now(private.analytics_share_take(p_token, false));
end;
$function$
;

alter function private.analytics_share_take(p_token text, p_stats boolean) set search_path to '';
comment on function private.analytics_share_take(p_token text, p_stats boolean) is 'Counts a call of a share token against its minute budget (stats or visitors now) and returns its site; refused when the token is unknown or over budget.';
grant execute on function private.analytics_share_take(p_token text, p_stats boolean) to postgres;
revoke execute on function private.analytics_share_take(p_token text, p_stats boolean) from public;
