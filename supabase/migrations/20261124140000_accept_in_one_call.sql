-- One database round trip per accepted post, and caps whose cost does not grow with traffic.
--
-- - accept_post(): the form endpoint's one call per post. The function keeps the forms it has seen
--   in memory and sends the form as it saw it; the call compares it with the row and either answers
--   `form_changed` with the current form (the function checks again and retries: an edit is never
--   missed) or goes on to accept_submission(). So a known form costs no lookup of its own.
-- - accept_submission() keeps its signature and answers, but counts the per-form cap and the
--   per-account notification caps in fixed-size rings of time slots (one row per form, one per
--   account) instead of counting rows of the last minute, hour or day: constant work per post
--   however many posts and e-mails there were.
-- - notification_sends stays the way to record a queued notification, but an insert is folded into
--   the account's ring and not stored.
-- - claim_email_deliveries() finds a job named by id through its primary key, and
--   finish_email_deliveries() records a whole batch of outcomes in one call.

-- ------------------------------------------------------------------------------------------------
-- Rings of time slots
-- ------------------------------------------------------------------------------------------------

-- A ring holds the hits of the last `size` time units (seconds, minutes, hours): slot
-- (unit mod size) + 1 keeps the unit it counts and its hits, so a window is a sum over at most
-- `size` slots. `units` says which unit each slot holds (-1: none yet).

-- Adds p_by hits at unit p_unit. A slot holding an older unit starts over; a hit older than the
-- unit its slot already holds lies outside every window the ring answers for and is dropped.
create function public.ring_add(
  p_hits integer[],
  p_units bigint[],
  p_unit bigint,
  p_size integer,
  p_by integer,
  out hits integer[],
  out units bigint[]
)
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_slot integer := (p_unit % p_size)::integer + 1;
begin
  hits := p_hits;
  units := p_units;
  if coalesce(cardinality(hits), 0) <> p_size or coalesce(cardinality(units), 0) <> p_size then
    hits := array_fill(0, array[p_size]);
    units := array_fill(-1::bigint, array[p_size]);
  end if;
  if units[v_slot] < p_unit then
    hits[v_slot] := p_by;
    units[v_slot] := p_unit;
  elsif units[v_slot] = p_unit then
    hits[v_slot] := hits[v_slot] + p_by;
  end if;
end;
$$;

-- The hits of units >= p_since.
create function public.ring_count(p_hits integer[], p_units bigint[], p_since bigint)
returns integer
language sql
immutable
set search_path = ''
as $$
  select coalesce(sum(r.h), 0)::integer
    from unnest(p_hits, p_units) as r(h, u)
   where r.u >= p_since;
$$;

-- The oldest unit >= p_since with hits (null when none): when the window frees a slot.
create function public.ring_oldest(p_hits integer[], p_units bigint[], p_since bigint)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select min(r.u) from unnest(p_hits, p_units) as r(h, u) where r.u >= p_since and r.h > 0;
$$;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------

-- Posts accepted per form, by second, for the last minute (the per-form cap). One row per form,
-- locked by the post that counts: racing posts see each other's counts, as the advisory lock and
-- count of entries did before.
create table public.form_post_counts (
  form_id uuid primary key references public.forms (id) on delete cascade,
  hits integer[] not null default '{}',
  units bigint[] not null default '{}'
);

comment on table public.form_post_counts is
  'Posts accepted per form by second over the last minute; written only by accept_submission().';

-- Notifications queued per account: by minute over the last hour (61 slots, so the minute an hour
-- ago counts whole) and by hour over the last day (25 slots). Counted, like notification_sends
-- before, apart from the outbox: deleting messages wins no fresh allowance.
create table public.notification_counts (
  user_id uuid primary key references auth.users (id) on delete cascade,
  minute_hits integer[] not null default '{}',
  minute_units bigint[] not null default '{}',
  hour_hits integer[] not null default '{}',
  hour_units bigint[] not null default '{}'
);

comment on table public.notification_counts is
  'Notifications queued per account by minute (last hour) and hour (last day), for the caps.';

-- Forgetting stale per-client counters costs what there is to forget, not a walk over every
-- client the form has seen.
create index submission_rate_limits_form_window_idx
  on public.submission_rate_limits (form_id, window_start);

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------

-- Counts one notification queued for p_user at p_at. The caller holds the account's row lock, or
-- takes it here (the update), so racing posts cannot both take the last slot.
create function public.count_notification_send(p_user uuid, p_at timestamptz)
returns void
language plpgsql
security definer set search_path = ''
as $$
declare
  v_minute bigint := floor(extract(epoch from p_at) / 60)::bigint;
  v_hour bigint := floor(extract(epoch from p_at) / 3600)::bigint;
begin
  insert into public.notification_counts (user_id) values (p_user) on conflict (user_id) do nothing;
  update public.notification_counts c
     set (minute_hits, minute_units) =
           (select m.hits, m.units from public.ring_add(c.minute_hits, c.minute_units, v_minute, 61, 1) m),
         (hour_hits, hour_units) =
           (select h.hits, h.units from public.ring_add(c.hour_hits, c.hour_units, v_hour, 25, 1) h)
   where c.user_id = p_user;
end;
$$;

-- An insert into notification_sends is counted in the account's rings and not stored: the table
-- stays empty however many e-mails go out.
create function public.fold_notification_send()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  perform public.count_notification_send(new.user_id, coalesce(new.sent_at, now()));
  return null;
end;
$$;

create trigger notification_sends_fold
  before insert on public.notification_sends
  for each row execute function public.fold_notification_send();

-- The rows kept so far go into the rings (the insert is folded by the trigger above).
with moved as (
  delete from public.notification_sends returning user_id, sent_at
)
insert into public.notification_sends (user_id, sent_at)
  select user_id, sent_at from moved where sent_at > now() - interval '1 day';

-- Same signature and answers as before (20261124110100_notification_caps.sql); `create or replace`
-- keeps its owner and grants. Returns {status: 'accepted', entry_id, delivery_id,
-- notification_skipped} or {status: 'rate_limited', retry_after} or {status: 'form_not_found'}.
create or replace function public.accept_submission(
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
  p_account_per_day integer default null
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
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
  v_hits integer[];
  v_units bigint[];
  v_hour_hits integer[];
  v_hour_units bigint[];
  v_retry_after integer := 0;
  v_skipped text;
  v_delivery_id uuid;
begin
  -- `for key share` keeps the form from being deleted until this transaction ends; its settings
  -- are read under the same lock, so the decision to e-mail follows the form as it is now.
  select f.user_id, f.target_email, f.notify_email, f.target_verified
    into v_owner, v_recipient, v_notify, v_verified
    from public.forms f where f.id = p_form_id for key share;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;

  -- Per client: upserting locks this client's counters, so concurrent posts from one client queue
  -- up here and each sees the count the previous one left.
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
    v_retry_after := ceil(extract(epoch from (v_day + interval '1 day' - now())));
  elsif v_minute_hits >= p_per_minute then
    v_retry_after := ceil(extract(epoch from (v_minute + interval '1 minute' - now())));
  end if;
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', greatest(v_retry_after, 1));
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

  update public.submission_rate_limits
     set hits = hits + 1
   where form_id = p_form_id and ip_hash = p_ip_hash;
  -- Forget clients not seen for two days.
  delete from public.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';

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

-- The endpoint's one call per post. p_seen is the form as the caller knows it ({id, name,
-- target_email, allowed_origin, redirect_url}, or null when it knows none): when it is the form's
-- current state the post goes on to accept_submission() with the same arguments and its answer is
-- returned; otherwise nothing is stored and the answer is {status: 'form_changed', form: <current
-- form>}, or {status: 'form_not_found'}. The caller checks the origin again against the current
-- form and retries. Security invoker: whoever may not run accept_submission() may not run this.
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
  p_account_per_day integer
)
returns jsonb
language plpgsql
security invoker set search_path = ''
as $$
declare
  v_form jsonb;
begin
  select jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url
         )
    into v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  return public.accept_submission(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day
  );
end;
$$;

-- Same signature and answers as before. A job named by id is found through the primary key (it
-- used to walk the due-jobs index past every other due job), and giving up expired leases walks
-- only due jobs.
create or replace function public.claim_email_deliveries(
  p_id uuid,
  p_limit integer,
  p_lease_seconds integer,
  p_max_attempts integer
)
returns table (
  id uuid,
  lease uuid,
  attempts integer,
  recipient text,
  subject text,
  reply_to text,
  text_body text,
  html_body text
)
language plpgsql
security definer set search_path = ''
as $$
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
    returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body;
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
  returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body;
end;
$$;

-- Records the outcomes of a batch of attempts in one call: p_results is a JSON array of
-- {id, lease, sent, error, retry_in_seconds}, each counted only for the holder of the job's
-- current lease, as finish_email_delivery() does for one. Returns how many counted.
create function public.finish_email_deliveries(p_results jsonb)
returns integer
language plpgsql
security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_count integer;
begin
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
    from jsonb_to_recordset(coalesce(p_results, '[]'::jsonb))
           as r(id uuid, lease uuid, sent boolean, error text, retry_in_seconds integer)
   where d.id = r.id and d.lease = r.lease and d.status = 'sending';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
alter table public.form_post_counts enable row level security;
alter table public.notification_counts enable row level security;
-- No policies: only the definer functions above touch the counters.
revoke all on table public.form_post_counts from anon, authenticated;
revoke all on table public.notification_counts from anon, authenticated;
grant all on table public.form_post_counts to service_role;
grant all on table public.notification_counts to service_role;

revoke execute on function public.ring_add(integer[], bigint[], bigint, integer, integer)
  from public, anon, authenticated;
revoke execute on function public.ring_count(integer[], bigint[], bigint)
  from public, anon, authenticated;
revoke execute on function public.ring_oldest(integer[], bigint[], bigint)
  from public, anon, authenticated;
revoke execute on function public.count_notification_send(uuid, timestamptz)
  from public, anon, authenticated;
revoke execute on function public.fold_notification_send() from public, anon, authenticated;
revoke execute on function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer)
  from public, anon, authenticated;
revoke execute on function public.finish_email_deliveries(jsonb) from public, anon, authenticated;
grant execute on function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer)
  to service_role;
grant execute on function public.finish_email_deliveries(jsonb) to service_role;
