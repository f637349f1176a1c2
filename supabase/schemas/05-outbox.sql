-- Outbox
--
-- Every outgoing e-mail as a row (notifications, confirmations, autoresponses, warnings), claimed
-- and finished by the outbox worker.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.email_deliveries (
  id uuid default gen_random_uuid() not null,
  entry_id uuid,
  recipient text not null,
  subject text not null,
  reply_to text,
  text_body text not null,
  html_body text not null,
  status text default 'pending'::text not null,
  attempts integer default 0 not null,
  last_error text,
  next_attempt_at timestamp with time zone default now() not null,
  locked_until timestamp with time zone,
  lease uuid,
  sent_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  kind text default 'notification'::text not null,
  user_id uuid,
  source_entry_id uuid,
  from_name text,
  calendar text,
  calendar_method text,
  constraint email_deliveries_pkey PRIMARY KEY (id),
  constraint email_deliveries_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.entries(id) ON DELETE CASCADE,
  constraint email_deliveries_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint email_deliveries_entry_matches_kind CHECK (((kind = 'notification'::text) = (entry_id IS NOT NULL))),
  constraint email_deliveries_from_name check (
    from_name is null
    or (char_length(from_name) between 1 and 60
        and btrim(from_name) <> ''
        and from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]')
  ),
  constraint email_deliveries_headers_single_line CHECK (((recipient !~ '[\r\n]'::text) AND (subject !~ '[\r\n]'::text) AND (COALESCE(reply_to, ''::text) !~ '[\r\n]'::text))),
  constraint email_deliveries_kind CHECK ((kind = ANY (ARRAY['notification'::text, 'target_confirmation'::text, 'newsletter_confirmation'::text, 'autoresponse'::text, 'webhook_disabled'::text, 'quota_warning'::text, 'booking_confirmation'::text, 'booking_notice'::text, 'booking_cancellation'::text, 'list_confirmation'::text, 'campaign_test'::text]))),
  constraint email_deliveries_calendar CHECK ((((calendar IS NULL) = (calendar_method IS NULL)) AND ((calendar_method IS NULL) OR (calendar_method = ANY (ARRAY['REQUEST'::text, 'CANCEL'::text]))) AND (octet_length(calendar) <= (64 * 1024)))),
  constraint email_deliveries_size CHECK (((char_length(subject) <= 1000) AND (octet_length(text_body) <= (512 * 1024)) AND (octet_length(html_body) <= (1024 * 1024)))),
  constraint email_deliveries_source_entry_matches_kind CHECK (((source_entry_id IS NULL) OR (kind = 'autoresponse'::text))),
  constraint email_deliveries_status CHECK ((status = ANY (ARRAY['pending'::text, 'sending'::text, 'sent'::text, 'failed'::text])))
);
create index email_deliveries_due_idx ON public.email_deliveries (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text]));
-- The jobs being sent (claimed, under a lease): few at any time. The finish and the sweep of
-- expired leases find theirs here; without it they read the whole due index, every queued job,
-- on every batch, so a backlog made each batch slower the longer it grew.
create index email_deliveries_leased_idx ON public.email_deliveries (locked_until) WHERE (status = 'sending'::text);
create index email_deliveries_newsletter_created_idx ON public.email_deliveries (created_at) WHERE (kind = 'newsletter_confirmation'::text);
create index email_deliveries_source_entry_idx ON public.email_deliveries (source_entry_id) WHERE (source_entry_id IS NOT NULL);
create index email_deliveries_user_created_idx ON public.email_deliveries (user_id, created_at DESC) WHERE (user_id IS NOT NULL);
create unique index email_deliveries_entry_id_key ON public.email_deliveries (entry_id);
comment on table public.email_deliveries is
  'Notification e-mail outbox of the form endpoint; owners read the status of their entries'' mail.';
comment on column public.email_deliveries.kind is
  'notification (of an entry), target_confirmation (of a form''s address) or newsletter_confirmation.';
comment on column public.email_deliveries.user_id is
  'The account the mail is sent for (null for newsletter mail); per-account caps count by it.';
comment on column public.email_deliveries.source_entry_id is
  'autoresponse: the entry it answers; the copy is deleted with that entry (entries_delete_autoresponses).';
comment on column public.email_deliveries.calendar is
  'An iCalendar invitation sent with the mail (booking mail), in the METHOD calendar_method names.';
comment on column public.email_deliveries.from_name is
  'Display name the mail is sent with before MAIL_FROM''s address; null: MAIL_FROM as it is.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.claim_email_deliveries(p_id uuid, p_limit integer, p_lease_seconds integer, p_max_attempts integer)
 RETURNS TABLE(id uuid, lease uuid, attempts integer, recipient text, subject text, reply_to text, text_body text, html_body text, from_name text, calendar text, calendar_method text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
begin
  if p_id is not null then
    return query
    with due as (
      select d.id
        from public.email_deliveries d
       where d.id = p_id
         and d.status in ('pending', 'sending')
         and d.next_attempt_at <= now()
         and not (d.status = 'sending' and d.attempts >= p_max_attempts)
         and p_limit > 0
       for update skip locked
    )
    update public.email_deliveries d
       set status = 'sending',
           attempts = d.attempts + 1,
           lease = gen_random_uuid(),
           locked_until = now() + make_interval(secs => p_lease_seconds),
           next_attempt_at = now() + make_interval(secs => p_lease_seconds)
      from due
     where d.id = due.id
    returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body,
    d.from_name, d.calendar, d.calendar_method;
    return;
  end if;

  -- A lease sets next_attempt_at = locked_until, so expired leases are among the due jobs.
  update public.email_deliveries d
     set status = 'failed', lease = null, locked_until = null,
         last_error = coalesce(d.last_error, 'The sending worker stopped before finishing.')
   where d.status in ('pending', 'sending')
     and d.next_attempt_at <= now()
     and d.status = 'sending' and d.locked_until <= now() and d.attempts >= p_max_attempts;

  return query
  with due as (
    select d.id
      from public.email_deliveries d
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update skip locked
  )
  update public.email_deliveries d
     set status = 'sending',
         attempts = d.attempts + 1,
         lease = gen_random_uuid(),
         locked_until = now() + make_interval(secs => p_lease_seconds),
         next_attempt_at = now() + make_interval(secs => p_lease_seconds)
    from due
   where d.id = due.id
  returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body,
    d.from_name, d.calendar, d.calendar_method;
end;
$function$;
revoke all on function public.claim_email_deliveries(p_id uuid, p_limit integer, p_lease_seconds integer, p_max_attempts integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_email_deliveries(p_id uuid, p_limit integer, p_lease_seconds integer, p_max_attempts integer) to service_role;

create or replace function public.finish_email_deliveries(p_results jsonb)
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
$function$;
revoke all on function public.finish_email_deliveries(p_results jsonb) from public, anon, authenticated, service_role;
grant execute on function public.finish_email_deliveries(p_results jsonb) to service_role;

create or replace function public.finish_email_delivery(p_id uuid, p_lease uuid, p_sent boolean, p_error text, p_retry_in_seconds integer)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
begin
  update public.email_deliveries d
     set status = case
                    when p_sent then 'sent'
                    when p_retry_in_seconds is null then 'failed'
                    else 'pending'
                  end,
         sent_at = case when p_sent then now() else d.sent_at end,
         last_error = case when p_sent then d.last_error else left(p_error, 1000) end,
         next_attempt_at = case
                             when p_sent or p_retry_in_seconds is null then d.next_attempt_at
                             else now() + make_interval(secs => p_retry_in_seconds)
                           end,
         lease = null,
         locked_until = null
   where d.id = p_id and d.lease = p_lease and d.status = 'sending';
  return found;
end;
$function$;
revoke all on function public.finish_email_delivery(p_id uuid, p_lease uuid, p_sent boolean, p_error text, p_retry_in_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.finish_email_delivery(p_id uuid, p_lease uuid, p_sent boolean, p_error text, p_retry_in_seconds integer) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.email_deliveries enable row level security;
create policy "Deliveries are viewable by the owner of their entry" on public.email_deliveries
  for select to authenticated
  using ((EXISTS ( SELECT 1
   FROM public.entries e
  WHERE ((e.id = email_deliveries.entry_id) AND (e.user_id = ( SELECT auth.uid() AS uid))))));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.email_deliveries from public, anon, authenticated, service_role;
grant select on table public.email_deliveries to authenticated;
grant all on table public.email_deliveries to service_role;
