-- A batch's finish stops once every result is recorded, without reading its rows again
-- (supabase/schemas/05-outbox.sql).
set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.finish_email_deliveries(p_results jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  v_count integer := 0;
  v_done integer;
  v_results integer := jsonb_array_length(coalesce(p_results, '[]'::jsonb));
begin
  -- A batch never waits for a row another transaction holds: deleting a form, an entry or an
  -- account locks the same rows through its cascades in another order, and a batch that waited
  -- for one of them while holding the others would deadlock with it (and either the owner's
  -- delete or the batch's record of what was sent would fail). A held row is tried again a few
  -- times, 50 ms apart; a row deleted meanwhile is gone; one still held after that stays
  -- 'sending' until its lease runs out.
  for v_try in 1 .. 20 loop
    with results as (
      select r.*
        from jsonb_to_recordset(coalesce(p_results, '[]'::jsonb))
               as r(id uuid, lease uuid, sent boolean, error text, retry_in_seconds integer)
    ), free as (
      select d.id
        from public.email_deliveries d
        join results r on r.id = d.id
       where d.lease = r.lease and d.status = 'sending'
       order by d.id
         for update of d skip locked
    )
    update public.email_deliveries d
       set status = case
                      when r.sent then 'sent'
                      when r.retry_in_seconds is null then 'failed'
                      else 'pending'
                    end,
           sent_at = case when r.sent then now() else d.sent_at end,
           last_error = case when r.sent then d.last_error else left(r.error, 1000) end,
           next_attempt_at = case
                               when r.sent or r.retry_in_seconds is null then d.next_attempt_at
                               else now() + make_interval(secs => r.retry_in_seconds)
                             end,
           lease = null,
           locked_until = null
      from results r, free f
     where d.id = f.id and r.id = f.id;
    get diagnostics v_done = row_count;
    v_count := v_count + v_done;
    -- Every result recorded (the usual case): nothing is left to look for.
    exit when v_count = v_results;
    exit when not exists (
      select 1
        from jsonb_to_recordset(coalesce(p_results, '[]'::jsonb)) as r(id uuid, lease uuid)
        join public.email_deliveries d on d.id = r.id
       where d.lease = r.lease and d.status = 'sending');
    perform pg_sleep(0.05);
  end loop;
  return v_count;
end;
$function$
;
