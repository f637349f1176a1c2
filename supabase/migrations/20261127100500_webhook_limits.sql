-- Webhooks that cannot be turned into a request cannon (20261124150000_webhooks.sql set them up).
--
-- - Manual sends (test events and "send again") are counted per account in the action ledger
--   (20261127100000_action_ledger.sql): 10 a minute and 100 a day, whatever webhooks are created
--   or deleted meanwhile (the old per-webhook count reset with the webhook). A test event is tried
--   once, never retried.
-- - An account has at most 25 webhooks (and a form 10).
-- - Attempts to one host are limited per account: 60 a minute; a delivery over it waits for the
--   next free slot instead of being sent (no attempt is counted against it).
-- - A webhook that failed 50 attempts in a row is turned off, its waiting deliveries fail, and its
--   owner is told by e-mail and in the dashboard (as Stripe and GitHub do).
-- - Its BEFORE triggers refuse a client that does not own the form first, with the same answer row
--   level security gives, so they tell nobody whether another account's form exists or how many
--   webhooks it has (and lock nothing of it).
-- - The database's URL check is as strict as the sender's: numeric hosts are read the way browsers
--   read them (0177.0.0.1 is 127.0.0.1), compatibility characters are folded (① is 1), and
--   IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) addresses are refused.
-- - "Not found" answers 404 (PT404) instead of a 500.

-- ------------------------------------------------------------------------------------------------
-- Columns
-- ------------------------------------------------------------------------------------------------
alter table public.webhooks
  add column consecutive_failures integer not null default 0,
  add column disabled_at timestamptz,
  add column disabled_reason text,
  add constraint webhooks_disabled_reason check (disabled_reason in ('failing')),
  add constraint webhooks_disabled_consistent check ((disabled_at is null) = (disabled_reason is null));

comment on column public.webhooks.consecutive_failures is
  'Failed attempts in a row; at 50 the webhook is turned off (disabled_reason = failing).';
comment on column public.webhooks.disabled_reason is
  'Why tinyback turned the webhook off (failing: 50 failed attempts in a row); null when it did not.';

-- The mail that tells an owner their webhook was turned off.
alter table public.email_deliveries
  drop constraint email_deliveries_kind,
  add constraint email_deliveries_kind check (
    kind in ('notification', 'target_confirmation', 'newsletter_confirmation', 'autoresponse',
             'webhook_disabled')
  );

-- ------------------------------------------------------------------------------------------------
-- Target checks
-- ------------------------------------------------------------------------------------------------

-- A host as a browser's URL parser reads an IPv4 address (WHATWG URL, "IPv4 parser"): one to four
-- dot-separated numbers, each decimal, octal (leading 0) or hex (0x), the last one filling the
-- remaining bytes. Null when p_host is not such an address (or no valid one).
create function private.whatwg_ipv4(p_host text)
returns inet
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_parts text[] := string_to_array(p_host, '.');
  v_n integer;
  v_numbers numeric[] := '{}';
  v_part text;
  v_digit text;
  v_value numeric;
  v_base integer;
  v_ip numeric := 0;
begin
  if p_host is null or p_host = '' or char_length(p_host) > 100 then
    return null;
  end if;
  if cardinality(v_parts) > 1 and v_parts[cardinality(v_parts)] = '' then
    v_parts := v_parts[1:cardinality(v_parts) - 1];
  end if;
  v_n := cardinality(v_parts);
  if v_n < 1 or v_n > 4 then
    return null;
  end if;
  foreach v_part in array v_parts loop
    v_part := lower(v_part);
    if v_part ~ '^0x[0-9a-f]*$' then
      v_base := 16;
      v_part := substr(v_part, 3);
    elsif v_part ~ '^0[0-9]+$' then
      -- Octal; an 8 or 9 makes it no address at all.
      if v_part ~ '[89]' then
        return null;
      end if;
      v_base := 8;
      v_part := substr(v_part, 2);
    elsif v_part ~ '^[0-9]+$' then
      v_base := 10;
    else
      return null;
    end if;
    v_value := 0;
    foreach v_digit in array regexp_split_to_array(v_part, '') loop
      continue when v_digit = '';
      v_value := v_value * v_base + ('x' || lpad(v_digit, 8, '0'))::bit(32)::integer;
      if v_value > 4294967295 then
        return null;
      end if;
    end loop;
    v_numbers := v_numbers || v_value;
  end loop;
  for i in 1 .. v_n - 1 loop
    if v_numbers[i] > 255 then
      return null;
    end if;
    v_ip := v_ip + v_numbers[i] * power(256::numeric, 4 - i);
  end loop;
  if v_numbers[v_n] >= power(256::numeric, 5 - v_n) then
    return null;
  end if;
  v_ip := v_ip + v_numbers[v_n];
  return format('%s.%s.%s.%s', (v_ip::bigint >> 24) & 255, (v_ip::bigint >> 16) & 255,
                (v_ip::bigint >> 8) & 255, v_ip::bigint & 255)::inet;
end;
$$;

-- Whether an address is ordinary public unicast (what a webhook may reach).
create or replace function public.webhook_address_is_public(p_addr inet)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select not (
    p_addr <<= any (array[
      '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16',
      '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16',
      '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
      '::/96', '::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64',
      '2001::/32', '2001:db8::/32', '2002::/16', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8'
    ]::inet[])
  );
$$;

-- Why a webhook URL is refused, or null when it is acceptable. The function re-checks the
-- resolved addresses at send time; this catches what can be seen in the URL itself, read the way
-- the sender's URL parser reads it.
create or replace function public.webhook_url_problem(p_url text)
returns text
language plpgsql
stable
security definer set search_path = ''
as $$
declare
  v_allow_local boolean := coalesce(
    (select s.allow_local from public.webhook_settings s where s.id), false);
  v_m text[];
  v_host text;
  v_last text;
  v_addr inet;
begin
  if p_url is null or char_length(p_url) > 2000 then
    return 'The URL must be at most 2000 characters.';
  end if;
  if p_url ~ '[\s<>"\\^`{|}]' or p_url ~ '[[:cntrl:]]' then
    return 'The URL contains characters that are not allowed.';
  end if;
  v_m := regexp_match(p_url, '^(https?)://([^/?#]*)([/?#].*)?$', 'i');
  if v_m is null then
    return 'Enter a full URL starting with https://.';
  end if;
  if v_m[2] like '%@%' then
    return 'The URL must not contain a user name or password.';
  end if;
  if lower(v_m[1]) <> 'https' and not v_allow_local then
    return 'Webhook URLs must start with https://.';
  end if;
  -- The host without the port (an IPv6 literal keeps its brackets until here), folded the way
  -- host names are (compatibility forms such as ① or full-width digits, the other full stops,
  -- invisible characters dropped).
  v_host := lower(v_m[2]);
  if v_host ~ '^\[' then
    v_host := substring(v_host from '^\[([0-9a-f:.]+)\](:[0-9]+)?$');
  else
    v_host := substring(v_host from '^([^:]+)(:[0-9]+)?$');
    v_host := lower(translate(normalize(v_host, NFKC), '。｡．', '...'));
    v_host := regexp_replace(v_host, '[\u00ad\u034f\u180b-\u180d\u200b-\u200d\u2060\ufe00-\ufe0f\ufeff]', '', 'g');
  end if;
  v_host := rtrim(v_host, '.');
  if v_host is null or v_host = '' then
    return 'The URL has no valid host.';
  end if;
  if v_allow_local then
    return null;
  end if;
  if v_host = 'localhost' or v_host ~ '\.(localhost|local|internal|localdomain|home\.arpa)$'
     or v_host !~ '\.' and v_host !~ ':' then
    return 'Webhooks cannot target local or internal host names.';
  end if;
  if v_host ~ ':' then
    begin
      v_addr := v_host::inet;
    exception when others then
      return 'The URL has no valid host.';
    end;
  else
    -- A host whose last label is a number is an IPv4 address to a browser, or no host at all.
    v_last := substring(v_host from '([^.]*)$');
    if v_last ~ '^(0x[0-9a-f]*|[0-9]+)$' then
      v_addr := private.whatwg_ipv4(v_host);
      if v_addr is null then
        return 'Webhooks cannot target numeric addresses in this form.';
      end if;
    end if;
  end if;
  if v_addr is not null and not public.webhook_address_is_public(v_addr) then
    return 'Webhooks cannot target private, loopback, link-local or metadata addresses.';
  end if;
  return null;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Triggers: the owner first
-- ------------------------------------------------------------------------------------------------

-- A signed-in client inserting a row for a form that is not theirs gets row level security's own
-- answer, before anything about that form is looked at or locked.
create function private.refuse_unless_form_owner(p_form_id uuid, p_table text)
returns void
language plpgsql
stable
security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    return;
  end if;
  if not exists (select 1 from public.forms f where f.id = p_form_id and f.user_id = v_uid) then
    raise exception 'new row violates row-level security policy for table "%"', p_table
      using errcode = '42501';
  end if;
end;
$$;

-- The owner comes from the form, the secret from the database, the URL is checked; on update the
-- form, owner and secret cannot change. Turning a webhook back on clears why it was turned off.
create or replace function public.prepare_webhook()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
declare
  v_owner uuid;
  v_problem text;
begin
  if tg_op = 'INSERT' then
    perform private.refuse_unless_form_owner(new.form_id, 'webhooks');
    select f.user_id into v_owner from public.forms f where f.id = new.form_id;
    if v_owner is null then
      raise exception 'form % does not exist', new.form_id using errcode = 'foreign_key_violation';
    end if;
    new.user_id := v_owner;
    new.secret := 'whsec_' || encode(extensions.gen_random_bytes(32), 'hex');
    new.created_at := now();
    new.consecutive_failures := 0;
    new.disabled_at := null;
    new.disabled_reason := null;
  else
    new.form_id := old.form_id;
    new.user_id := old.user_id;
    new.secret := old.secret;
    new.created_at := old.created_at;
    if new.enabled and not old.enabled then
      new.consecutive_failures := 0;
      new.disabled_at := null;
      new.disabled_reason := null;
    end if;
  end if;
  new.url := btrim(new.url);
  if tg_op = 'INSERT' or new.url is distinct from old.url then
    v_problem := public.webhook_url_problem(new.url);
    if v_problem is not null then
      raise exception '%', v_problem using errcode = 'check_violation',
        hint = 'webhook_url_refused';
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

-- At most 10 webhooks per form (each entry fans out to every one) and 25 per account.
create or replace function public.limit_webhooks_per_form()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
declare
  c_per_form constant integer := 10;
  c_per_account constant integer := 25;
begin
  perform private.refuse_unless_form_owner(new.form_id, 'webhooks');
  -- This trigger runs before webhooks_prepare (alphabetical order): the owner comes from the form.
  select f.user_id into new.user_id from public.forms f where f.id = new.form_id for update;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.webhooks:' || new.user_id::text, 0));
  if (select count(*) from public.webhooks w where w.form_id = new.form_id) >= c_per_form then
    raise exception 'A form can have at most 10 webhooks.' using errcode = 'check_violation',
      hint = 'webhook_limit';
  end if;
  if (select count(*) from public.webhooks w where w.user_id = new.user_id) >= c_per_account then
    raise exception 'An account can have at most 25 webhooks.' using errcode = 'check_violation',
      hint = 'webhook_limit';
  end if;
  return new;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Owner actions: counted per account, whatever is deleted meanwhile
-- ------------------------------------------------------------------------------------------------

-- Takes one of the account's manual sends (tests and "send again"), or refuses.
create function private.take_manual_webhook_send(p_user uuid)
returns void
language plpgsql
security definer set search_path = ''
as $$
declare
  c_per_minute constant integer := 10;
  c_per_day constant integer := 100;
begin
  perform pg_advisory_xact_lock(hashtextextended('tinyback.webhook-manual:' || p_user::text, 0));
  if private.ledger_count('webhook_manual_send', now() - interval '1 minute', c_per_minute, p_user)
       >= c_per_minute
     or private.ledger_count('webhook_manual_send', now() - interval '1 day', c_per_day, p_user)
       >= c_per_day then
    raise exception 'Too many test events and resends; wait a minute.' using errcode = 'PT429',
      hint = 'webhook_rate_limited';
  end if;
  insert into private.action_ledger (kind, user_id) values ('webhook_manual_send', p_user);
end;
$$;

-- Queues a test event to one of the caller's webhooks; returns the delivery id.
create or replace function public.send_webhook_test(p_webhook_id uuid)
returns uuid
language plpgsql
security definer set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_id uuid;
begin
  if v_user is null or not exists (
    select 1 from public.webhooks w where w.id = p_webhook_id and w.user_id = v_user
  ) then
    raise exception 'This webhook no longer exists.' using errcode = 'PT404';
  end if;
  perform private.take_manual_webhook_send(v_user);
  insert into public.webhook_deliveries (webhook_id, user_id, event)
  values (p_webhook_id, v_user, 'test')
  returning id into v_id;
  return v_id;
end;
$$;

-- Starts a new round of attempts for one of the caller's deliveries (sent or failed alike).
create or replace function public.redeliver_webhook(p_delivery_id uuid)
returns uuid
language plpgsql
security definer set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_status text;
  v_id uuid;
begin
  select d.status into v_status from public.webhook_deliveries d
   where d.id = p_delivery_id and d.user_id = v_user for update;
  if not found then
    raise exception 'This delivery no longer exists.' using errcode = 'PT404';
  end if;
  if v_status not in ('sent', 'failed') then
    raise exception 'This delivery is already queued.' using errcode = 'check_violation',
      hint = 'webhook_already_queued';
  end if;
  perform private.take_manual_webhook_send(v_user);
  update public.webhook_deliveries d
     set status = 'pending', attempts = 0, next_attempt_at = now(), round_started_at = now(),
         lease = null, locked_until = null, updated_at = now()
   where d.id = p_delivery_id
  returning d.id into v_id;
  return v_id;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- The worker (service role)
-- ------------------------------------------------------------------------------------------------

-- The host of a webhook URL as the ledger keys it (lower case, without port or user).
create function private.url_host(p_url text)
returns text
language sql
immutable
set search_path = ''
as $$
  select left(lower(substring(p_url from '^[A-Za-z][A-Za-z0-9+.-]*://(\[[^\]]*\]|[^/?#:]*)')), 300);
$$;

-- Leases due deliveries (or only `p_id` if never tried, or only those of entry `p_entry_id`: the
-- immediate attempts) and returns what the sender needs, the entry included. A delivery whose
-- account has used its attempts to that host this minute is not leased: it waits until a slot
-- frees up.
create or replace function public.claim_webhook_deliveries(
  p_id uuid,
  p_entry_id uuid,
  p_limit integer,
  p_lease_seconds integer
)
returns table (
  id uuid,
  lease uuid,
  attempts integer,
  event text,
  round_started_at timestamptz,
  webhook_id uuid,
  url text,
  format text,
  secret text,
  form_id uuid,
  form_name text,
  entry jsonb,
  allow_local boolean
)
language plpgsql
security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  c_per_host_minute constant integer := 60;
  v_due record;
  v_host text;
  v_oldest timestamptz;
  v_claimed uuid[] := '{}';
begin
  for v_due in
    select d.id, d.user_id, w.url
      from public.webhook_deliveries d
      join public.webhooks w on w.id = d.webhook_id
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
       -- By id only a delivery never tried yet (the dashboard's "send now" after queueing one).
       and (p_id is null or (d.id = p_id and d.attempts = 0))
       and (p_entry_id is null or d.entry_id = p_entry_id)
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update of d skip locked
  loop
    v_host := private.url_host(v_due.url);
    perform pg_advisory_xact_lock(
      hashtextextended('tinyback.webhook-host:' || v_due.user_id::text || ':' || v_host, 0));
    if private.ledger_count('webhook_attempt', now() - interval '1 minute', c_per_host_minute,
                            v_due.user_id, v_host) >= c_per_host_minute then
      select min(l.created_at) into v_oldest from (
        select l.created_at from private.action_ledger l
         where l.kind = 'webhook_attempt' and l.user_id = v_due.user_id and l.target = v_host
           and l.created_at > now() - interval '1 minute'
         order by l.created_at desc limit c_per_host_minute) l;
      update public.webhook_deliveries d
         set status = 'pending', lease = null, locked_until = null,
             next_attempt_at = coalesce(v_oldest, now()) + interval '1 minute', updated_at = now()
       where d.id = v_due.id;
      continue;
    end if;
    insert into private.action_ledger (kind, user_id, target) values ('webhook_attempt', v_due.user_id, v_host);
    v_claimed := v_claimed || v_due.id;
  end loop;

  return query
  with claimed as (
    update public.webhook_deliveries d
       set status = 'sending',
           attempts = d.attempts + 1,
           lease = gen_random_uuid(),
           locked_until = now() + make_interval(secs => p_lease_seconds),
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           updated_at = now()
     where d.id = any (v_claimed)
    returning d.*
  )
  select c.id, c.lease, c.attempts, c.event, c.round_started_at, w.id, w.url, w.format, w.secret,
         f.id, f.name,
         case when e.id is null then null else jsonb_build_object(
           'id', e.id, 'name', e.name, 'email', e.email, 'message', e.message, 'data', e.data,
           'is_spam', e.is_spam, 'created_at', e.created_at) end,
         coalesce((select s.allow_local from public.webhook_settings s where s.id), false)
    from claimed c
    join public.webhooks w on w.id = c.webhook_id
    join public.forms f on f.id = w.form_id
    left join public.entries e on e.id = c.entry_id;
end;
$$;

-- Records one attempt and its outcome, only for the current lease holder (a stale worker's
-- answer is dropped). `p_retry_in_seconds` null with `p_ok` false: the delivery has failed; a
-- test event fails at its first failed attempt. The 50th failed attempt in a row turns the
-- webhook off and tells its owner.
create or replace function public.finish_webhook_delivery(
  p_id uuid,
  p_lease uuid,
  p_ok boolean,
  p_status_code integer,
  p_error text,
  p_response_excerpt text,
  p_duration_ms integer,
  p_retry_in_seconds integer
)
returns boolean
language plpgsql
security definer set search_path = ''
as $$
declare
  c_failures_before_off constant integer := 50;
  v_row public.webhook_deliveries;
  v_hook public.webhooks;
begin
  update public.webhook_deliveries d
     set status = case when p_ok then 'sent'
                       when p_retry_in_seconds is null or d.event = 'test' then 'failed'
                       else 'pending' end,
         next_attempt_at = case when p_ok or p_retry_in_seconds is null or d.event = 'test'
                                then d.next_attempt_at
                                else now() + make_interval(secs => p_retry_in_seconds) end,
         delivered_at = case when p_ok then now() else d.delivered_at end,
         last_status_code = p_status_code,
         last_error = case when p_ok then null else left(p_error, 500) end,
         lease = null, locked_until = null, updated_at = now()
   where d.id = p_id and d.lease = p_lease and d.status = 'sending'
  returning d.* into v_row;
  if v_row.id is null then
    return false;
  end if;
  insert into public.webhook_attempts
    (delivery_id, webhook_id, user_id, status_code, ok, error, response_excerpt, duration_ms)
  values (v_row.id, v_row.webhook_id, v_row.user_id, p_status_code, p_ok, left(p_error, 500),
          left(p_response_excerpt, 1000), p_duration_ms);

  update public.webhooks w
     set consecutive_failures = case when p_ok then 0 else w.consecutive_failures + 1 end
   where w.id = v_row.webhook_id
  returning w.* into v_hook;
  if not p_ok and v_hook.enabled and v_hook.consecutive_failures >= c_failures_before_off then
    perform private.turn_off_failing_webhook(v_hook);
  end if;
  return true;
end;
$$;

-- Turns a failing webhook off: its waiting deliveries fail (they can be sent again once it works),
-- and the owner gets an e-mail at their account's address saying so.
create function private.turn_off_failing_webhook(p_hook public.webhooks)
returns void
language plpgsql
security definer set search_path = ''
as $$
declare
  v_owner text;
  v_form text;
  v_host text := private.url_host(p_hook.url);
  v_text text;
begin
  update public.webhooks w
     set enabled = false, disabled_at = now(), disabled_reason = 'failing', updated_at = now()
   where w.id = p_hook.id;
  update public.webhook_deliveries d
     set status = 'failed',
         last_error = 'Not sent: the webhook was turned off after 50 failed attempts in a row.',
         lease = null, locked_until = null, updated_at = now()
   where d.webhook_id = p_hook.id and d.status = 'pending';

  select u.email into v_owner from auth.users u
   where u.id = p_hook.user_id and u.email_confirmed_at is not null;
  if v_owner is null then
    return;
  end if;
  select regexp_replace(f.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g') into v_form
    from public.forms f where f.id = p_hook.form_id;
  v_text := concat_ws(E'\n',
    'Hello,',
    '',
    format('Your webhook to %s on the form "%s" failed 50 times in a row, so tinyback turned it off. '
           || 'New messages are not sent to it until you turn it on again.', v_host, v_form),
    '',
    'Check that the URL is right and that the receiver answers with a 2xx status, then turn the '
      || 'webhook on again under Forms → Edit → Webhooks. Deliveries that failed meanwhile can be '
      || 'sent again from its delivery log.',
    '');
  insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
    values (
      'webhook_disabled', p_hook.user_id, v_owner,
      left(format('Your webhook on "%s" was turned off', v_form), 200),
      v_text,
      '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
        || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>')
        || '</body></html>'
    );
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke execute on function private.whatwg_ipv4(text) from public, anon, authenticated, service_role;
revoke execute on function private.refuse_unless_form_owner(uuid, text)
  from public, anon, authenticated, service_role;
revoke execute on function private.take_manual_webhook_send(uuid)
  from public, anon, authenticated, service_role;
revoke execute on function private.url_host(text) from public, anon, authenticated, service_role;
revoke execute on function private.turn_off_failing_webhook(public.webhooks)
  from public, anon, authenticated, service_role;
