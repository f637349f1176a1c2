alter table "public"."campaigns" add column "from_name" text;

alter table "public"."campaigns" add column "reply_to" text;

alter table "public"."campaigns" add constraint "campaigns_from_name" CHECK (((from_name IS NULL) OR ((char_length(from_name) >= 1) AND (char_length(from_name) <= 60) AND (btrim(from_name) <> ''::text) AND (from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]'::text)))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_from_name";

alter table "public"."campaigns" add constraint "campaigns_reply_to" CHECK (((reply_to IS NULL) OR ((char_length(reply_to) <= 254) AND (reply_to ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'::text)))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_reply_to";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.campaigns_prepare()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  -- A campaign goes to a list of its own owner, and is edited only while it is a draft.
  if not exists (select 1 from public.newsletter_lists l where l.id = new.list_id and l.user_id = new.user_id) then
    raise exception 'Choose one of your lists.' using errcode = '23503';
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft'
     and (new.subject, new.body_markdown, new.list_id, new.from_name, new.reply_to)
         is distinct from (old.subject, old.body_markdown, old.list_id, old.from_name, old.reply_to) then
    raise exception 'Only a draft can be edited.' using errcode = '55000';
  end if;
  new.from_name := nullif(btrim(coalesce(new.from_name, '')), '');
  new.reply_to := nullif(lower(btrim(coalesce(new.reply_to, ''))), '');
  new.updated_at := now();
  return new;
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
               c.subject, c.body_markdown, l.name,
               coalesce(c.from_name, l.from_name), coalesce(c.reply_to, l.reply_to)
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

CREATE OR REPLACE FUNCTION public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_per_hour integer := coalesce((p_caps ->> 'per_account_hour')::integer, 10);
  v_per_day integer := coalesce((p_caps ->> 'per_account_day')::integer, 30);
  v_campaign public.campaigns;
  v_list public.newsletter_lists;
  v_recipient text;
begin
  select c.* into v_campaign from public.campaigns c where c.id = p_campaign_id and c.user_id = p_user_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if char_length(coalesce(p_subject, '')) > 220 or octet_length(coalesce(p_text, '')) > 200 * 1024
     or octet_length(coalesce(p_html, '')) > 600 * 1024 then
    raise exception 'campaign_send_test: the rendered test is too large' using errcode = '22023';
  end if;
  -- A test goes to the account's own sign-in address only, never to one the caller names.
  select u.email into v_recipient from auth.users u where u.id = p_user_id;
  if v_recipient is null or not public.autoresponse_address_ok(lower(v_recipient)) then
    return jsonb_build_object('status', 'no_address');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.campaign-test:' || p_user_id::text, 0));
  if private.ledger_count('campaign_test', now() - interval '1 hour', v_per_hour, p_user_id) >= v_per_hour then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  if private.ledger_count('campaign_test', now() - interval '1 day', v_per_day, p_user_id) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 86400);
  end if;
  insert into private.action_ledger (kind, user_id) values ('campaign_test', p_user_id);
  select l.* into v_list from public.newsletter_lists l where l.id = v_campaign.list_id;
  insert into public.email_deliveries
      (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name)
    values ('campaign_test', p_user_id, lower(v_recipient), p_subject,
            coalesce(v_campaign.reply_to, v_list.reply_to), p_text, p_html,
            coalesce(v_campaign.from_name, v_list.from_name, private.autoresponse_from_name(v_list.name)));
  return jsonb_build_object('status', 'ok', 'recipient', lower(v_recipient));
end;
$function$
;

grant insert (from_name) on table public.campaigns to authenticated;
grant insert (reply_to) on table public.campaigns to authenticated;
grant update (from_name) on table public.campaigns to authenticated;
grant update (reply_to) on table public.campaigns to authenticated;
