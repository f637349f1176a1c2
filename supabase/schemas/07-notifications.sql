-- Notification caps and held notifications
--
-- Per-account caps on notification mail, and notifications held until a target address is
-- confirmed.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table private.notification_counts (
  user_id uuid not null,
  minute_hits integer[] default '{}'::integer[] not null,
  last_minute bigint,
  hour_hits integer[] default '{}'::integer[] not null,
  last_hour bigint,
  constraint notification_counts_pkey PRIMARY KEY (user_id),
  constraint notification_counts_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
comment on table private.notification_counts is
  'Notifications queued per account by minute (last hour) and hour (last day), for the caps (rings: minute_hits[m % 61 + 1] counts minute m, up to last_minute; hour_hits[h % 25 + 1] hour h, up to last_hour).';

create table private.notification_sends (
  user_id uuid not null,
  sent_at timestamp with time zone default now() not null,
  constraint notification_sends_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
create index notification_sends_user_sent_idx ON private.notification_sends (user_id, sent_at DESC);
comment on table private.notification_sends is
  'One row per queued notification e-mail, kept a day: the per-account caps count them.';

create table private.held_notifications (
  entry_id uuid not null,
  form_id uuid not null,
  user_id uuid not null,
  subject text not null,
  reply_to text,
  text_body text not null,
  html_body text not null,
  created_at timestamp with time zone default now() not null,
  constraint held_notifications_pkey PRIMARY KEY (entry_id),
  constraint held_notifications_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.entries(id) ON DELETE CASCADE,
  constraint held_notifications_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint held_notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint held_notifications_headers_single_line CHECK (((subject !~ '[\r\n]'::text) AND (COALESCE(reply_to, ''::text) !~ '[\r\n]'::text))),
  constraint held_notifications_size CHECK (((char_length(subject) <= 1000) AND (octet_length(text_body) <= (512 * 1024)) AND (octet_length(html_body) <= (1024 * 1024))))
);
create index held_notifications_form_idx ON private.held_notifications (form_id, created_at);
comment on table private.held_notifications is
  'Notifications of entries stored while their form''s target was unconfirmed; sent on the owner''s request once it is.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.count_notification_send(p_user uuid, p_at timestamp with time zone)
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
$function$;
revoke all on function public.count_notification_send(p_user uuid, p_at timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function public.fold_notification_send()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform public.count_notification_send(new.user_id, coalesce(new.sent_at, now()));
  return null;
end;
$function$;
revoke all on function public.fold_notification_send() from public, anon, authenticated, service_role;

create or replace function public.hold_notification(p_entry_id uuid, p_notification jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
revoke all on function public.hold_notification(p_entry_id uuid, p_notification jsonb) from public, anon, authenticated, service_role;
grant execute on function public.hold_notification(p_entry_id uuid, p_notification jsonb) to service_role;

create or replace function public.held_notification_counts()
 RETURNS TABLE(form_id uuid, held integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select h.form_id, count(*)::integer
    from private.held_notifications h
    join public.entries e on e.id = h.entry_id
   where h.user_id = (select auth.uid()) and not e.is_spam
   group by h.form_id;
$function$;
revoke all on function public.held_notification_counts() from public, anon, authenticated, service_role;
grant execute on function public.held_notification_counts() to authenticated;

create or replace function public.send_held_notifications(p_form_id uuid)
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
$function$;
revoke all on function public.send_held_notifications(p_form_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.send_held_notifications(p_form_id uuid) to authenticated;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger notification_sends_fold BEFORE INSERT ON private.notification_sends FOR EACH ROW EXECUTE FUNCTION public.fold_notification_send();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table private.notification_counts enable row level security;

alter table private.notification_sends enable row level security;

alter table private.held_notifications enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table private.notification_counts from public, anon, authenticated, service_role;
revoke all on table private.notification_sends from public, anon, authenticated, service_role;
revoke all on table private.held_notifications from public, anon, authenticated, service_role;
