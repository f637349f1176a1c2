-- A cheaper accept_post(): fewer statements, fewer rows written and fewer WAL records per post,
-- with every limit, cap, the idempotency, the quota and the outbox as they were.
--
-- - A client's one-minute and one-day windows are one row (private.submission_rate_limits per
--   form and client, private.newsletter_rate_limits per client), counted by one UPDATE that takes
--   the request only when both windows have room; private.take_fixed_window() is static SQL (its
--   statements were built and planned on every call). The rows are carried over: each client's
--   two window rows become one with the same counts.
-- - The form's per-minute counter, the account's notification counters and the month's quota are
--   each counted by one UPDATE whose condition is the cap (under the row's lock, as before; a
--   racing post waits and decides on the new count), instead of a locking read, then an update.
-- - Those shared counter rows stay locked until the post commits, and every racing post of the form
--   or the account waits for them; so the entry and its e-mail job are now stored first and the
--   counters taken last, in a block. When a counter refuses the post or caps its e-mail (rare),
--   the block is undone (its savepoint) and taken again: counting only, in the order they always
--   had, to answer the refusal (the same counts kept, the same quota warning), or storing the
--   entry with the notification cap it met. The notification is counted by the statement that
--   decides it, after the quota.
-- - The ring counters (the form's posts by second, the account's notifications by minute and by
--   hour) keep one count per slot and the latest unit counted, instead of a unit beside every
--   count: the same windows in about a third of the bytes, so each update writes less WAL. The
--   counts are carried over.
-- - The field order travels in the entry's own column (private.accept_entry(), the body of
--   accept_submission() and accept_post()) instead of a setting read back by the trigger.
-- - entries_user_id_idx goes: entries_user_spam_created_idx starts with user_id and serves the
--   same look-ups.

-- ------------------------------------------------------------------------------------------------
-- Rate-limit windows: one row per client
-- ------------------------------------------------------------------------------------------------
alter table private.submission_rate_limits
  add column minute_start timestamp with time zone,
  add column minute_hits integer default 0 not null,
  add column day_start timestamp with time zone,
  add column day_hits integer default 0 not null;
-- A missing window counts 0 (its start: the other window's).
update private.submission_rate_limits r
   set minute_start = coalesce(m.window_start, d.window_start),
       minute_hits = coalesce(m.hits, 0),
       day_start = coalesce(d.window_start, date_trunc('day', m.window_start)),
       day_hits = coalesce(d.hits, 0)
  from (select k.form_id, k.ip_hash from private.submission_rate_limits k group by 1, 2) c
  left join private.submission_rate_limits m
    on m.form_id = c.form_id and m.ip_hash = c.ip_hash and m.window_kind = 'minute'
  left join private.submission_rate_limits d
    on d.form_id = c.form_id and d.ip_hash = c.ip_hash and d.window_kind = 'day'
 where r.form_id = c.form_id and r.ip_hash = c.ip_hash;
delete from private.submission_rate_limits r
 where r.window_kind = 'minute'
   and exists (select 1 from private.submission_rate_limits d
                where d.form_id = r.form_id and d.ip_hash = r.ip_hash and d.window_kind = 'day');
alter table private.submission_rate_limits drop constraint submission_rate_limits_pkey;
alter table private.submission_rate_limits drop constraint submission_rate_limits_window_kind;
drop index private.submission_rate_limits_form_window_idx;
alter table private.submission_rate_limits
  drop column window_kind,
  drop column window_start,
  drop column hits,
  alter column minute_start set not null,
  alter column day_start set not null,
  add constraint submission_rate_limits_pkey primary key (form_id, ip_hash);
create index submission_rate_limits_form_day_idx ON private.submission_rate_limits (form_id, day_start);
comment on table private.submission_rate_limits is
  'Submissions per form and client (salted IP hash) in its current minute and day; written only by accept_submission().';

alter table private.newsletter_rate_limits
  add column minute_start timestamp with time zone,
  add column minute_hits integer default 0 not null,
  add column day_start timestamp with time zone,
  add column day_hits integer default 0 not null;
update private.newsletter_rate_limits r
   set minute_start = coalesce(m.window_start, d.window_start),
       minute_hits = coalesce(m.hits, 0),
       day_start = coalesce(d.window_start, date_trunc('day', m.window_start)),
       day_hits = coalesce(d.hits, 0)
  from (select k.ip_hash from private.newsletter_rate_limits k group by 1) c
  left join private.newsletter_rate_limits m
    on m.ip_hash = c.ip_hash and m.window_kind = 'minute'
  left join private.newsletter_rate_limits d
    on d.ip_hash = c.ip_hash and d.window_kind = 'day'
 where r.ip_hash = c.ip_hash;
delete from private.newsletter_rate_limits r
 where r.window_kind = 'minute'
   and exists (select 1 from private.newsletter_rate_limits d
                where d.ip_hash = r.ip_hash and d.window_kind = 'day');
alter table private.newsletter_rate_limits drop constraint newsletter_rate_limits_pkey;
alter table private.newsletter_rate_limits drop constraint newsletter_rate_limits_window_kind;
drop index private.newsletter_rate_limits_window_idx;
alter table private.newsletter_rate_limits
  drop column window_kind,
  drop column window_start,
  drop column hits,
  alter column minute_start set not null,
  alter column day_start set not null,
  add constraint newsletter_rate_limits_pkey primary key (ip_hash);
create index newsletter_rate_limits_day_idx ON private.newsletter_rate_limits (day_start);
comment on table private.newsletter_rate_limits is
  'Newsletter sign-up requests per client (salted IP hash) in its current minute and day; written only by request_newsletter_subscription().';

-- ------------------------------------------------------------------------------------------------
-- Ring counters: the latest unit instead of a unit per slot
-- ------------------------------------------------------------------------------------------------
-- A slot keeps its count when its unit is among the ring's last units (up to the latest one);
-- older slots become 0. Slot positions are unchanged (unit % size + 1).
alter table private.form_post_counts add column last_second bigint;
update private.form_post_counts c
   set last_second = r.last,
       hits = case when r.last is null then '{}'::integer[]
                   else array(select case when x.u > r.last - 60 then x.h else 0 end
                                from unnest(c.hits, c.units) with ordinality as x(h, u, n)
                               order by x.n) end
  from private.form_post_counts c2
  cross join lateral (
    select max(u) as last from unnest(c2.units) as u
     where u >= 0 and cardinality(c2.units) = 60 and cardinality(c2.hits) = 60) r
 where c2.form_id = c.form_id;
alter table private.form_post_counts drop column units;
comment on table private.form_post_counts is
  'Posts accepted per form by second over the last minute (a ring: hits[s % 60 + 1] counts second s, up to last_second); written only by accept_submission().';

alter table private.notification_counts add column last_minute bigint, add column last_hour bigint;
update private.notification_counts c
   set last_minute = m.last,
       minute_hits = case when m.last is null then '{}'::integer[]
                          else array(select case when x.u > m.last - 61 then x.h else 0 end
                                       from unnest(c.minute_hits, c.minute_units)
                                            with ordinality as x(h, u, n)
                                      order by x.n) end,
       last_hour = h.last,
       hour_hits = case when h.last is null then '{}'::integer[]
                        else array(select case when x.u > h.last - 25 then x.h else 0 end
                                     from unnest(c.hour_hits, c.hour_units)
                                          with ordinality as x(h, u, n)
                                    order by x.n) end
  from private.notification_counts c2
  cross join lateral (
    select max(u) as last from unnest(c2.minute_units) as u
     where u >= 0 and cardinality(c2.minute_units) = 61 and cardinality(c2.minute_hits) = 61) m
  cross join lateral (
    select max(u) as last from unnest(c2.hour_units) as u
     where u >= 0 and cardinality(c2.hour_units) = 25 and cardinality(c2.hour_hits) = 25) h
 where c2.user_id = c.user_id;
alter table private.notification_counts drop column minute_units, drop column hour_units;
comment on table private.notification_counts is
  'Notifications queued per account by minute (last hour) and hour (last day), for the caps (rings: minute_hits[m % 61 + 1] counts minute m, up to last_minute; hour_hits[h % 25 + 1] hour h, up to last_hour).';

-- ------------------------------------------------------------------------------------------------
-- Entries: one index less
-- ------------------------------------------------------------------------------------------------
drop index if exists public.entries_user_id_idx;

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[])
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
                                    notification_skipped, field_order)
          values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb),
                  p_is_spam, v_skipped, p_field_order);
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
$function$
;

CREATE OR REPLACE FUNCTION private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer)
 RETURNS bigint
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_hits integer[] := private.ring_now(p_hits, p_last, p_unit, p_size);
  v_top bigint := greatest(coalesce(p_last, p_unit), p_unit);
  v_unit bigint;
begin
  for k in reverse p_size - 1 .. 0 loop
    v_unit := v_top - k;
    if v_hits[(v_unit % p_size)::integer + 1] > 0 then
      return v_unit;
    end if;
  end loop;
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer)
 RETURNS integer[]
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_hits integer[] := p_hits;
begin
  -- A ring of p_size counts: slot (u % p_size) + 1 counts unit u, for the p_size units up to
  -- p_last (the latest counted). As of p_unit, the slots of the units after p_last are emptied.
  if p_last is null or coalesce(cardinality(v_hits), 0) <> p_size or p_unit - p_last >= p_size then
    return array_fill(0, array[p_size]);
  end if;
  for i in 1 .. greatest(p_unit - p_last, 0) loop
    v_hits[((p_last + i) % p_size)::integer + 1] := 0;
  end loop;
  return v_hits;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(sum(h), 0)::integer from unnest(private.ring_now(p_hits, p_last, p_unit, p_size)) h;
$function$
;

CREATE OR REPLACE FUNCTION private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  hits := private.ring_now(p_hits, p_last, p_unit, p_size);
  last := greatest(coalesce(p_last, p_unit), p_unit);
  -- A unit before the ring's (a transaction that began earlier than the last one counted) is
  -- counted in its own slot while the ring still holds it.
  if p_unit > last - p_size then
    hits[(p_unit % p_size)::integer + 1] := hits[(p_unit % p_size)::integer + 1] + p_by;
  end if;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.set_entry_field_order()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- The order the visitor sent (accept_post() stores it), kept to the keys data has, each once.
  new.field_order := private.entry_field_order(new.data, new.field_order);
  return new;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.take_client_allowance(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer)
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
$function$
;

CREATE OR REPLACE FUNCTION private.take_fixed_window(p_form_id uuid, p_ip_hash text, p_per_minute integer, p_per_day integer)
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
  -- A client's two windows are one row. One statement counts the request when both have room: it
  -- locks the row, and a racing request of the same client waits, then re-reads the row and
  -- decides on the count this one left. A window that has ended counts from 0.
  for attempt in 1 .. 2 loop
    if p_form_id is null then
      update private.newsletter_rate_limits r
         set minute_start = v_minute,
             minute_hits = case when r.minute_start = v_minute then r.minute_hits else 0 end + 1,
             day_start = v_day,
             day_hits = case when r.day_start = v_day then r.day_hits else 0 end + 1
       where r.ip_hash = p_ip_hash
         and case when r.minute_start = v_minute then r.minute_hits else 0 end < p_per_minute
         and case when r.day_start = v_day then r.day_hits else 0 end < p_per_day;
    else
      update private.submission_rate_limits r
         set minute_start = v_minute,
             minute_hits = case when r.minute_start = v_minute then r.minute_hits else 0 end + 1,
             day_start = v_day,
             day_hits = case when r.day_start = v_day then r.day_hits else 0 end + 1
       where r.form_id = p_form_id and r.ip_hash = p_ip_hash
         and case when r.minute_start = v_minute then r.minute_hits else 0 end < p_per_minute
         and case when r.day_start = v_day then r.day_hits else 0 end < p_per_day;
    end if;
    if found then
      return 0;
    end if;
    -- The client's first request: its row, counted. A racing first request makes the insert
    -- wait for that one's row, and the second round counts on it.
    exit when attempt = 2 or p_per_minute < 1 or p_per_day < 1;
    if p_form_id is null then
      insert into private.newsletter_rate_limits (ip_hash, minute_start, minute_hits, day_start, day_hits)
        values (p_ip_hash, v_minute, 1, v_day, 1)
        on conflict (ip_hash) do nothing;
    else
      insert into private.submission_rate_limits (form_id, ip_hash, minute_start, minute_hits, day_start, day_hits)
        values (p_form_id, p_ip_hash, v_minute, 1, v_day, 1)
        on conflict (form_id, ip_hash) do nothing;
    end if;
    if found then
      return 0;
    end if;
  end loop;

  -- Refused: the seconds until the fuller window ends.
  if p_form_id is null then
    select case when r.minute_start = v_minute then r.minute_hits else 0 end,
           case when r.day_start = v_day then r.day_hits else 0 end
      into v_minute_hits, v_day_hits
      from private.newsletter_rate_limits r where r.ip_hash = p_ip_hash;
  else
    select case when r.minute_start = v_minute then r.minute_hits else 0 end,
           case when r.day_start = v_day then r.day_hits else 0 end
      into v_minute_hits, v_day_hits
      from private.submission_rate_limits r where r.form_id = p_form_id and r.ip_hash = p_ip_hash;
  end if;
  if coalesce(v_day_hits, 0) >= p_per_day then
    return greatest(ceil(extract(epoch from (v_day + interval '1 day' - now())))::integer, 1);
  end if;
  return greatest(ceil(extract(epoch from (v_minute + interval '1 minute' - now())))::integer, 1);
end;
$function$
;

CREATE OR REPLACE FUNCTION private.take_submission_quota(p_user uuid, p_is_spam boolean)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_plan public.plans := private.effective_plan(p_user);
  v_month date := private.usage_month();
  v_usage private.submission_usage;
begin
  -- A post within the quota: counted by one statement, under the month's row lock, so a racing
  -- post waits and then decides on the count this one left.
  if not p_is_spam then
    update private.submission_usage u
       set submissions = u.submissions + 1
     where u.user_id = p_user and u.month = v_month
       and (v_plan.submissions_per_month is null or u.submissions < v_plan.submissions_per_month)
    returning u.* into v_usage;
    if found then
      if v_plan.submissions_per_month is not null then
        perform private.warn_submission_quota(p_user, v_plan, v_usage);
      end if;
      return 0;
    end if;
  end if;
  -- Spam (checked, not counted), the month's first post, or a full month.
  insert into private.submission_usage (user_id, month) values (p_user, v_month)
    on conflict (user_id, month) do nothing;
  select u.* into v_usage from private.submission_usage u
   where u.user_id = p_user and u.month = v_month for update;
  if v_plan.submissions_per_month is not null
     and v_usage.submissions >= v_plan.submissions_per_month then
    -- A plan lowered mid-month may leave the 100 % warning unsent: it goes with the first refusal.
    perform private.warn_submission_quota(p_user, v_plan, v_usage);
    return greatest(ceil(extract(epoch from (private.usage_resets_at() - now())))::integer, 1);
  end if;
  if p_is_spam then
    return 0;
  end if;
  update private.submission_usage u
     set submissions = u.submissions + 1
   where u.user_id = p_user and u.month = v_month
  returning u.* into v_usage;
  perform private.warn_submission_quota(p_user, v_plan, v_usage);
  return 0;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false, p_field_order text[] DEFAULT NULL::text[])
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
  v_result := private.accept_entry(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day, p_idempotency_key, p_client_counted, p_field_order
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
$function$
;

CREATE OR REPLACE FUNCTION public.accept_submission(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer DEFAULT NULL::integer, p_account_per_hour integer DEFAULT NULL::integer, p_account_per_day integer DEFAULT NULL::integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false)
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
$function$
;

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
     set (minute_hits, last_minute) =
           (select m.hits, m.last from private.ring_take(c.minute_hits, c.last_minute, v_minute, 61, 1) m),
         (hour_hits, last_hour) =
           (select h.hits, h.last from private.ring_take(c.hour_hits, c.last_hour, v_hour, 25, 1) h)
   where c.user_id = p_user;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(p_email));
  v_retry_after integer := 0;
  v_subscriber private.newsletter_subscribers;
  v_delivery_id uuid;
begin
  v_retry_after := private.take_fixed_window(null, p_ip_hash, p_per_minute, p_per_day);
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
  end if;

  -- Housekeeping, a bounded batch each, served by an index: counters of clients not seen for two
  -- days, expired confirm links, outbox copies of confirmation e-mails whose confirm link has
  -- expired, and requests their addresses' owners never confirmed. Rows another request holds
  -- are skipped, so two requests never wait on each other here.
  delete from private.newsletter_rate_limits
   where ip_hash in (
     select r.ip_hash from private.newsletter_rate_limits r
      where r.day_start < now() - interval '2 days'
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
  delete from private.newsletter_subscribers
   where id in (
     select s.id from private.newsletter_subscribers s
      where s.status = 'pending'
        and s.last_confirmation_at < now() - make_interval(secs => p_forget_pending_seconds)
      limit 100 for update skip locked);

  -- The same lock as the insert trigger's: two requests for one address take turns, so the
  -- second sees the first's row (and its cooldown) instead of racing it.
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || v_email, 0));
  select * into v_subscriber
    from private.newsletter_subscribers s where lower(s.email) = v_email for update;
  if not found then
    insert into private.newsletter_subscribers (email) values (v_email)
      returning * into v_subscriber;
  end if;

  if v_subscriber.status <> 'confirmed'
     and (v_subscriber.last_confirmation_at is null
          or v_subscriber.last_confirmation_at
             <= now() - make_interval(secs => p_cooldown_seconds)) then
    update private.newsletter_subscribers
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
$function$
;

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
  v_last bigint;
  v_hour_hits integer[];
  v_last_hour bigint;
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
  select c.minute_hits, c.last_minute, c.hour_hits, c.last_hour
    into v_hits, v_last, v_hour_hits, v_last_hour
    from private.notification_counts c where c.user_id = v_uid for update;
  v_room := least(
    c_per_hour - private.ring_sum(v_hits, v_last, floor(v_epoch / 60)::bigint, 61),
    c_per_day - private.ring_sum(v_hour_hits, v_last_hour, floor(v_epoch / 3600)::bigint, 25)
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
$function$
;

alter function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]) set search_path to '';
alter function private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) set search_path to '';
alter function private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) set search_path to '';
alter function private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) set search_path to '';
alter function private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint) set search_path to '';
comment on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]) is 'The body of accept_submission() and accept_post(): the caps, the idempotency key, the quota, the entry and its notification; p_field_order is the order the visitor sent the fields in.';
comment on function private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) is 'The oldest unit a ring counter holds a count in as of p_unit; null when it is empty.';
comment on function private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) is 'A ring counter as of p_unit: its p_size slots count the units up to p_last (slot u % p_size + 1 counts unit u); the slots of units after p_last are emptied.';
comment on function private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) is 'What a ring counter holds as of p_unit: the count of the last p_size units.';
comment on function private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint) is 'A ring counter with p_by more in unit p_unit, and its latest unit.';
revoke all on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]) from public, anon, authenticated, service_role;
revoke all on function private.ring_first(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) from public, anon, authenticated, service_role;
revoke all on function private.ring_now(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) from public, anon, authenticated, service_role;
revoke all on function private.ring_sum(p_hits integer[], p_last bigint, p_unit bigint, p_size integer) from public, anon, authenticated, service_role;
revoke all on function private.ring_take(p_hits integer[], p_last bigint, p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT last bigint) from public, anon, authenticated, service_role;
