-- Webhook payloads carry the entry's files: claim_webhook_deliveries() gives each file's metadata
-- and object key, which the sender signs into a URL that expires (WEBHOOKS.fileUrlSeconds).

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.claim_webhook_deliveries(p_id uuid, p_entry_id uuid, p_limit integer, p_lease_seconds integer)
 RETURNS TABLE(id uuid, lease uuid, attempts integer, event text, round_started_at timestamp with time zone, webhook_id uuid, url text, format text, secret text, form_id uuid, form_name text, entry jsonb, allow_local boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  c_per_host_minute constant integer := 60;
  v_due record;
  v_host text;
  v_oldest timestamptz;
  v_claimed uuid[] := '{}';
begin
  for v_due in
    select d.id, d.user_id, w.url
      from public.webhook_deliveries d
      join public.webhooks w on w.id = d.webhook_id
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
       -- By id only a delivery never tried yet (the dashboard's "send now" after queueing one).
       and (p_id is null or (d.id = p_id and d.attempts = 0))
       and (p_entry_id is null or d.entry_id = p_entry_id)
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update of d skip locked
  loop
    v_host := private.url_host(v_due.url);
    perform pg_advisory_xact_lock(
      hashtextextended('tinyback.webhook-host:' || v_due.user_id::text || ':' || v_host, 0));
    if private.ledger_count('webhook_attempt', now() - interval '1 minute', c_per_host_minute,
                            v_due.user_id, v_host) >= c_per_host_minute then
      select min(l.created_at) into v_oldest from (
        select l.created_at from private.action_ledger l
         where l.kind = 'webhook_attempt' and l.user_id = v_due.user_id and l.target = v_host
           and l.created_at > now() - interval '1 minute'
         order by l.created_at desc limit c_per_host_minute) l;
      update public.webhook_deliveries d
         set status = 'pending', lease = null, locked_until = null,
             next_attempt_at = coalesce(v_oldest, now()) + interval '1 minute', updated_at = now()
       where d.id = v_due.id;
      continue;
    end if;
    insert into private.action_ledger (kind, user_id, target) values ('webhook_attempt', v_due.user_id, v_host);
    v_claimed := v_claimed || v_due.id;
  end loop;

  return query
  with claimed as (
    update public.webhook_deliveries d
       set status = 'sending',
           attempts = d.attempts + 1,
           lease = gen_random_uuid(),
           locked_until = now() + make_interval(secs => p_lease_seconds),
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           updated_at = now()
     where d.id = any (v_claimed)
    returning d.*
  )
  select c.id, c.lease, c.attempts, c.event, c.round_started_at, w.id, w.url, w.format, w.secret,
         f.id, f.name,
         case when e.id is null then null else jsonb_build_object(
           'id', e.id, 'name', e.name, 'email', e.email, 'message', e.message, 'data', e.data,
           'is_spam', e.is_spam, 'created_at', e.created_at,
           -- The entry's files (16-uploads.sql): the sender signs each key into an expiring URL.
           'files', coalesce((select jsonb_agg(jsonb_build_object(
               'name', ef.name, 'size', ef.size, 'kind', ef.kind, 'mime_type', ef.mime_type,
               'object_key', ef.object_key) order by ef."position")
             from public.entry_files ef where ef.entry_id = e.id), '[]'::jsonb)) end,
         coalesce((select s.allow_local from private.webhook_settings s where s.id), false)
    from claimed c
    join public.webhooks w on w.id = c.webhook_id
    join public.forms f on f.id = w.form_id
    left join public.entries e on e.id = c.entry_id;
end;
$function$
;
