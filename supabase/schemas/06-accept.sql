-- Accepting a post
--
-- The form endpoint's one call: per-client fixed-window rate limits, the per-form cap, idempotent
-- posts, the monthly quota, storing the entry and queueing its notification.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table private.submission_rate_limits (
  form_id uuid not null,
  ip_hash text not null,
  minute_start timestamp with time zone not null,
  minute_hits integer default 0 not null,
  day_start timestamp with time zone not null,
  day_hits integer default 0 not null,
  constraint submission_rate_limits_pkey PRIMARY KEY (form_id, ip_hash),
  constraint submission_rate_limits_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE
);
create index submission_rate_limits_form_day_idx ON private.submission_rate_limits (form_id, day_start);
comment on table private.submission_rate_limits is
  'Submissions per form and client (salted IP hash) in its current minute and day; written only by accept_submission().';

create table private.form_post_counts (
  form_id uuid not null,
  hits integer[] default '{}'::integer[] not null,
  last_second bigint,
  constraint form_post_counts_pkey PRIMARY KEY (form_id),
  constraint form_post_counts_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE
);
comment on table private.form_post_counts is
  'Posts accepted per form by second over the last minute (a ring: hits[s % 60 + 1] counts second s, up to last_second); written only by accept_submission().';

create table private.post_idempotency (
  form_id uuid not null,
  key_hash bytea not null,
  entry_id uuid not null,
  created_at timestamp with time zone default now() not null,
  constraint post_idempotency_pkey PRIMARY KEY (form_id, key_hash),
  constraint post_idempotency_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE
);
create index post_idempotency_form_created_idx ON private.post_idempotency (form_id, created_at);
comment on table private.post_idempotency is
  'Idempotency keys of accepted posts per form, kept 24 hours with the entry each made.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function private.take_client_allowance(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_retry_after integer := private.take_fixed_window(p_form_id, p_ip_hash, p_per_minute, p_per_day);
begin
  if v_retry_after > 0 then
    return v_retry_after;
  end if;
  delete from private.submission_rate_limits
   where form_id = p_form_id and day_start < now() - interval '2 days';
  return 0;
end;
$function$;
revoke all on function private.take_client_allowance(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer) from public, anon, authenticated, service_role;

create or replace function private.idempotent_entry(p_form_id uuid, p_key text)
 RETURNS uuid
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select i.entry_id from private.post_idempotency i
   where i.form_id = p_form_id and i.key_hash = sha256(convert_to(p_key, 'UTF8'))
     and i.created_at > now() - interval '24 hours';
$function$;
revoke all on function private.idempotent_entry(p_form_id uuid, p_key text) from public, anon, authenticated, service_role;

create or replace function private.repeated_post_answer(p_entry_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
    'status', 'accepted', 'entry_id', p_entry_id, 'delivery_id', null,
    'notification_skipped', null, 'webhooks_queued', false, 'autoresponse_id', null,
    'repeated', true
  );
$function$;
revoke all on function private.repeated_post_answer(p_entry_id uuid) from public, anon, authenticated, service_role;

create or replace function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid DEFAULT NULL::uuid, p_source_page text DEFAULT NULL::text, p_source_referrer text DEFAULT NULL::text)
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
  v_minute bigint := floor(extract(epoch from now()) / 60)::bigint;
  v_hour bigint := floor(extract(epoch from now()) / 3600)::bigint;
  v_hits integer[];
  v_last bigint;
  v_retry_after integer := 0;
  v_skipped text;
  v_delivery_id uuid;
  v_key bytea;
  v_first uuid;
  v_counted boolean;
  v_storing boolean := true;
  v_source_site uuid;
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

  -- The tracker's site only when it is the form owner's: nobody links posts into another
  -- account's analytics.
  if p_source_site_id is not null then
    select s.id into v_source_site from public.analytics_sites s
     where s.id = p_source_site_id and s.user_id = v_owner;
  end if;

  -- The visitor's network, for the autoresponder's per-visitor cap (its trigger reads it in this
  -- transaction only).
  perform set_config('tinyback.client', coalesce(p_ip_hash, ''), true);

  -- Whether to e-mail, and if not, why: the form's settings here, the account's caps below. Spam
  -- is never e-mailed (is_spam says so).
  if not p_is_spam and p_notification is not null then
    if not v_notify then
      v_skipped := 'off';
    elsif not v_verified then
      v_skipped := 'unverified';
    end if;
  end if;

  -- The shared counters (the form's minute, the account's month and notification caps) lock their
  -- rows until this transaction ends, and every racing post of the form or the account waits for
  -- them. So the entry and its e-mail job are stored first and the counters taken last, in one
  -- block: when a counter refuses the post or caps its e-mail (rare), the block is undone (its
  -- savepoint) and taken again: to answer the refusal (counting only, in the order below, as a
  -- refused post always was), or to store the entry with the cap it met.
  for v_pass in 1 .. 5 loop
    begin
      if v_storing then
        -- The entry's owner is set by the entries_set_owner trigger, from the form; the order of
        -- the custom fields is checked against the data by entries_set_field_order.
        insert into public.entries (id, form_id, name, email, message, data, is_spam,
                                    notification_skipped, field_order, source_site_id,
                                    source_page, source_referrer)
          values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb),
                  p_is_spam, v_skipped, p_field_order, v_source_site, p_source_page,
                  p_source_referrer);
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
        end if;
      end if;

      -- Per form, all clients together (a backstop when addresses are cheap): the posts of the
      -- last sixty seconds, by second. One statement counts the post when there is room, under
      -- the form's counter row lock, so a racing post waits and then decides on the count this
      -- one left.
      if p_form_per_minute is not null then
        for attempt in 1 .. 2 loop
          update private.form_post_counts c
             set (hits, last_second) =
                   (select a.hits, a.last from private.ring_take(c.hits, c.last_second, v_second, 60, 1) a)
           where c.form_id = p_form_id
             and private.ring_sum(c.hits, c.last_second, v_second, 60) < p_form_per_minute;
          v_counted := found;
          exit when v_counted or attempt = 2;
          -- The form's first post (or a full minute): the row, then the same statement once more.
          insert into private.form_post_counts (form_id) values (p_form_id) on conflict do nothing;
        end loop;
        if not v_counted then
          if v_storing then
            raise sqlstate 'TB409';
          end if;
          select c.hits, c.last_second into v_hits, v_last
            from private.form_post_counts c where c.form_id = p_form_id;
          delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
          return jsonb_build_object(
            'status', 'rate_limited',
            'retry_after', greatest(
              ceil(private.ring_first(v_hits, v_last, v_second, 60) + 60 - v_epoch)::integer, 1)
          );
        end if;
      end if;

      -- The account's month (plan quota): after every check that may refuse the post, so that a
      -- post refused for another reason is never counted; in this transaction, so the count and
      -- the entry commit together.
      v_retry_after := private.take_submission_quota(v_owner, p_is_spam);
      if v_retry_after > 0 then
        if v_storing then
          raise sqlstate 'TB409';
        end if;
        delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
        return jsonb_build_object('status', 'quota_exceeded', 'retry_after', v_retry_after);
      end if;

      if not v_storing then
        -- Room was made meanwhile: store the post after all.
        raise sqlstate 'TB410';
      end if;

      -- The account's notification caps: one statement counts the e-mail when both have room,
      -- under the account's counter row lock (held to the end), so racing posts cannot both take
      -- the last slot; its job above commits with the count.
      if not p_is_spam and p_notification is not null and v_skipped is null
         and (p_account_per_hour is not null or p_account_per_day is not null) then
        for attempt in 1 .. 2 loop
          update private.notification_counts c
             set (minute_hits, last_minute) =
                   (select m.hits, m.last from private.ring_take(c.minute_hits, c.last_minute, v_minute, 61, 1) m),
                 (hour_hits, last_hour) =
                   (select h.hits, h.last from private.ring_take(c.hour_hits, c.last_hour, v_hour, 25, 1) h)
           where c.user_id = v_owner
             and (p_account_per_hour is null
                  or private.ring_sum(c.minute_hits, c.last_minute, v_minute, 61) < p_account_per_hour)
             and (p_account_per_day is null
                  or private.ring_sum(c.hour_hits, c.last_hour, v_hour, 25) < p_account_per_day);
          v_counted := found;
          exit when v_counted or attempt = 2;
          insert into private.notification_counts (user_id) values (v_owner) on conflict do nothing;
        end loop;
        if not v_counted then
          -- A cap is reached: the entry is stored again with it, without the e-mail.
          select c.minute_hits, c.last_minute into v_hits, v_last
            from private.notification_counts c where c.user_id = v_owner;
          if p_account_per_day is not null and (p_account_per_hour is null or private.ring_sum(
               v_hits, v_last, v_minute, 61) < p_account_per_hour) then
            v_skipped := 'daily_limit';
          else
            v_skipped := 'hourly_limit';
          end if;
          raise sqlstate 'TB410';
        end if;
      elsif v_delivery_id is not null then
        -- Without caps the counters still record the send.
        perform public.count_notification_send(v_owner, now());
      end if;
      exit;
    exception
      when sqlstate 'TB409' then
        v_storing := false;
        v_delivery_id := null;
      when sqlstate 'TB410' then
        v_storing := true;
        v_delivery_id := null;
    end;
    if v_pass = 5 then
      raise exception 'accept_entry: the counters of form % kept changing', p_form_id;
    end if;
  end loop;

  return jsonb_build_object(
    'status', 'accepted',
    'entry_id', p_entry_id,
    'delivery_id', v_delivery_id,
    'notification_skipped', v_skipped
  );
end;
$function$;
revoke all on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid, p_source_page text, p_source_referrer text) from public, anon, authenticated, service_role;
comment on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid, p_source_page text, p_source_referrer text) is
  'The body of accept_submission() and accept_post(): the caps, the idempotency key, the quota, the entry and its notification; p_field_order is the order the visitor sent the fields in.';

create or replace function public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer DEFAULT NULL::integer, p_account_per_hour integer DEFAULT NULL::integer, p_account_per_day integer DEFAULT NULL::integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return private.accept_entry(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day, p_idempotency_key, p_client_counted, null
  );
end;
$function$;
revoke all on function public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean) from public, anon, authenticated, service_role;
grant execute on function public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean) to service_role;

create or replace function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false, p_field_order text[] DEFAULT NULL::text[], p_files jsonb DEFAULT NULL::jsonb, p_source_site_id uuid DEFAULT NULL::uuid, p_source_page text DEFAULT NULL::text, p_source_referrer text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_form jsonb;
  v_result jsonb;
  v_owner uuid;
  v_file_bytes bigint;
begin
  select f.user_id, jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url,
           'captcha_provider', f.captcha_provider
         )
    into v_owner, v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  if jsonb_typeof(p_files) = 'array' and jsonb_array_length(p_files) > 0 then
    v_file_bytes := private.files_bytes(p_files);
  end if;
  if v_file_bytes is null then
    v_result := private.accept_entry(
      p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
      p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
      p_account_per_day, p_idempotency_key, p_client_counted, p_field_order,
      p_source_site_id, p_source_page, p_source_referrer
    );
  else
    -- A post with files, in a block of its own: judged once the entry is in (a repeat is answered
    -- as the first post whatever else holds), and a refusal takes the entry back out.
    begin
      v_result := private.accept_entry(
        p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
        p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
        p_account_per_day, p_idempotency_key, p_client_counted, p_field_order,
        p_source_site_id, p_source_page, p_source_referrer
      );
      if v_result ->> 'status' = 'accepted' and not v_result ? 'repeated' then
        -- Read under a minute-old copy of the form: the owner may have turned uploads off since.
        if not exists (select 1 from public.form_uploads u where u.form_id = p_form_id and u.enabled) then
          raise exception 'uploads are off' using errcode = 'TBUP0';
        end if;
        -- Under the owner's usage row lock: racing posts cannot together pass the quota.
        if not private.reserve_storage(v_owner, v_file_bytes) then
          raise exception 'storage full' using errcode = 'TBUP1';
        end if;
      end if;
    exception
      when sqlstate 'TBUP0' then return jsonb_build_object('status', 'uploads_off');
      when sqlstate 'TBUP1' then return jsonb_build_object('status', 'storage_full');
    end;
  end if;
  if v_result ->> 'status' is distinct from 'accepted' or v_result ? 'repeated' then
    return v_result;
  end if;
  -- The post's files, already in Storage: their rows commit with the entry (or not at all).
  if p_files is not null then
    perform private.store_entry_files(p_entry_id, p_files);
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id', private.autoresponse_of(p_entry_id)
  );
end;
$function$;
revoke all on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb, p_source_site_id uuid, p_source_page text, p_source_referrer text) from public, anon, authenticated, service_role;
grant execute on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb, p_source_site_id uuid, p_source_page text, p_source_referrer text) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table private.submission_rate_limits enable row level security;

alter table private.form_post_counts enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table private.submission_rate_limits from public, anon, authenticated, service_role;
revoke all on table private.form_post_counts from public, anon, authenticated, service_role;
revoke all on table private.post_idempotency from public, anon, authenticated, service_role;
