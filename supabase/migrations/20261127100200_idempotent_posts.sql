-- Idempotent posts, and the visitor's allowance counted before a CAPTCHA is checked.
--
-- Idempotency: a post may carry a key (the `Idempotency-Key` header, or the `_idempotency` field
-- the embed code fills once per page load). The first post with a key for a form is stored as
-- usual and the key remembered for 24 hours with the entry it made; a repeat within that time
-- (a lost answer retried, a flaky network, a double click) stores nothing, queues no e-mail and no
-- webhook, and answers with the first post's entry id. Keys are per form: the same key on two
-- forms is two posts.
--
-- CAPTCHA: a form with CAPTCHA made the endpoint ask the provider before the visitor's rate limit
-- was counted, so one client could make the provider calls as fast as it liked.
-- begin_captcha_post() now counts the post against the visitor's allowance first (and answers a
-- repeated idempotency key at once, without asking the provider about a token already spent);
-- accept_post() is then told the post is counted, so it is not counted twice.

-- ------------------------------------------------------------------------------------------------
-- Keys seen
-- ------------------------------------------------------------------------------------------------
create table private.post_idempotency (
  -- Not a cap: the keys go with their form.
  form_id uuid not null references public.forms (id) on delete cascade,
  -- SHA-256 of the key as sent: fixed size whatever the client chose.
  key_hash bytea not null,
  entry_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (form_id, key_hash)
);

comment on table private.post_idempotency is
  'Idempotency keys of accepted posts per form, kept 24 hours with the entry each made.';

create index post_idempotency_form_created_idx on private.post_idempotency (form_id, created_at);

revoke all on table private.post_idempotency from public, anon, authenticated, service_role;

-- The entry a key already made for this form within 24 hours, or null.
create function private.idempotent_entry(p_form_id uuid, p_key text)
returns uuid
language sql
stable
set search_path = ''
as $$
  select i.entry_id from private.post_idempotency i
   where i.form_id = p_form_id and i.key_hash = sha256(convert_to(p_key, 'UTF8'))
     and i.created_at > now() - interval '24 hours';
$$;

-- The accepted answer to a repeat: the first post's entry, and nothing queued.
create function private.repeated_post_answer(p_entry_id uuid)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'status', 'accepted', 'entry_id', p_entry_id, 'delivery_id', null,
    'notification_skipped', null, 'webhooks_queued', false, 'autoresponse_id', null,
    'repeated', true
  );
$$;

-- ------------------------------------------------------------------------------------------------
-- A visitor's allowance per form (one place for the fixed-window count both calls use)
-- ------------------------------------------------------------------------------------------------

-- Counts one post of client p_ip_hash to form p_form_id against p_per_minute and p_per_day, or
-- counts nothing and returns the seconds until the client may post again. Upserting locks the
-- client's counters, so concurrent posts from one client queue up and each sees the count the
-- previous one left. Returns 0 when the post is counted.
create function private.take_client_allowance(
  p_form_id uuid,
  p_ip_hash text,
  p_per_minute integer,
  p_per_day integer
)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
begin
  insert into public.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'minute', v_minute)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_minute_hits;
  insert into public.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
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

  update public.submission_rate_limits
     set hits = hits + 1
   where form_id = p_form_id and ip_hash = p_ip_hash;
  -- Forget clients not seen for two days.
  delete from public.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';
  return 0;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Before a CAPTCHA check (the endpoint, service role)
-- ------------------------------------------------------------------------------------------------

-- {status: 'counted'} (go on: check the token, then accept_post with p_client_counted)
-- | {status: 'accepted', entry_id, repeated: true, …} (a repeat: answer it, check nothing)
-- | {status: 'rate_limited', retry_after} | {status: 'form_not_found'}
create function public.begin_captcha_post(
  p_form_id uuid,
  p_ip_hash text,
  p_idempotency_key text,
  p_per_minute integer,
  p_per_day integer
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_first uuid;
  v_retry_after integer;
begin
  perform 1 from public.forms f where f.id = p_form_id;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_idempotency_key is not null then
    v_first := private.idempotent_entry(p_form_id, p_idempotency_key);
    if v_first is not null then
      return private.repeated_post_answer(v_first);
    end if;
  end if;
  v_retry_after := private.take_client_allowance(p_form_id, p_ip_hash, p_per_minute, p_per_day);
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
  end if;
  return jsonb_build_object('status', 'counted');
end;
$$;

-- The autoresponse an entry queued (its e-mail's id), or null.
create function private.autoresponse_of(p_entry_id uuid)
returns uuid
language sql
stable
set search_path = ''
as $$
  select s.delivery_id from public.autoresponse_sends s
   where s.entry_id = p_entry_id and s.delivery_id is not null limit 1;
$$;

-- ------------------------------------------------------------------------------------------------
-- Accepting a post: two arguments more (so the old signatures go first)
-- ------------------------------------------------------------------------------------------------
drop function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer);
drop function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer);

-- Checks and counts the limits, stores the entry and queues its e-mail, all in the caller's single
-- transaction. p_idempotency_key: see the header. p_client_counted: begin_captcha_post() already
-- counted this post against the client's allowance. Returns {status: 'accepted', entry_id,
-- delivery_id, notification_skipped} (with repeated: true for a repeat) or {status:
-- 'rate_limited', retry_after} or {status: 'form_not_found'}.
create function public.accept_submission(
  p_entry_id uuid,
  p_form_id uuid,
  p_ip_hash text,
  p_name text,
  p_email text,
  p_message text,
  p_data jsonb,
  p_is_spam boolean,
  p_notification jsonb,
  p_per_minute integer,
  p_per_day integer,
  p_form_per_minute integer default null,
  p_account_per_hour integer default null,
  p_account_per_day integer default null,
  p_idempotency_key text default null,
  p_client_counted boolean default false
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
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
      from public.form_post_counts c where c.form_id = p_form_id for update;
    if not found then
      insert into public.form_post_counts (form_id) values (p_form_id) on conflict do nothing;
      select c.hits, c.units into v_hits, v_units
        from public.form_post_counts c where c.form_id = p_form_id for update;
    end if;
    if public.ring_count(v_hits, v_units, v_second - 59) >= p_form_per_minute then
      delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
      return jsonb_build_object(
        'status', 'rate_limited',
        'retry_after', greatest(
          ceil(public.ring_oldest(v_hits, v_units, v_second - 59) + 60 - v_epoch)::integer, 1)
      );
    end if;
    update public.form_post_counts c
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
        from public.notification_counts c where c.user_id = v_owner for update;
      if not found then
        insert into public.notification_counts (user_id) values (v_owner) on conflict do nothing;
        select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
          into v_hits, v_units, v_hour_hits, v_hour_units
          from public.notification_counts c where c.user_id = v_owner for update;
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
$$;

-- The endpoint's one call per post. p_seen is the form as the caller knows it; when it is the
-- form's current state the post goes on to accept_submission() and its answer is returned, with
-- what the entry's insert queued by trigger (`webhooks_queued`, `autoresponse_id`); otherwise
-- nothing is stored and the answer is {status: 'form_changed', form: <current form>}, or
-- {status: 'form_not_found'}. Executable by the service role only, as accept_submission().
create function public.accept_post(
  p_seen jsonb,
  p_entry_id uuid,
  p_form_id uuid,
  p_ip_hash text,
  p_name text,
  p_email text,
  p_message text,
  p_data jsonb,
  p_is_spam boolean,
  p_notification jsonb,
  p_per_minute integer,
  p_per_day integer,
  p_form_per_minute integer,
  p_account_per_hour integer,
  p_account_per_day integer,
  p_idempotency_key text default null,
  p_client_counted boolean default false
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
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
  v_result := public.accept_submission(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day, p_idempotency_key, p_client_counted
  );
  if v_result ->> 'status' is distinct from 'accepted' or v_result ? 'repeated' then
    return v_result;
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id', private.autoresponse_of(p_entry_id)
  );
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke execute on function private.idempotent_entry(uuid, text) from public, anon, authenticated, service_role;
revoke execute on function private.repeated_post_answer(uuid) from public, anon, authenticated, service_role;
revoke execute on function private.take_client_allowance(uuid, text, integer, integer)
  from public, anon, authenticated, service_role;
revoke execute on function private.autoresponse_of(uuid) from public, anon, authenticated, service_role;

revoke execute on function public.begin_captcha_post(uuid, text, text, integer, integer)
  from public, anon, authenticated;
grant execute on function public.begin_captcha_post(uuid, text, text, integer, integer) to service_role;

revoke execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean)
  from public, anon, authenticated;
grant execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean)
  to service_role;
revoke execute on function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean)
  from public, anon, authenticated;
grant execute on function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean)
  to service_role;
