-- Who gets e-mailed, and how much: accept_submission() queues a notification only when the form's
-- notifications are on, its target address is verified (20261124110000_verified_target_emails.sql)
-- and the account is under its hourly and daily notification caps; the entry is always stored, and
-- says why it was not e-mailed. It also refuses posts over a per-form cap per minute counted over
-- all clients together, a backstop behind the per-client limit. Every number is an argument, so
-- supabase/functions/_shared/limits.ts stays the one source of truth.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------

-- Why an entry was not e-mailed: notifications off, target not confirmed, or a cap reached. Null
-- when a notification was queued, or for spam (is_spam says it). Written only by
-- accept_submission(); the owner reads it (their update grant covers read_at and is_spam only).
alter table public.entries
  add column notification_skipped text,
  add constraint entries_notification_skipped check (
    notification_skipped in ('off', 'unverified', 'hourly_limit', 'daily_limit')
  );

comment on column public.entries.notification_skipped is
  'Why no notification was queued: off, unverified, hourly_limit or daily_limit; null otherwise.';

-- The notifications queued per account, for the caps. Not the outbox itself: deleting an entry
-- deletes its delivery, and an owner deleting messages must not win a fresh allowance.
create table public.notification_sends (
  user_id uuid not null references auth.users (id) on delete cascade,
  sent_at timestamptz not null default now()
);

comment on table public.notification_sends is
  'One row per queued notification e-mail, kept a day: the per-account caps count them.';

create index notification_sends_user_sent_idx on public.notification_sends (user_id, sent_at desc);

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------

-- Three arguments more than before (each null = no cap, as for callers that test other things),
-- so the old signature goes first.
drop function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer);

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
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
  v_form_hits integer;
  v_oldest timestamptz;
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

  -- Per form, all clients together (a backstop when addresses are cheap): the entries of the last
  -- sixty seconds, counted under a per-form lock so racing posts see each other's entries.
  if p_form_per_minute is not null then
    perform pg_advisory_xact_lock(hashtextextended('tinyback.form_rate:' || p_form_id::text, 0));
    select count(*), min(w.created_at) into v_form_hits, v_oldest
      from (
        (select e.created_at from public.entries e
          where e.form_id = p_form_id and not e.is_spam and e.created_at > now() - interval '1 minute'
          order by e.created_at desc limit p_form_per_minute)
        union all
        (select e.created_at from public.entries e
          where e.form_id = p_form_id and e.is_spam and e.created_at > now() - interval '1 minute'
          order by e.created_at desc limit p_form_per_minute)
      ) w;
    if v_form_hits >= p_form_per_minute then
      return jsonb_build_object(
        'status', 'rate_limited',
        'retry_after', greatest(ceil(extract(epoch from (v_oldest + interval '1 minute' - now()))), 1)
      );
    end if;
  end if;

  update public.submission_rate_limits
     set hits = hits + 1
   where form_id = p_form_id and ip_hash = p_ip_hash;
  -- Forget clients not seen for two days (cheap: the primary key starts with form_id).
  delete from public.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';

  -- Whether to e-mail, and if not, why. Spam is never e-mailed (is_spam says so).
  if not p_is_spam and p_notification is not null then
    if not v_notify then
      v_skipped := 'off';
    elsif not v_verified then
      v_skipped := 'unverified';
    elsif p_account_per_hour is not null or p_account_per_day is not null then
      -- One decision at a time per account, so racing posts cannot both take the last slot.
      perform pg_advisory_xact_lock(hashtextextended('tinyback.notify:' || v_owner::text, 0));
      if p_account_per_hour is not null and (
           select count(*) from (
             select 1 from public.notification_sends s
              where s.user_id = v_owner and s.sent_at > now() - interval '1 hour'
              limit p_account_per_hour
           ) h
         ) >= p_account_per_hour then
        v_skipped := 'hourly_limit';
      elsif p_account_per_day is not null and (
           select count(*) from (
             select 1 from public.notification_sends s
              where s.user_id = v_owner and s.sent_at > now() - interval '1 day'
              limit p_account_per_day
           ) d
         ) >= p_account_per_day then
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
    insert into public.notification_sends (user_id) values (v_owner);
    delete from public.notification_sends
     where user_id = v_owner and sent_at < now() - interval '1 day';
  end if;

  return jsonb_build_object(
    'status', 'accepted',
    'entry_id', p_entry_id,
    'delivery_id', v_delivery_id,
    'notification_skipped', v_skipped
  );
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
alter table public.notification_sends enable row level security;
-- No policies: only accept_submission() touches it.
revoke all on table public.notification_sends from anon, authenticated;
grant all on table public.notification_sends to service_role;

revoke execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer)
  from public, anon, authenticated;
grant execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer)
  to service_role;
