-- One fixed-window rate limiter for the form endpoint and the newsletter sign-up.
--
-- Both counted a client (its salted IP hash) in a one-minute and a one-day window with the same
-- block of SQL, copied: upsert the two counters (which locks them, so one client's concurrent
-- requests queue and each sees the count the previous one left), refuse with the seconds until
-- the fuller window ends, else count the request. private.take_fixed_window() is that block once;
-- a form's posts are counted per form (private.submission_rate_limits), the newsletter's sign-ups
-- per client alone (private.newsletter_rate_limits). Behaviour, limits and answers are unchanged;
-- each caller keeps its own housekeeping.

-- ------------------------------------------------------------------------------------------------
-- The limiter
-- ------------------------------------------------------------------------------------------------
-- p_form_id null: the newsletter's counters; otherwise that form's. Returns 0 when the request is
-- counted, else the seconds until the window that is full ends (at least 1).
create function private.take_fixed_window(
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
  v_counters text := case when p_form_id is null then 'private.newsletter_rate_limits'
                          else 'private.submission_rate_limits' end;
  v_key text := case when p_form_id is null then 'ip_hash' else 'form_id, ip_hash' end;
  v_values text := case when p_form_id is null then '$2' else '$1, $2' end;
  v_match text := case when p_form_id is null then 'ip_hash = $2'
                       else 'form_id = $1 and ip_hash = $2' end;
  v_minute_hits integer;
  v_day_hits integer;
begin
  execute format(
    'insert into %1$s as r (%2$s, window_kind, window_start) values (%3$s, $3, $4)
       on conflict (%2$s, window_kind) do update
         set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
             window_start = excluded.window_start
       returning hits', v_counters, v_key, v_values)
    into v_minute_hits using p_form_id, p_ip_hash, 'minute', v_minute;
  execute format(
    'insert into %1$s as r (%2$s, window_kind, window_start) values (%3$s, $3, $4)
       on conflict (%2$s, window_kind) do update
         set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
             window_start = excluded.window_start
       returning hits', v_counters, v_key, v_values)
    into v_day_hits using p_form_id, p_ip_hash, 'day', v_day;

  if v_day_hits >= p_per_day then
    return greatest(ceil(extract(epoch from (v_day + interval '1 day' - now())))::integer, 1);
  elsif v_minute_hits >= p_per_minute then
    return greatest(ceil(extract(epoch from (v_minute + interval '1 minute' - now())))::integer, 1);
  end if;

  execute format('update %s set hits = hits + 1 where %s', v_counters, v_match)
    using p_form_id, p_ip_hash;
  return 0;
end;
$$;

revoke all on function private.take_fixed_window(uuid, text, integer, integer)
  from public, anon, authenticated, service_role;
comment on function private.take_fixed_window(uuid, text, integer, integer) is
  'Counts a client in its one-minute and one-day windows (per form, or for the newsletter when p_form_id is null); 0 when counted, else the seconds to wait.';

-- ------------------------------------------------------------------------------------------------
-- The form endpoint: the limiter, then forget the form's clients not seen for two days
-- ------------------------------------------------------------------------------------------------
create or replace function private.take_client_allowance(
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
  v_retry_after integer := private.take_fixed_window(p_form_id, p_ip_hash, p_per_minute, p_per_day);
begin
  if v_retry_after > 0 then
    return v_retry_after;
  end if;
  delete from private.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';
  return 0;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- The newsletter sign-up: the limiter in place of its copy (the rest as before)
-- ------------------------------------------------------------------------------------------------
create or replace function public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(p_email));
  v_retry_after integer := 0;
  v_subscriber public.newsletter_subscribers;
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
