-- Target-address confirmations, from the recipient's side and after it.
--
-- 1. Messages received while a form's target address waited for its confirmation were stored but
--    never e-mailed. The endpoint now keeps each one's notification, composed as it would have
--    been sent, in `private.held_notifications` (hold_notification(), service role), and the owner
--    may send them once the address is confirmed: send_held_notifications(form) queues them to the
--    form's target — only when it is verified now, only within the account's notification caps
--    (what does not fit stays held for a later try), oldest first, each once. A held copy goes
--    with its message.
-- 2. The /confirm-address page names the address and the form before the reader confirms
--    (target_confirmation_details(token)), and confirm_target_email() names the form too, so the
--    page can thank the recipient for exactly what they agreed to.

-- ------------------------------------------------------------------------------------------------
-- Held notifications
-- ------------------------------------------------------------------------------------------------
create table private.held_notifications (
  entry_id uuid primary key references public.entries (id) on delete cascade,
  form_id uuid not null references public.forms (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  subject text not null,
  reply_to text,
  text_body text not null,
  html_body text not null,
  created_at timestamptz not null default now(),
  -- The same bounds as the outbox's rows, which these become.
  constraint held_notifications_headers_single_line check (
    subject !~ '[\r\n]' and coalesce(reply_to, '') !~ '[\r\n]'
  ),
  constraint held_notifications_size check (
    char_length(subject) <= 1000
    and octet_length(text_body) <= 512 * 1024
    and octet_length(html_body) <= 1024 * 1024
  )
);

comment on table private.held_notifications is
  'Notifications of entries stored while their form''s target was unconfirmed; sent on the owner''s request once it is.';

create index held_notifications_form_idx on private.held_notifications (form_id, created_at);

-- Keeps the notification the endpoint composed for an entry it stored without e-mailing because
-- the target was unverified. Holds nothing for any other entry (spam, e-mailed, notifications off,
-- over a cap). Returns whether it held it. Service role only.
create function public.hold_notification(p_entry_id uuid, p_notification jsonb)
returns boolean
language plpgsql
security definer set search_path = ''
as $$
declare
  v_entry public.entries%rowtype;
begin
  if p_notification is null then
    return false;
  end if;
  select * into v_entry from public.entries e where e.id = p_entry_id;
  if not found or v_entry.is_spam or v_entry.notification_skipped is distinct from 'unverified' then
    return false;
  end if;
  insert into private.held_notifications
      (entry_id, form_id, user_id, subject, reply_to, text_body, html_body)
    values (
      v_entry.id, v_entry.form_id, v_entry.user_id,
      p_notification ->> 'subject',
      nullif(p_notification ->> 'reply_to', ''),
      p_notification ->> 'text',
      p_notification ->> 'html'
    )
    on conflict (entry_id) do nothing;
  return found;
end;
$$;

-- The caller's forms with held notifications, and how many (messages marked spam since are not
-- counted: they are not sent).
create function public.held_notification_counts()
returns table (form_id uuid, held integer)
language sql
stable
security definer set search_path = ''
as $$
  select h.form_id, count(*)::integer
    from private.held_notifications h
    join public.entries e on e.id = h.entry_id
   where h.user_id = (select auth.uid()) and not e.is_spam
   group by h.form_id;
$$;

-- "Send the messages received meanwhile", as the form's owner. Answers
-- {status: 'queued', queued, remaining, email} (remaining: held back by the notification caps),
-- {status: 'limited', remaining} (the caps leave no room now), {status: 'none'} (nothing held),
-- {status: 'unverified'} (the target is not confirmed: nothing is sent to it), {status: 'off'}
-- (the form's e-mail notifications are off) or {status: 'not_found'}. The caps are the endpoint's
-- (LIMITS.notificationsPerHour and notificationsPerDay in supabase/functions/_shared/limits.ts),
-- counted in the same rings, under the same lock.
create function public.send_held_notifications(p_form_id uuid)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
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
  insert into public.notification_counts (user_id) values (v_uid) on conflict do nothing;
  select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
    into v_hits, v_units, v_hour_hits, v_hour_units
    from public.notification_counts c where c.user_id = v_uid for update;
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
$$;

-- ------------------------------------------------------------------------------------------------
-- What a confirmation link is about, for the page that asks the reader first
-- ------------------------------------------------------------------------------------------------

-- The form a confirmation names: its own, else another form of the account with the address; as
-- the mail names it (a short label without links, host names or `@`).
create function private.confirmation_form_label(p_row public.target_email_confirmations)
returns text
language sql
stable
security definer set search_path = ''
as $$
  select coalesce(nullif((
    select private.mail_label(f.name, 60)
      from public.forms f
     where f.user_id = p_row.user_id and lower(f.target_email) = p_row.email
     order by (f.id = p_row.form_id) desc nulls last, f.created_at
     limit 1), ''), 'a form');
$$;

-- For whoever holds the token (the /confirm-address page, before its button is pressed): the
-- address and the form it is about, or what is wrong with the link. Changes nothing. Answers
-- {status: 'pending', email, form} or {status: invalid | used | expired}.
create function public.target_confirmation_details(p_token text)
returns jsonb
language plpgsql
stable
security definer set search_path = ''
as $$
declare
  v_row public.target_email_confirmations%rowtype;
begin
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from public.target_email_confirmations c
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
$$;

-- As in 20261124110000_verified_target_emails.sql, and the confirmed answer names the form:
-- {status: confirmed, email, form} or {status: invalid | used | expired}.
create or replace function public.confirm_target_email(p_token text)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_row public.target_email_confirmations%rowtype;
begin
  -- 32 random bytes in hex; anything else cannot be a token (and is not looked up).
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from public.target_email_confirmations c
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

  update public.target_email_confirmations set used_at = now() where id = v_row.id;
  insert into public.verified_target_emails (user_id, email)
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
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
alter table private.held_notifications enable row level security;
revoke all on table private.held_notifications from public, anon, authenticated;

revoke execute on function private.confirmation_form_label(public.target_email_confirmations)
  from public, anon, authenticated, service_role;

revoke execute on function public.hold_notification(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.hold_notification(uuid, jsonb) to service_role;

revoke execute on function public.held_notification_counts() from public, anon;
grant execute on function public.held_notification_counts() to authenticated;

revoke execute on function public.send_held_notifications(uuid) from public, anon;
grant execute on function public.send_held_notifications(uuid) to authenticated;

revoke execute on function public.target_confirmation_details(text) from public;
grant execute on function public.target_confirmation_details(text) to anon, authenticated, service_role;
