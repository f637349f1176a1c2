-- Campaign sending: claim (due scheduled campaigns start; leases fair across accounts within per-call and daily ceilings),
-- begin (marked 'sending' before SMTP) and finish (under each message's own lease; an interrupted send is never repeated).

create table "private"."campaign_account_days" (
    "user_id" uuid not null,
    "day" date not null,
    "messages" integer not null default 0,
    "last_claim_at" timestamp with time zone
      );


alter table "private"."campaign_account_days" enable row level security;

CREATE UNIQUE INDEX campaign_account_days_pkey ON private.campaign_account_days USING btree (user_id, day);

CREATE INDEX campaign_messages_sending_idx ON private.campaign_messages USING btree (locked_until) WHERE (status = 'sending'::text);

alter table "private"."campaign_account_days" add constraint "campaign_account_days_pkey" PRIMARY KEY using index "campaign_account_days_pkey";

alter table "private"."campaign_account_days" add constraint "campaign_account_days_messages" CHECK ((messages >= 0)) not valid;

alter table "private"."campaign_account_days" validate constraint "campaign_account_days_messages";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.campaign_complete(p_campaign_ids uuid[])
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  update public.campaigns c set status = 'sent', finished_at = now()
   where c.id = any (p_campaign_ids) and c.status = 'sending'
     and not exists (select 1 from private.campaign_messages m
                      where m.campaign_id = c.id and m.status = any (array['queued'::text, 'sending'::text]));
$function$
;

CREATE OR REPLACE FUNCTION private.campaign_promote_due(p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_campaign public.campaigns;
  v_recipients integer;
  v_promoted integer := 0;
begin
  for v_campaign in
    select c.* from public.campaigns c
     where c.status = 'scheduled' and c.scheduled_at <= now()
     order by c.scheduled_at
     limit greatest(p_limit, 0)
       for update skip locked
  loop
    -- The recipients as campaign_start fixes them: the list's confirmed subscribers now.
    insert into private.campaign_messages (campaign_id, subscriber_id)
      select v_campaign.id, s.id from public.list_subscribers s
       where s.list_id = v_campaign.list_id and s.status = 'confirmed'
      on conflict do nothing;
    select count(*)::integer into v_recipients from private.campaign_messages m where m.campaign_id = v_campaign.id;
    update public.campaigns c
       set status = 'sending', scheduled_at = null, started_at = now(), recipients = v_recipients
     where c.id = v_campaign.id;
    v_promoted := v_promoted + 1;
  end loop;
  return v_promoted;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.campaign_begin(p_lease uuid, p_messages jsonb)
 RETURNS TABLE(campaign_id uuid, subscriber_id uuid, attempts integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
begin
  return query
    with wanted as (
      select distinct (x ->> 'campaign_id')::uuid as campaign_id, (x ->> 'subscriber_id')::uuid as subscriber_id
        from jsonb_array_elements(coalesce(p_messages, '[]'::jsonb)) x
    ),
    held as (
      select m.campaign_id, m.subscriber_id, c.user_id, c.status as campaign_status, s.status as subscriber_status
        from private.campaign_messages m
        join wanted w on w.campaign_id = m.campaign_id and w.subscriber_id = m.subscriber_id
        join public.campaigns c on c.id = m.campaign_id
        join public.list_subscribers s on s.id = m.subscriber_id
       -- By the primary key, whatever the planner guesses of the list's size.
       where m.campaign_id = any (array(select w2.campaign_id from wanted w2))
         and m.subscriber_id = any (array(select w2.subscriber_id from wanted w2))
         and m.lease = p_lease and m.status = 'queued' and m.locked_until > now()
       order by m.campaign_id, m.subscriber_id
         for update of m skip locked
    ),
    -- Left or bounced since the claim: skipped.
    gone as (
      update private.campaign_messages m
         set status = 'skipped', lease = null, locked_until = null, last_error = 'No longer subscribed.'
        from held h
       where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
         and h.subscriber_status <> 'confirmed'
      returning m.campaign_id
    ),
    -- Paused since the claim: back in the queue.
    released as (
      update private.campaign_messages m set lease = null, locked_until = null
        from held h
       where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
         and h.subscriber_status = 'confirmed' and h.campaign_status <> 'sending'
      returning m.campaign_id
    ),
    -- Neither counts against the account's day.
    given_back as (
      update private.campaign_account_days d set messages = greatest(0, d.messages - g.n)
        from (select h.user_id, count(*)::integer as n from held h
               where h.subscriber_status <> 'confirmed' or h.campaign_status <> 'sending'
               group by h.user_id) g
       where d.user_id = g.user_id and d.day = (now() at time zone 'UTC')::date
      returning d.user_id
    ),
    begun as (
      update private.campaign_messages m set status = 'sending', attempts = m.attempts + 1
        from held h
       where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
         and h.subscriber_status = 'confirmed' and h.campaign_status = 'sending'
      returning m.campaign_id, m.subscriber_id, m.attempts
    )
    select b.campaign_id, b.subscriber_id, b.attempts from begun b;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer DEFAULT 50000, p_new_account_per_day integer DEFAULT 500, p_account_interval_ms integer DEFAULT 1000)
 RETURNS TABLE(campaign_id uuid, subscriber_id uuid, lease uuid, attempts integer, user_id uuid, list_id uuid, recipient text, recipient_name text, subject text, body_markdown text, list_name text, from_name text, reply_to text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_lease uuid := gen_random_uuid();
  v_until timestamp with time zone := now() + make_interval(secs => greatest(p_lease_seconds, 1));
  v_accounts uuid[];
  v_fair integer;
  v_total integer := 0;
  v_account uuid;
  v_created timestamp with time zone;
  v_used integer;
  v_last timestamp with time zone;
  v_cap integer;
  v_take integer;
  v_campaign uuid;
  v_got integer;
  v_account_got integer;
begin
  perform private.campaign_promote_due(20);

  -- Sends whose lease ran out unfinished: the server may have taken them, so they are never sent
  -- again; they count as failed with the reason.
  with expired as (
    update private.campaign_messages m
       set status = 'failed', lease = null, locked_until = null,
           last_error = 'Interrupted while sending: it may have been delivered, so it is not sent again.'
     where (m.campaign_id, m.subscriber_id) in (
             select x.campaign_id, x.subscriber_id from private.campaign_messages x
              where x.status = 'sending' and x.locked_until < now()
              limit 1000 for update skip locked)
    returning m.campaign_id
  )
  update public.campaigns c set failed = c.failed + e.n
    from (select e.campaign_id, count(*)::integer as n from expired e group by e.campaign_id) e
   where c.id = e.campaign_id;

  -- Campaigns with nothing left to send (none left after the expiry above, or none to begin with).
  perform private.campaign_complete(array(select c.id from public.campaigns c where c.status = 'sending'));
  delete from private.campaign_account_days d where d.day < v_today - 7;

  -- Round robin: the accounts served least recently first, each at most its fair share of the call.
  select array_agg(a.user_id order by d.last_claim_at nulls first, a.user_id) into v_accounts
    from (select distinct c.user_id from public.campaigns c where c.status = 'sending') a
    left join private.campaign_account_days d on d.user_id = a.user_id and d.day = v_today;
  if v_accounts is null or p_limit <= 0 then
    return;
  end if;
  v_fair := greatest(1, ceil(p_limit::numeric / cardinality(v_accounts))::integer);

  foreach v_account in array v_accounts loop
    exit when v_total >= p_limit;
    -- One claim at a time per account, so its daily ceiling holds between racing senders.
    perform pg_advisory_xact_lock(hashtextextended('tinyback.campaign-account:' || v_account::text, 0));
    select u.created_at into v_created from auth.users u where u.id = v_account;
    select coalesce(max(d.messages), 0), max(d.last_claim_at) into v_used, v_last
      from private.campaign_account_days d
     where d.user_id = v_account and d.day = v_today;
    -- At most one share per account per interval, whichever sender asks: the rate per account
    -- holds across every instance sending.
    continue when v_last > now() - make_interval(secs => greatest(p_account_interval_ms, 0) / 1000.0);
    -- A new account cannot mail a hundred thousand strangers on its first day.
    v_cap := case when v_created is null or v_created > now() - interval '7 days'
                  then least(p_new_account_per_day, p_per_account_per_day) else p_per_account_per_day end;
    v_take := least(p_per_account_per_second, v_cap - v_used, p_limit - v_total, v_fair);
    continue when v_take <= 0;
    v_account_got := 0;
    for v_campaign in
      select c.id from public.campaigns c
       where c.user_id = v_account and c.status = 'sending' order by c.started_at, c.id
    loop
      exit when v_account_got >= v_take;
      return query
        with picked as (
          select m.campaign_id, m.subscriber_id from private.campaign_messages m
           where m.campaign_id = v_campaign and m.status = 'queued'
             and (m.locked_until is null or m.locked_until < now())
           limit v_take - v_account_got
             for update skip locked
        ),
        -- Only confirmed subscribers are mailed: whoever left or bounced since the start is skipped.
        gone as (
          update private.campaign_messages m
             set status = 'skipped', lease = null, locked_until = null, last_error = 'No longer subscribed.'
            from picked p, public.list_subscribers s
           where m.campaign_id = p.campaign_id and m.subscriber_id = p.subscriber_id
             and s.id = p.subscriber_id and s.status <> 'confirmed'
          returning m.subscriber_id
        ),
        leased as (
          update private.campaign_messages m set lease = v_lease, locked_until = v_until
            from picked p, public.list_subscribers s
           where m.campaign_id = p.campaign_id and m.subscriber_id = p.subscriber_id
             and s.id = p.subscriber_id and s.status = 'confirmed'
          returning m.campaign_id, m.subscriber_id, m.attempts, s.email, s.name
        )
        select x.campaign_id, x.subscriber_id, v_lease, x.attempts, c.user_id, c.list_id, x.email, x.name,
               c.subject, c.body_markdown, l.name, l.from_name, l.reply_to
          from leased x
          join public.campaigns c on c.id = x.campaign_id
          join public.newsletter_lists l on l.id = c.list_id;
      get diagnostics v_got = row_count;
      v_account_got := v_account_got + v_got;
      if v_got = 0 then
        -- Nothing claimable here now: finished unless some are leased or waiting to be retried.
        perform private.campaign_complete(array[v_campaign]);
      end if;
    end loop;
    insert into private.campaign_account_days as d (user_id, day, messages, last_claim_at)
      values (v_account, v_today, v_account_got, now())
      on conflict on constraint campaign_account_days_pkey
      do update set messages = d.messages + excluded.messages, last_claim_at = now();
    v_total := v_total + v_account_got;
  end loop;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.campaign_finish(p_results jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_recorded integer;
  v_campaigns uuid[];
begin
  with given as (
    select distinct on ((x ->> 'campaign_id')::uuid, (x ->> 'subscriber_id')::uuid)
           (x ->> 'campaign_id')::uuid as campaign_id, (x ->> 'subscriber_id')::uuid as subscriber_id,
           (x ->> 'lease')::uuid as lease, x ->> 'outcome' as outcome, left(x ->> 'error', 1000) as error,
           (x ->> 'retry_in_seconds')::integer as retry_in_seconds
      from jsonb_array_elements(coalesce(p_results, '[]'::jsonb)) x
     where x ->> 'outcome' = any (array['sent', 'failed', 'bounced', 'retry', 'released'])
  ),
  -- Only under each message's own lease, and only from the state its outcome follows: 'released'
  -- (never begun) from 'queued', every other outcome from 'sending'.
  held as (
    select m.campaign_id, m.subscriber_id, g.outcome, g.error, g.retry_in_seconds, c.user_id
      from private.campaign_messages m
      join given g on g.campaign_id = m.campaign_id and g.subscriber_id = m.subscriber_id and g.lease = m.lease
      join public.campaigns c on c.id = m.campaign_id
     -- By the primary key, whatever the planner guesses of the list's size.
     where m.campaign_id = any (array(select g2.campaign_id from given g2))
       and m.subscriber_id = any (array(select g2.subscriber_id from given g2))
       and m.status = case when g.outcome = 'released' then 'queued' else 'sending' end
     order by m.campaign_id, m.subscriber_id
       for update of m skip locked
  ),
  recorded as (
    update private.campaign_messages m
       set status = case when h.outcome in ('retry', 'released') then 'queued' else h.outcome end,
           lease = null,
           locked_until = case when h.outcome = 'retry'
                               then now() + make_interval(secs => greatest(coalesce(h.retry_in_seconds, 60), 0))
                               end,
           sent_at = case when h.outcome = 'sent' then now() else m.sent_at end,
           last_error = case when h.outcome in ('sent', 'released') then m.last_error else h.error end
      from held h
     where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
    returning m.campaign_id
  ),
  counted as (
    update public.campaigns c
       set sent = c.sent + t.sent, failed = c.failed + t.failed, bounced = c.bounced + t.bounced
      from (select h.campaign_id,
                   count(*) filter (where h.outcome = 'sent')::integer as sent,
                   count(*) filter (where h.outcome = 'failed')::integer as failed,
                   count(*) filter (where h.outcome = 'bounced')::integer as bounced
              from held h group by h.campaign_id) t
     where c.id = t.campaign_id and t.sent + t.failed + t.bounced > 0
    returning c.id
  ),
  -- A permanent refusal (5xx) of the address: the subscriber is mailed no more.
  bounced as (
    update public.list_subscribers s set status = 'bounced', bounced_at = now()
      from held h
     where h.outcome = 'bounced' and s.id = h.subscriber_id and s.status = 'confirmed'
    returning s.id
  ),
  -- Messages that go back to the queue do not count against the account's day.
  given_back as (
    update private.campaign_account_days d set messages = greatest(0, d.messages - b.n)
      from (select h.user_id, count(*)::integer as n from held h
             where h.outcome in ('retry', 'released') group by h.user_id) b
     where d.user_id = b.user_id and d.day = (now() at time zone 'UTC')::date
    returning d.user_id
  )
  select count(*)::integer, array_agg(distinct r.campaign_id)
    into v_recorded, v_campaigns
    from recorded r;

  perform private.campaign_complete(coalesce(v_campaigns, array[]::uuid[]));
  return v_recorded;
end;
$function$
;

alter function private.campaign_complete(p_campaign_ids uuid[]) set search_path to '';
alter function private.campaign_promote_due(p_limit integer) set search_path to '';
alter function public.campaign_begin(p_lease uuid, p_messages jsonb) set search_path to '';
alter function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) set search_path to '';
alter function public.campaign_finish(p_results jsonb) set search_path to '';
comment on function public.campaign_begin(p_lease uuid, p_messages jsonb) is 'Marks leased messages [{campaign_id, subscriber_id}] ''sending'' right before their SMTP transactions and returns them; skips subscribers who left and releases messages of paused campaigns. A ''sending'' message is never claimed again.';
comment on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) is 'Starts due scheduled campaigns, then leases up to p_limit queued messages of sending campaigns to confirmed subscribers, round robin across accounts, at most p_per_account_per_second per account per p_account_interval_ms (whichever sender asks) and within the daily ceilings (p_new_account_per_day for accounts younger than 7 days).';
comment on function public.campaign_finish(p_results jsonb) is 'Records messages [{campaign_id, subscriber_id, lease, outcome sent|failed|bounced|retry|released, error, retry_in_seconds}] under their own lease, counts them on their campaigns, marks bounced subscribers, and marks a campaign sent when nothing is left.';
comment on table private.campaign_account_days is 'Campaign messages claimed per account and UTC day (the daily ceilings) and when the account was last served (round robin); references nothing, so deleting campaigns or lists resets nothing; purged by age only.';
grant execute on function private.campaign_complete(p_campaign_ids uuid[]) to postgres;
grant execute on function private.campaign_promote_due(p_limit integer) to postgres;
grant execute on function public.campaign_begin(p_lease uuid, p_messages jsonb) to postgres;
grant execute on function public.campaign_begin(p_lease uuid, p_messages jsonb) to service_role;
grant execute on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) to postgres;
grant execute on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) to service_role;
grant execute on function public.campaign_finish(p_results jsonb) to postgres;
grant execute on function public.campaign_finish(p_results jsonb) to service_role;
revoke execute on function private.campaign_complete(p_campaign_ids uuid[]) from public;
revoke execute on function private.campaign_promote_due(p_limit integer) from public;
revoke execute on function public.campaign_begin(p_lease uuid, p_messages jsonb) from public;
revoke execute on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) from public;
revoke execute on function public.campaign_finish(p_results jsonb) from public;
