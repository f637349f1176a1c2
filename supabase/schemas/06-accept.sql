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
  window_kind text not null,
  window_start timestamp with time zone not null,
  hits integer default 0 not null,
  constraint submission_rate_limits_pkey PRIMARY KEY (form_id, ip_hash, window_kind),
  constraint submission_rate_limits_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint submission_rate_limits_window_kind CHECK ((window_kind = ANY (ARRAY['minute'::text, 'day'::text])))
);
create index submission_rate_limits_form_window_idx ON private.submission_rate_limits (form_id, window_start);
comment on table private.submission_rate_limits is
  'Submissions per form, client (salted IP hash) and window; written only by accept_submission().';

create table private.form_post_counts (
  form_id uuid not null,
  hits integer[] default '{}'::integer[] not null,
  units bigint[] default '{}'::bigint[] not null,
  constraint form_post_counts_pkey PRIMARY KEY (form_id),
  constraint form_post_counts_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE
);
comment on table private.form_post_counts is
  'Posts accepted per form by second over the last minute; written only by accept_submission().';

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
   where form_id = p_form_id and window_start < now() - interval '2 days';
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

create or replace function public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer DEFAULT NULL::integer, p_account_per_hour integer DEFAULT NULL::integer, p_account_per_day integer DEFAULT NULL::integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false)
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
revoke all on function public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean) from public, anon, authenticated, service_role;
grant execute on function public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean) to service_role;

create or replace function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false, p_field_order text[] DEFAULT NULL::text[])
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_form jsonb;
  v_result jsonb;
begin
  select jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url,
           'captcha_provider', f.captcha_provider
         )
    into v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  -- Read by the entry's BEFORE INSERT trigger (private.set_entry_field_order), for this entry only.
  perform set_config(
    'tinyback.sent_field_order',
    case when p_field_order is null then ''
         else jsonb_build_object('entry_id', p_entry_id, 'fields', to_jsonb(p_field_order))::text
    end,
    true
  );
  v_result := public.accept_submission(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day, p_idempotency_key, p_client_counted
  );
  perform set_config('tinyback.sent_field_order', '', true);
  if v_result ->> 'status' is distinct from 'accepted' or v_result ? 'repeated' then
    return v_result;
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id', private.autoresponse_of(p_entry_id)
  );
end;
$function$;
revoke all on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]) from public, anon, authenticated, service_role;
grant execute on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]) to service_role;

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
