-- Newsletter sign-up through the `newsletter` Edge Function, with double opt-in. Visitors no longer
-- insert into newsletter_subscribers themselves: a plain insert told them whether an address was
-- already on the list (PostgREST's Content-Range `*/0` vs `0-0/1`) and took thousands of
-- addresses in one request. Instead the function calls request_newsletter_subscription() with
-- the service role, which throttles per client, records the address as `pending` and queues a
-- confirmation e-mail in the outbox — all in one transaction, whatever the address's state, so
-- the answer is the same for every valid address. The mail's links carry random tokens; only
-- their SHA-256 hashes are stored. Confirming makes the address `confirmed`; its unsubscribe
-- link makes it `unsubscribed` (kept, so it is never mailed again without a new opt-in).

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------

-- Addresses signed up before this migration were never confirmed by their owners (anyone could
-- add anyone), so they start as `pending`: they get no newsletter until they subscribe again and
-- confirm.
alter table public.newsletter_subscribers
  add column status text not null default 'pending',
  add column confirmed_at timestamptz,
  add column unsubscribed_at timestamptz,
  add column last_confirmation_at timestamptz,
  add constraint newsletter_subscribers_status check (
    status in ('pending', 'confirmed', 'unsubscribed')
  ),
  add constraint newsletter_subscribers_confirmed_has_time check (
    status <> 'confirmed' or confirmed_at is not null
  ),
  add constraint newsletter_subscribers_unsubscribed_has_time check (
    status <> 'unsubscribed' or unsubscribed_at is not null
  );

comment on table public.newsletter_subscribers is
  'Newsletter sign-ups (double opt-in); written only through the newsletter Edge Function.';
comment on column public.newsletter_subscribers.status is
  'pending (awaiting confirmation), confirmed (receives the newsletter) or unsubscribed.';
comment on column public.newsletter_subscribers.last_confirmation_at is
  'When the last confirmation e-mail was queued; at most one per address per cooldown.';

-- Requests never confirmed are forgotten after a while (see request_newsletter_subscription).
create index newsletter_subscribers_pending_idx
  on public.newsletter_subscribers (last_confirmation_at)
  where status = 'pending';

-- The links of the confirmation e-mails. Each mail gets its own confirm token (single use,
-- expiring) and unsubscribe token (valid as long as the address is known), so the links of an
-- earlier mail keep working when a later one is sent.
create table public.newsletter_tokens (
  token_hash text primary key,
  subscriber_id uuid not null references public.newsletter_subscribers (id) on delete cascade,
  purpose text not null,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  constraint newsletter_tokens_purpose check (purpose in ('confirm', 'unsubscribe')),
  -- Confirm links expire; unsubscribe links do not.
  constraint newsletter_tokens_expiry check ((purpose = 'confirm') = (expires_at is not null)),
  constraint newsletter_tokens_hash_format check (token_hash ~ '^[0-9a-f]{64}$')
);

comment on table public.newsletter_tokens is
  'SHA-256 (hex) of the tokens in newsletter e-mail links; the tokens themselves are not stored.';

create index newsletter_tokens_subscriber_idx on public.newsletter_tokens (subscriber_id);
create index newsletter_tokens_expiry_idx on public.newsletter_tokens (expires_at)
  where expires_at is not null;

-- Sign-up requests per client (salted IP hash) and window, like submission_rate_limits; a row
-- whose window has passed is reset in place.
create table public.newsletter_rate_limits (
  ip_hash text not null,
  window_kind text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (ip_hash, window_kind),
  constraint newsletter_rate_limits_window_kind check (window_kind in ('minute', 'day'))
);

comment on table public.newsletter_rate_limits is
  'Newsletter sign-up requests per client (salted IP hash) and window; written only by request_newsletter_subscription().';

create index newsletter_rate_limits_window_idx on public.newsletter_rate_limits (window_start);

-- A sent confirmation e-mail in the outbox holds the address and live link tokens; once its confirm
-- link has expired it is of no further use and is deleted (see request_newsletter_subscription).
create index email_deliveries_newsletter_created_idx on public.email_deliveries (created_at)
  where kind = 'newsletter_confirmation';

-- ------------------------------------------------------------------------------------------------
-- Functions (called by the newsletter Edge Function with the service role only)
-- ------------------------------------------------------------------------------------------------

-- Hex SHA-256 of a link token: what newsletter_tokens stores and looks up.
create function public.newsletter_token_hash(p_token text)
returns text
language sql
immutable strict
set search_path = ''
as $$
  select encode(pg_catalog.sha256(pg_catalog.convert_to(p_token, 'UTF8')), 'hex');
$$;

-- One sign-up request. Counts the client's requests (every valid request counts, whatever the
-- address, so the limit itself reveals nothing), then, unless the client is over its limit:
--   new address          → stored as pending, confirmation e-mail queued;
--   pending/unsubscribed → (again) pending, a new confirmation e-mail queued, unless one was
--                          queued within p_cooldown_seconds (no mail-bombing a stranger);
--   confirmed            → nothing.
-- The e-mail arrives rendered by the function (p_mail: {subject, text, html}) with the links of
-- p_confirm_token and p_unsubscribe_token; only their hashes are stored, and only when the mail is
-- queued. Returns {status: 'accepted', delivery_id (null when no mail was queued)} or
-- {status: 'rate_limited', retry_after}. The caller must not tell these accepted cases apart.
create function public.request_newsletter_subscription(
  p_email text,
  p_ip_hash text,
  p_confirm_token text,
  p_unsubscribe_token text,
  p_mail jsonb,
  p_per_minute integer,
  p_per_day integer,
  p_cooldown_seconds integer,
  p_confirm_ttl_seconds integer,
  p_forget_pending_seconds integer
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
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
  insert into public.newsletter_rate_limits as r (ip_hash, window_kind, window_start)
    values (p_ip_hash, 'minute', v_minute)
    on conflict (ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_minute_hits;
  insert into public.newsletter_rate_limits as r (ip_hash, window_kind, window_start)
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

  update public.newsletter_rate_limits set hits = hits + 1 where ip_hash = p_ip_hash;

  -- Housekeeping, a bounded batch each, served by an index: counters of clients not seen for two
  -- days, expired confirm links, outbox copies of confirmation e-mails whose confirm link has
  -- expired, and requests their addresses' owners never confirmed. Rows another request holds
  -- are skipped, so two requests never wait on each other here.
  delete from public.newsletter_rate_limits
   where (ip_hash, window_kind) in (
     select r.ip_hash, r.window_kind from public.newsletter_rate_limits r
      where r.window_start < now() - interval '2 days'
      limit 100 for update skip locked);
  delete from public.newsletter_tokens
   where token_hash in (
     select t.token_hash from public.newsletter_tokens t
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
    insert into public.newsletter_tokens (token_hash, subscriber_id, purpose, expires_at)
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
$$;

-- Follows a confirm link. A token is single use: confirming removes every confirm token of the
-- address. Returns 'confirmed', or 'invalid' for an unknown, used or expired token (one answer
-- for all three: the caller learns nothing about other addresses).
create function public.confirm_newsletter_subscription(p_token text)
returns text
language plpgsql
security definer set search_path = ''
as $$
declare
  v_subscriber_id uuid;
  v_expires_at timestamptz;
begin
  delete from public.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'confirm'
   returning t.subscriber_id, t.expires_at into v_subscriber_id, v_expires_at;
  if v_subscriber_id is null or v_expires_at <= now() then
    return 'invalid';
  end if;

  update public.newsletter_subscribers
     set status = 'confirmed', confirmed_at = now()
   where id = v_subscriber_id and status = 'pending';
  delete from public.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'confirmed';
end;
$$;

-- Follows an unsubscribe link. Repeating it is harmless (the answer stays 'unsubscribed'); it
-- also voids the address's pending confirm links. Returns 'unsubscribed' or 'invalid'.
create function public.unsubscribe_newsletter(p_token text)
returns text
language plpgsql
security definer set search_path = ''
as $$
declare
  v_subscriber_id uuid;
begin
  select t.subscriber_id into v_subscriber_id
    from public.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'unsubscribe';
  if not found then
    return 'invalid';
  end if;

  update public.newsletter_subscribers
     set status = 'unsubscribed', unsubscribed_at = now()
   where id = v_subscriber_id and status <> 'unsubscribed';
  delete from public.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'unsubscribed';
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
-- Visitors and users no longer write the list directly; with no policy left, only the service
-- role (which bypasses RLS) reads or writes it.
drop policy "Visitors can subscribe to the newsletter" on public.newsletter_subscribers;
drop policy "Users can subscribe to the newsletter" on public.newsletter_subscribers;

alter table public.newsletter_tokens enable row level security;
alter table public.newsletter_rate_limits enable row level security;
-- No policies: only the definer functions above touch them.

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.newsletter_subscribers from anon, authenticated;
grant all on table public.newsletter_subscribers to service_role;

revoke all on table public.newsletter_tokens from anon, authenticated;
grant all on table public.newsletter_tokens to service_role;

revoke all on table public.newsletter_rate_limits from anon, authenticated;
grant all on table public.newsletter_rate_limits to service_role;

revoke execute on function public.newsletter_token_hash(text) from public, anon, authenticated;
revoke execute on function public.request_newsletter_subscription(text, text, text, text, jsonb, integer, integer, integer, integer, integer)
  from public, anon, authenticated;
revoke execute on function public.confirm_newsletter_subscription(text) from public, anon, authenticated;
revoke execute on function public.unsubscribe_newsletter(text) from public, anon, authenticated;
grant execute on function public.newsletter_token_hash(text) to service_role;
grant execute on function public.request_newsletter_subscription(text, text, text, text, jsonb, integer, integer, integer, integer, integer)
  to service_role;
grant execute on function public.confirm_newsletter_subscription(text) to service_role;
grant execute on function public.unsubscribe_newsletter(text) to service_role;
