-- Private internals: the tables no client reads or writes move from `public` to `private`.
--
-- Until now every table sat in `public`, the schema the Data API serves, and the internal ones
-- were hidden only by grants. These eight are counters, tokens and pending confirmations that only
-- the database's own definer functions touch — no Edge Function, no site page and no policy reads
-- them through the API:
--
--   submission_rate_limits, newsletter_rate_limits   fixed-window counters per client
--   notification_counts, notification_sends           caps on notification mail per account
--   newsletter_tokens                                  hashed confirm / unsubscribe tokens
--   target_email_confirmations, verified_target_emails  the notification address's confirmation
--   form_post_counts                                   posts per form by second (the per-form cap)
--
-- `alter table … set schema` keeps every row, index, constraint, trigger and foreign key; the
-- functions that name them are redefined below with the new schema (bodies otherwise unchanged),
-- and the tables lose every API role's grant, as `private`'s tables have none (only the definer
-- functions, owned by `postgres`, use them; the schema itself is closed to the API roles since
-- 20261127100000_action_ledger.sql).
--
-- Tables clients or Edge Functions reach through the API stay in `public` behind RLS and grants:
-- used_form_ids, form_captcha_secrets, plan_settings, webhook_settings, newsletter_subscribers.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
alter table public.submission_rate_limits set schema private;
alter table public.newsletter_rate_limits set schema private;
alter table public.notification_counts set schema private;
alter table public.notification_sends set schema private;
alter table public.newsletter_tokens set schema private;
alter table public.target_email_confirmations set schema private;
alter table public.verified_target_emails set schema private;
alter table public.form_post_counts set schema private;

revoke all on table
  private.submission_rate_limits, private.newsletter_rate_limits, private.notification_counts,
  private.notification_sends, private.newsletter_tokens, private.target_email_confirmations,
  private.verified_target_emails, private.form_post_counts
  from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Functions that name them (same bodies, `private.` for `public.`)
-- ------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer DEFAULT NULL::integer, p_account_per_hour integer DEFAULT NULL::integer, p_account_per_day integer DEFAULT NULL::integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
  v_recipient text;
  v_notify boolean;
  v_verified boolean;
  v_epoch double precision := extract(epoch from now());
  v_second bigint := floor(extract(epoch from now()))::bigint;
  v_hits integer[];
  v_units bigint[];
  v_hour_hits integer[];
  v_hour_units bigint[];
  v_retry_after integer := 0;
  v_skipped text;
  v_delivery_id uuid;
  v_key bytea;
  v_first uuid;
begin
  -- `for key share` keeps the form from being deleted until this transaction ends; its settings
  -- are read under the same lock, so the decision to e-mail follows the form as it is now.
  select f.user_id, f.target_email, f.notify_email, f.target_verified
    into v_owner, v_recipient, v_notify, v_verified
    from public.forms f where f.id = p_form_id for key share;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;

  -- A repeated key answers as the first post did. The key is claimed before anything is counted:
  -- a racing repeat waits on it here and then sees the first post's entry.
  if p_idempotency_key is not null then
    v_key := sha256(convert_to(p_idempotency_key, 'UTF8'));
    delete from private.post_idempotency i
     where i.form_id = p_form_id and i.created_at <= now() - interval '24 hours';
    insert into private.post_idempotency (form_id, key_hash, entry_id)
      values (p_form_id, v_key, p_entry_id)
      on conflict (form_id, key_hash) do nothing;
    if not found then
      select i.entry_id into v_first from private.post_idempotency i
       where i.form_id = p_form_id and i.key_hash = v_key;
      return private.repeated_post_answer(v_first);
    end if;
  end if;

  -- Per client (unless counted before the CAPTCHA check).
  if not p_client_counted then
    v_retry_after := private.take_client_allowance(p_form_id, p_ip_hash, p_per_minute, p_per_day);
    if v_retry_after > 0 then
      -- Nothing was stored: the key is free again for a later try.
      delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
      return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
    end if;
  end if;

  -- Per form, all clients together (a backstop when addresses are cheap): the posts of the last
  -- sixty seconds, by second, under the form's counter row lock so racing posts see each other.
  if p_form_per_minute is not null then
    select c.hits, c.units into v_hits, v_units
      from private.form_post_counts c where c.form_id = p_form_id for update;
    if not found then
      insert into private.form_post_counts (form_id) values (p_form_id) on conflict do nothing;
      select c.hits, c.units into v_hits, v_units
        from private.form_post_counts c where c.form_id = p_form_id for update;
    end if;
    if public.ring_count(v_hits, v_units, v_second - 59) >= p_form_per_minute then
      delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
      return jsonb_build_object(
        'status', 'rate_limited',
        'retry_after', greatest(
          ceil(public.ring_oldest(v_hits, v_units, v_second - 59) + 60 - v_epoch)::integer, 1)
      );
    end if;
    update private.form_post_counts c
       set (hits, units) = (select a.hits, a.units from public.ring_add(v_hits, v_units, v_second, 60, 1) a)
     where c.form_id = p_form_id;
  end if;

  -- Whether to e-mail, and if not, why. Spam is never e-mailed (is_spam says so).
  if not p_is_spam and p_notification is not null then
    if not v_notify then
      v_skipped := 'off';
    elsif not v_verified then
      v_skipped := 'unverified';
    elsif p_account_per_hour is not null or p_account_per_day is not null then
      -- One decision at a time per account (its counter row's lock, held to the end), so racing
      -- posts cannot both take the last slot.
      select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
        into v_hits, v_units, v_hour_hits, v_hour_units
        from private.notification_counts c where c.user_id = v_owner for update;
      if not found then
        insert into private.notification_counts (user_id) values (v_owner) on conflict do nothing;
        select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
          into v_hits, v_units, v_hour_hits, v_hour_units
          from private.notification_counts c where c.user_id = v_owner for update;
      end if;
      if p_account_per_hour is not null and public.ring_count(
           v_hits, v_units, floor(v_epoch / 60)::bigint - 60) >= p_account_per_hour then
        v_skipped := 'hourly_limit';
      elsif p_account_per_day is not null and public.ring_count(
           v_hour_hits, v_hour_units, floor(v_epoch / 3600)::bigint - 24) >= p_account_per_day then
        v_skipped := 'daily_limit';
      end if;
    end if;
  end if;

  -- The account's month (plan quota): last, so that a post refused for any other reason is never
  -- counted; in this transaction, so the count and the entry commit together.
  v_retry_after := private.take_submission_quota(v_owner, p_is_spam);
  if v_retry_after > 0 then
    delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
    return jsonb_build_object('status', 'quota_exceeded', 'retry_after', v_retry_after);
  end if;

  -- The visitor's network, for the autoresponder's per-visitor cap (its trigger reads it in this
  -- transaction only).
  perform set_config('tinyback.client', coalesce(p_ip_hash, ''), true);

  -- The entry's owner is set by the entries_set_owner trigger, from the form.
  insert into public.entries (id, form_id, name, email, message, data, is_spam, notification_skipped)
    values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb),
            p_is_spam, v_skipped);

  if not p_is_spam and p_notification is not null and v_skipped is null then
    insert into public.email_deliveries
        (kind, entry_id, user_id, recipient, subject, reply_to, text_body, html_body)
      values (
        'notification',
        p_entry_id,
        v_owner,
        v_recipient,
        p_notification ->> 'subject',
        nullif(p_notification ->> 'reply_to', ''),
        p_notification ->> 'text',
        p_notification ->> 'html'
      )
      returning id into v_delivery_id;
    perform public.count_notification_send(v_owner, now());
  end if;

  return jsonb_build_object(
    'status', 'accepted',
    'entry_id', p_entry_id,
    'delivery_id', v_delivery_id,
    'notification_skipped', v_skipped
  );
end;
$function$;

CREATE OR REPLACE FUNCTION public.compose_target_confirmations(p_link_prefix text, p_ttl_seconds integer, p_min_interval_seconds integer, p_per_account_per_day integer, p_per_recipient_per_day integer, p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_req private.target_email_confirmations%rowtype;
  v_queued integer := 0;
  v_token text;
  v_target text;
  v_account text;
  v_form text;
  v_link text;
  v_hours integer := greatest(1, round(p_ttl_seconds / 3600.0)::integer);
  v_valid text;
begin
  -- Requests whose address got verified meanwhile, or that no form of the account uses any more,
  -- have nothing left to confirm.
  delete from private.target_email_confirmations c
   where c.queued_at is null and c.skipped is null
     and (public.is_target_verified(c.user_id, c.email)
          or not exists (
            select 1 from public.forms f
             where f.user_id = c.user_id and lower(f.target_email) = c.email
          ));

  for v_req in
    select c.* from private.target_email_confirmations c
     where c.queued_at is null and c.skipped is null
       and not exists (
         select 1 from private.target_email_confirmations p
          where p.user_id = c.user_id and p.email = c.email
            and p.queued_at > now() - make_interval(secs => p_min_interval_seconds)
       )
     order by c.requested_at
     limit greatest(p_limit, 0)
     for update of c skip locked
  loop
    v_target := private.address_key(v_req.email);
    -- One decision at a time per recipient, so two runs cannot both take its last slot.
    perform pg_advisory_xact_lock(hashtextextended('tinyback.confirmation-to:' || v_target, 0));
    if private.ledger_count('target_confirmation', now() - interval '1 day',
                            p_per_account_per_day, v_req.user_id) >= p_per_account_per_day
       or private.ledger_count_target('target_confirmation', now() - interval '1 day',
                                      p_per_recipient_per_day, v_target) >= p_per_recipient_per_day then
      update private.target_email_confirmations set skipped = 'limit' where id = v_req.id;
      continue;
    end if;

    v_token := encode(extensions.gen_random_bytes(32), 'hex');
    v_link := p_link_prefix || v_token;
    select u.email into v_account from auth.users u where u.id = v_req.user_id;
    -- The form's name is the asking account's text, going to a stranger: a short label only.
    select private.mail_label(f.name, 60) into v_form
      from public.forms f
     where f.user_id = v_req.user_id and lower(f.target_email) = v_req.email
     order by (f.id = v_req.form_id) desc nulls last, f.created_at
     limit 1;
    v_form := coalesce(nullif(v_form, ''), 'a form');
    v_valid := format('The link works once and expires in %s hours.', v_hours);

    insert into private.action_ledger (kind, user_id, target, form_id)
      values ('target_confirmation', v_req.user_id, v_target, v_req.form_id);
    insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
      values (
        'target_confirmation',
        v_req.user_id,
        v_req.email,
        'Confirm this address for tinyback form notifications',
        concat_ws(E'\n',
          'Hello,',
          '',
          format('The tinyback account %s wants its form "%s" to e-mail the messages it receives to this address (%s).',
                 coalesce(v_account, '(no e-mail)'), v_form, v_req.email),
          '',
          'To allow it, open this link and press "Confirm address". ' || v_valid,
          '',
          v_link,
          '',
          'If you did not expect this e-mail, ignore it: nothing is sent to this address unless it is confirmed.',
          ''),
        '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
          || '<p>Hello,</p>'
          || format('<p>The tinyback account <strong>%s</strong> wants its form <strong>%s</strong> '
                    || 'to e-mail the messages it receives to this address (%s).</p>',
                    public.confirmation_mail_escape(coalesce(v_account, '(no e-mail)')),
                    public.confirmation_mail_escape(v_form), public.confirmation_mail_escape(v_req.email))
          || format('<p><a href="%s" style="display:inline-block;padding:10px 16px;background:#0d9488;'
                    || 'color:#ffffff;border-radius:6px;text-decoration:none">Review and confirm</a></p>',
                    public.confirmation_mail_escape(v_link))
          || format('<p>Or open this link and press &quot;Confirm address&quot;: %s</p>',
                    public.confirmation_mail_escape(v_link))
          || format('<p>%s</p>', public.confirmation_mail_escape(v_valid))
          || '<p style="color:#666;font-size:12px">If you did not expect this e-mail, ignore it: '
          || 'nothing is sent to this address unless it is confirmed.</p>'
          || '</body></html>'
      );
    update private.target_email_confirmations
       set queued_at = now(),
           token_hash = sha256(convert_to(v_token, 'UTF8')),
           expires_at = now() + make_interval(secs => p_ttl_seconds)
     where id = v_req.id;
    v_queued := v_queued + 1;
  end loop;

  -- Forget spent confirmations after a while (the caps live in the ledger).
  delete from private.target_email_confirmations c
   where c.requested_at < now() - interval '30 days'
     and (c.used_at is not null or c.skipped is not null or c.expires_at < now());
  return v_queued;
end;
$function$;

CREATE OR REPLACE FUNCTION public.confirm_newsletter_subscription(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_expires_at timestamptz;
begin
  delete from private.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'confirm'
   returning t.subscriber_id, t.expires_at into v_subscriber_id, v_expires_at;
  if v_subscriber_id is null or v_expires_at <= now() then
    return 'invalid';
  end if;

  update public.newsletter_subscribers
     set status = 'confirmed', confirmed_at = now()
   where id = v_subscriber_id and status = 'pending';
  delete from private.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'confirmed';
end;
$function$;

CREATE OR REPLACE FUNCTION public.confirm_target_email(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_row private.target_email_confirmations%rowtype;
begin
  -- 32 random bytes in hex; anything else cannot be a token (and is not looked up).
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from private.target_email_confirmations c
   where c.token_hash = sha256(convert_to(p_token, 'UTF8'))
   for update;
  if not found then
    return jsonb_build_object('status', 'invalid');
  end if;
  if v_row.used_at is not null then
    return jsonb_build_object('status', 'used');
  end if;
  if v_row.expires_at <= now() then
    return jsonb_build_object('status', 'expired');
  end if;

  update private.target_email_confirmations set used_at = now() where id = v_row.id;
  insert into private.verified_target_emails (user_id, email)
    values (v_row.user_id, v_row.email)
    on conflict do nothing;
  -- The before-update trigger recomputes the flag (now true); Realtime tells the owner's tabs.
  update public.forms f
     set target_verified = true
   where f.user_id = v_row.user_id and lower(f.target_email) = v_row.email and not f.target_verified;
  return jsonb_build_object(
    'status', 'confirmed', 'email', v_row.email, 'form', private.confirmation_form_label(v_row)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION public.count_notification_send(p_user uuid, p_at timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_minute bigint := floor(extract(epoch from p_at) / 60)::bigint;
  v_hour bigint := floor(extract(epoch from p_at) / 3600)::bigint;
begin
  insert into private.notification_counts (user_id) values (p_user) on conflict (user_id) do nothing;
  update private.notification_counts c
     set (minute_hits, minute_units) =
           (select m.hits, m.units from public.ring_add(c.minute_hits, c.minute_units, v_minute, 61, 1) m),
         (hour_hits, hour_units) =
           (select h.hits, h.units from public.ring_add(c.hour_hits, c.hour_units, v_hour, 25, 1) h)
   where c.user_id = p_user;
end;
$function$;

CREATE OR REPLACE FUNCTION public.is_target_verified(p_user uuid, p_email text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select exists (
           select 1 from private.verified_target_emails v
            where v.user_id = p_user and v.email = lower(btrim(p_email))
         )
      or exists (
           select 1 from auth.users u
            where u.id = p_user
              and u.email_confirmed_at is not null
              and lower(u.email) = lower(btrim(p_email))
         );
$function$;

CREATE OR REPLACE FUNCTION public.refresh_target_verification()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if old.email is not null and old.email_confirmed_at is not null
     and lower(old.email) is distinct from lower(new.email) then
    insert into private.verified_target_emails (user_id, email)
      values (new.id, lower(old.email))
      on conflict do nothing;
  end if;
  update public.forms f
     set target_verified = public.is_target_verified(f.user_id, f.target_email)
   where f.user_id = new.id
     and f.target_verified is distinct from public.is_target_verified(f.user_id, f.target_email);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(p_email));
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
  v_retry_after integer := 0;
  v_subscriber public.newsletter_subscribers;
  v_delivery_id uuid;
begin
  -- Upserting locks this client's counters, so its concurrent requests queue up here and each
  -- sees the count the previous one left.
  insert into private.newsletter_rate_limits as r (ip_hash, window_kind, window_start)
    values (p_ip_hash, 'minute', v_minute)
    on conflict (ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_minute_hits;
  insert into private.newsletter_rate_limits as r (ip_hash, window_kind, window_start)
    values (p_ip_hash, 'day', v_day)
    on conflict (ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_day_hits;

  if v_day_hits >= p_per_day then
    v_retry_after := ceil(extract(epoch from (v_day + interval '1 day' - now())));
  elsif v_minute_hits >= p_per_minute then
    v_retry_after := ceil(extract(epoch from (v_minute + interval '1 minute' - now())));
  end if;
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', greatest(v_retry_after, 1));
  end if;

  update private.newsletter_rate_limits set hits = hits + 1 where ip_hash = p_ip_hash;

  -- Housekeeping, a bounded batch each, served by an index: counters of clients not seen for two
  -- days, expired confirm links, outbox copies of confirmation e-mails whose confirm link has
  -- expired, and requests their addresses' owners never confirmed. Rows another request holds
  -- are skipped, so two requests never wait on each other here.
  delete from private.newsletter_rate_limits
   where (ip_hash, window_kind) in (
     select r.ip_hash, r.window_kind from private.newsletter_rate_limits r
      where r.window_start < now() - interval '2 days'
      limit 100 for update skip locked);
  delete from private.newsletter_tokens
   where token_hash in (
     select t.token_hash from private.newsletter_tokens t
      where t.expires_at < now()
      limit 100 for update skip locked);
  delete from public.email_deliveries
   where id in (
     select d.id from public.email_deliveries d
      where d.kind = 'newsletter_confirmation'
        and d.created_at < now() - make_interval(secs => p_confirm_ttl_seconds)
        and d.status in ('sent', 'failed')
      limit 100 for update skip locked);
  delete from public.newsletter_subscribers
   where id in (
     select s.id from public.newsletter_subscribers s
      where s.status = 'pending'
        and s.last_confirmation_at < now() - make_interval(secs => p_forget_pending_seconds)
      limit 100 for update skip locked);

  -- The same lock as the insert trigger's: two requests for one address take turns, so the
  -- second sees the first's row (and its cooldown) instead of racing it.
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || v_email, 0));
  select * into v_subscriber
    from public.newsletter_subscribers s where lower(s.email) = v_email for update;
  if not found then
    insert into public.newsletter_subscribers (email) values (v_email)
      returning * into v_subscriber;
  end if;

  if v_subscriber.status <> 'confirmed'
     and (v_subscriber.last_confirmation_at is null
          or v_subscriber.last_confirmation_at
             <= now() - make_interval(secs => p_cooldown_seconds)) then
    update public.newsletter_subscribers
       set status = 'pending', last_confirmation_at = now()
     where id = v_subscriber.id;
    insert into private.newsletter_tokens (token_hash, subscriber_id, purpose, expires_at)
      values
        (public.newsletter_token_hash(p_confirm_token), v_subscriber.id, 'confirm',
         now() + make_interval(secs => p_confirm_ttl_seconds)),
        (public.newsletter_token_hash(p_unsubscribe_token), v_subscriber.id, 'unsubscribe', null);
    insert into public.email_deliveries (kind, recipient, subject, text_body, html_body)
      values (
        'newsletter_confirmation',
        v_subscriber.email,
        p_mail ->> 'subject',
        p_mail ->> 'text',
        p_mail ->> 'html'
      )
      returning id into v_delivery_id;
  end if;

  return jsonb_build_object('status', 'accepted', 'delivery_id', v_delivery_id);
end;
$function$;

CREATE OR REPLACE FUNCTION public.request_target_confirmation()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(new.target_email);
begin
  if new.target_verified then
    return null;
  end if;
  if tg_op = 'UPDATE' and lower(old.target_email) = v_email then
    return null;
  end if;
  if exists (
    select 1 from private.target_email_confirmations c
     where c.user_id = new.user_id and c.email = v_email
       and c.used_at is null and c.expires_at > now()
  ) then
    return null;
  end if;
  insert into private.target_email_confirmations (user_id, email, form_id)
    values (new.user_id, v_email, new.id)
    on conflict (user_id, email) where queued_at is null and skipped is null do nothing;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION public.resend_target_confirmation(p_form_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_verified boolean;
begin
  if v_uid is null then
    raise exception 'Not signed in.' using errcode = '42501';
  end if;
  select lower(f.target_email), f.target_verified into v_email, v_verified
    from public.forms f where f.id = p_form_id and f.user_id = v_uid;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if v_verified then
    return jsonb_build_object('status', 'verified');
  end if;
  if exists (
    select 1 from private.target_email_confirmations c
     where c.user_id = v_uid and c.email = v_email and c.queued_at is null and c.skipped is null
  ) then
    return jsonb_build_object('status', 'already_requested', 'email', v_email);
  end if;
  if exists (
    select 1 from private.target_email_confirmations c
     where (c.user_id = v_uid or c.email = v_email)
       and c.skipped = 'limit' and c.requested_at > now() - interval '1 day'
  ) then
    return jsonb_build_object('status', 'limited');
  end if;
  insert into private.target_email_confirmations (user_id, email, form_id)
    values (v_uid, v_email, p_form_id);
  return jsonb_build_object('status', 'requested', 'email', v_email);
end;
$function$;

CREATE OR REPLACE FUNCTION public.send_held_notifications(p_form_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_per_hour constant integer := 100;
  c_per_day constant integer := 1000;
  v_uid uuid := (select auth.uid());
  v_form public.forms%rowtype;
  v_epoch double precision := extract(epoch from now());
  v_hits integer[];
  v_units bigint[];
  v_hour_hits integer[];
  v_hour_units bigint[];
  v_room integer;
  v_held integer;
  v_queued integer := 0;
  v_row private.held_notifications%rowtype;
begin
  if v_uid is null then
    raise exception 'Not signed in.' using errcode = '42501';
  end if;
  select * into v_form from public.forms f where f.id = p_form_id and f.user_id = v_uid for key share;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if not v_form.notify_email then
    return jsonb_build_object('status', 'off');
  end if;
  -- The address the mail goes to now must be confirmed now.
  if not public.is_target_verified(v_uid, v_form.target_email) then
    return jsonb_build_object('status', 'unverified');
  end if;

  -- One decision at a time per account (its counter row's lock), as accept_submission() takes it.
  insert into private.notification_counts (user_id) values (v_uid) on conflict do nothing;
  select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
    into v_hits, v_units, v_hour_hits, v_hour_units
    from private.notification_counts c where c.user_id = v_uid for update;
  v_room := least(
    c_per_hour - public.ring_count(v_hits, v_units, floor(v_epoch / 60)::bigint - 60),
    c_per_day - public.ring_count(v_hour_hits, v_hour_units, floor(v_epoch / 3600)::bigint - 24)
  );

  select count(*)::integer into v_held
    from private.held_notifications h
    join public.entries e on e.id = h.entry_id
   where h.form_id = p_form_id and not e.is_spam;
  if v_held = 0 then
    return jsonb_build_object('status', 'none');
  end if;
  if v_room <= 0 then
    return jsonb_build_object('status', 'limited', 'remaining', v_held);
  end if;

  for v_row in
    select h.* from private.held_notifications h
      join public.entries e on e.id = h.entry_id
     where h.form_id = p_form_id and not e.is_spam
     order by h.created_at, h.entry_id
     limit v_room
     for update of h skip locked
  loop
    -- Once per message, whatever raced: an entry has at most one notification.
    if not exists (
      select 1 from public.email_deliveries d
       where d.entry_id = v_row.entry_id and d.kind = 'notification'
    ) then
      insert into public.email_deliveries
          (kind, entry_id, user_id, recipient, subject, reply_to, text_body, html_body)
        values ('notification', v_row.entry_id, v_uid, v_form.target_email, v_row.subject,
                v_row.reply_to, v_row.text_body, v_row.html_body);
      perform public.count_notification_send(v_uid, now());
      v_queued := v_queued + 1;
    end if;
    update public.entries set notification_skipped = null where id = v_row.entry_id;
    delete from private.held_notifications where entry_id = v_row.entry_id;
  end loop;

  return jsonb_build_object(
    'status', 'queued',
    'queued', v_queued,
    'remaining', greatest(v_held - v_queued, 0),
    'email', lower(v_form.target_email)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION public.target_confirmation_details(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_row private.target_email_confirmations%rowtype;
begin
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from private.target_email_confirmations c
   where c.token_hash = sha256(convert_to(p_token, 'UTF8'));
  if not found then
    return jsonb_build_object('status', 'invalid');
  end if;
  if v_row.used_at is not null then
    return jsonb_build_object('status', 'used');
  end if;
  if v_row.expires_at <= now() then
    return jsonb_build_object('status', 'expired');
  end if;
  return jsonb_build_object(
    'status', 'pending', 'email', v_row.email, 'form', private.confirmation_form_label(v_row)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION public.unsubscribe_newsletter(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
begin
  select t.subscriber_id into v_subscriber_id
    from private.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'unsubscribe';
  if not found then
    return 'invalid';
  end if;

  update public.newsletter_subscribers
     set status = 'unsubscribed', unsubscribed_at = now()
   where id = v_subscriber_id and status <> 'unsubscribed';
  delete from private.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'unsubscribed';
end;
$function$;

CREATE OR REPLACE FUNCTION private.take_client_allowance(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
begin
  insert into private.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'minute', v_minute)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_minute_hits;
  insert into private.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'day', v_day)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_day_hits;

  if v_day_hits >= p_per_day then
    return greatest(ceil(extract(epoch from (v_day + interval '1 day' - now())))::integer, 1);
  elsif v_minute_hits >= p_per_minute then
    return greatest(ceil(extract(epoch from (v_minute + interval '1 minute' - now())))::integer, 1);
  end if;

  update private.submission_rate_limits
     set hits = hits + 1
   where form_id = p_form_id and ip_hash = p_ip_hash;
  -- Forget clients not seen for two days.
  delete from private.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';
  return 0;
end;
$function$;
