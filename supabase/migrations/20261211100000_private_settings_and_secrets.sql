-- Private settings and secrets: the last five internal tables move from `public` to `private`.
--
-- 20261210100000_private_internals.sql moved the counters and tokens; these five stayed behind
-- because a service-role client could still read them through the Data API. None needs it:
--
--   used_form_ids            every id a form ever had (written by a trigger only)
--   form_captcha_secrets     CAPTCHA secret keys (the forms function reads one through
--                            form_captcha_secret(), a definer function for the service role)
--   plan_settings            the deployment's plan defaults (one row, changed in SQL)
--   webhook_settings         the local-targets switch (one row, changed in SQL)
--   newsletter_subscribers   sign-ups, written only through the newsletter's definer functions
--
-- `alter table … set schema` keeps every row, index, constraint, trigger and foreign key; the
-- functions that name them are redefined with the new schema (bodies otherwise unchanged), and the
-- tables lose every API role's grant.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
alter table public.used_form_ids set schema private;
alter table public.form_captcha_secrets set schema private;
alter table public.plan_settings set schema private;
alter table public.webhook_settings set schema private;
alter table public.newsletter_subscribers set schema private;

revoke all on table
  private.used_form_ids, private.form_captcha_secrets, private.plan_settings,
  private.webhook_settings, private.newsletter_subscribers
  from public, anon, authenticated, service_role;

comment on table private.form_captcha_secrets is
  'CAPTCHA secret keys: set through set_form_captcha(), read by the forms function through form_captcha_secret().';

-- ------------------------------------------------------------------------------------------------
-- The forms function's way to a secret
-- ------------------------------------------------------------------------------------------------
create or replace function public.form_captcha_secret(p_form_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select s.secret from private.form_captcha_secrets s where s.form_id = p_form_id;
$function$;
comment on function public.form_captcha_secret(p_form_id uuid) is
  'The form''s CAPTCHA secret key, or null: for the forms function (service role) to verify a token.';
revoke all on function public.form_captcha_secret(p_form_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.form_captcha_secret(p_form_id uuid) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Functions that name them (same bodies, `private.` for `public.`)
-- ------------------------------------------------------------------------------------------------
create or replace function public.register_form_id()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_per_hour constant integer := 20;
  c_per_day constant integer := 100;
  v_uid uuid := (select auth.uid());
begin
  if tg_op = 'UPDATE' and new.id = old.id then
    return new;
  end if;
  if tg_op = 'INSERT' and v_uid is not null then
    -- Counted for the caller, whatever user_id the row claims (RLS refuses another's afterwards).
    perform pg_advisory_xact_lock(hashtextextended('tinyback.form_create:' || v_uid::text, 0));
    if (select count(*) from (select 1 from private.used_form_ids u
          where u.user_id = v_uid and u.first_used_at > now() - interval '1 hour'
          limit c_per_hour) h) >= c_per_hour
       or (select count(*) from (select 1 from private.used_form_ids u
          where u.user_id = v_uid and u.first_used_at > now() - interval '1 day'
          limit c_per_day) d) >= c_per_day then
      raise exception 'You have created too many forms recently. Try again in an hour.'
        using errcode = 'PT429', hint = 'form_create_limit',
              detail = format('At most %s forms an hour and %s a day per account.', c_per_hour, c_per_day);
    end if;
  end if;
  insert into private.used_form_ids (id, user_id) values (new.id, coalesce(v_uid, new.user_id))
    on conflict (id) do nothing;
  if not found then
    raise exception 'This form id was used before.'
      using errcode = '23505',
            detail = 'Form ids are never reused, so a deleted form''s published HTML cannot reach a new owner.',
            hint = 'Create the form with a new random id.';
  end if;
  return new;
end;
$function$;

create or replace function public.handle_new_account_plan()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_chosen text;
  v_billing text;
begin
  select p.id into v_chosen from public.plans p
   where p.listed and p.id = new.raw_user_meta_data ->> 'plan';
  if v_chosen is not null then
    v_billing := case when new.raw_user_meta_data ->> 'billing' = 'annual' then 'annual'
                      else 'monthly' end;
  end if;
  insert into public.account_plans (user_id, plan_id, chosen_plan, chosen_billing)
    values (
      new.id,
      coalesce((select s.default_plan from private.plan_settings s where s.id), 'free'),
      v_chosen,
      v_billing
    )
    on conflict (user_id) do nothing;
  return new;
end;
$function$;

create or replace function private.effective_plan(p_user uuid)
 RETURNS public.plans
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select p.* from public.plans p
   where p.id = coalesce(
     (select case when s.unlimited then 'unlimited'
                  else coalesce((select a.plan_id from public.account_plans a where a.user_id = p_user),
                                s.default_plan) end
        from private.plan_settings s where s.id),
     'free');
$function$;

create or replace function private.warn_submission_quota(p_user uuid, p_plan public.plans, p_usage private.submission_usage)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_limit integer := p_plan.submissions_per_month;
  v_level integer;
  v_to text;
  v_contact text;
  v_resets text := to_char(private.usage_resets_at() at time zone 'utc', 'FMDD FMMonth YYYY');
  v_month_name text := to_char(p_usage.month, 'FMMonth');
  v_subject text;
  v_text text;
begin
  if v_limit is null then
    return;
  end if;
  if p_usage.submissions >= v_limit and p_usage.warned_100_at is null then
    v_level := 100;
    update private.submission_usage u
       set warned_100_at = now(), warned_80_at = coalesce(u.warned_80_at, now())
     where u.user_id = p_user and u.month = p_usage.month;
  elsif p_usage.submissions >= ceil(v_limit * 0.8) and p_usage.warned_80_at is null
        and p_usage.warned_100_at is null then
    v_level := 80;
    update private.submission_usage u
       set warned_80_at = now()
     where u.user_id = p_user and u.month = p_usage.month;
  else
    return;
  end if;

  select u.email into v_to from auth.users u
   where u.id = p_user and u.email_confirmed_at is not null;
  if v_to is null then
    return;
  end if;
  select s.contact_email into v_contact from private.plan_settings s where s.id;

  if v_level = 100 then
    v_subject := format('Your %s plan''s %s for %s are used up', p_plan.name,
                        private.quota_count(v_limit, 'submission'), v_month_name);
    v_text := concat_ws(E'\n',
      'Hello,',
      '',
      format('Your forms have received all %s your %s plan includes this month.',
             private.quota_count(v_limit, 'submission'), p_plan.name),
      '',
      format('What happens now: until the count starts again on %s (UTC), new submissions to your '
             || 'forms are refused and not stored; visitors are told that the form cannot accept '
             || 'messages right now. Messages you have already received are kept.', v_resets),
      '');
  else
    v_subject := format('You have used %s of your %s plan''s %s for %s',
                        to_char(p_usage.submissions, 'FM999,999,999,990'), p_plan.name,
                        private.quota_count(v_limit, 'submission'), v_month_name);
    v_text := concat_ws(E'\n',
      'Hello,',
      '',
      format('Your forms have received %s of the %s your %s plan includes this month (%s %%).',
             to_char(p_usage.submissions, 'FM999,999,999,990'),
             private.quota_count(v_limit, 'submission'), p_plan.name,
             floor(p_usage.submissions * 100.0 / v_limit)),
      '',
      format('What happens next: once all %s are used, new submissions to your forms are refused '
             || 'and not stored until the count starts again on %s (UTC). Messages you have '
             || 'already received are kept. Spam caught by the honeypot does not count.',
             to_char(v_limit, 'FM999,999,999,990'), v_resets),
      '');
  end if;
  v_text := concat_ws(E'\n', v_text,
    format('To receive more, move to a bigger plan: plans are switched by hand on request. Write to '
           || '%s from this address and name the plan you want. Settings → Plan and usage shows '
           || 'your usage.', v_contact),
    '');

  insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
    values (
      'quota_warning', p_user, v_to, left(v_subject, 200), v_text,
      '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
        || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>')
        || '</body></html>'
    );
end;
$function$;

create or replace function public.plan_usage()
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_account public.account_plans;
  v_plan public.plans;
  v_effective public.plans;
  v_settings private.plan_settings;
  v_usage private.submission_usage;
begin
  if v_uid is null then
    raise exception 'Sign in to see your plan.' using errcode = '42501';
  end if;
  select s.* into v_settings from private.plan_settings s where s.id;
  select a.* into v_account from public.account_plans a where a.user_id = v_uid;
  select p.* into v_plan from public.plans p
   where p.id = coalesce(v_account.plan_id, v_settings.default_plan, 'free');
  v_effective := private.effective_plan(v_uid);
  select u.* into v_usage from private.submission_usage u
   where u.user_id = v_uid and u.month = private.usage_month();
  return jsonb_build_object(
    'plan', jsonb_build_object(
      'id', v_plan.id, 'name', v_plan.name, 'projects', v_plan.projects,
      'submissions_per_month', v_plan.submissions_per_month),
    'limits', jsonb_build_object(
      'projects', v_effective.projects,
      'submissions_per_month', v_effective.submissions_per_month),
    'deployment_unlimited', coalesce(v_settings.unlimited, false),
    'chosen_plan', v_account.chosen_plan,
    'chosen_billing', v_account.chosen_billing,
    'plan_changed_at', v_account.plan_changed_at,
    'projects_used', (select count(distinct f.allowed_origin)::integer
                        from public.forms f where f.user_id = v_uid),
    'submissions_used', coalesce(v_usage.submissions, 0),
    'month_start', private.usage_month(),
    'resets_at', private.usage_resets_at(),
    'warned_80', v_usage.warned_80_at is not null,
    'warned_100', v_usage.warned_100_at is not null,
    'contact_email', v_settings.contact_email
  );
end;
$function$;

create or replace function public.claim_webhook_deliveries(p_id uuid, p_entry_id uuid, p_limit integer, p_lease_seconds integer)
 RETURNS TABLE(id uuid, lease uuid, attempts integer, event text, round_started_at timestamp with time zone, webhook_id uuid, url text, format text, secret text, form_id uuid, form_name text, entry jsonb, allow_local boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
         coalesce((select s.allow_local from private.webhook_settings s where s.id), false)
    from claimed c
    join public.webhooks w on w.id = c.webhook_id
    join public.forms f on f.id = w.form_id
    left join public.entries e on e.id = c.entry_id;
end;
$function$;

create or replace function public.webhook_url_problem(p_url text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_allow_local boolean := coalesce(
    (select s.allow_local from private.webhook_settings s where s.id), false);
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
$function$;

create or replace function public.set_form_captcha(p_form_id uuid, p_provider text, p_site_key text, p_secret text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_current text;
  v_site_key text := btrim(coalesce(p_site_key, ''));
  v_secret text := btrim(coalesce(p_secret, ''));
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change a form''s CAPTCHA.' using errcode = '42501';
  end if;
  select f.captcha_provider into v_current
    from public.forms f
   where f.id = p_form_id and f.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This form no longer exists.' using errcode = 'PT404';
  end if;

  if p_provider is null then
    update public.forms f set captcha_provider = null, captcha_site_key = null
     where f.id = p_form_id;
    delete from private.form_captcha_secrets s where s.form_id = p_form_id;
    return jsonb_build_object('captcha_provider', null, 'captcha_site_key', null);
  end if;

  if p_provider not in ('turnstile', 'hcaptcha', 'recaptcha') then
    raise exception 'Choose Turnstile, hCaptcha or reCAPTCHA.' using errcode = '22023';
  end if;
  if v_site_key !~ '^[A-Za-z0-9_-]{1,200}$' then
    raise exception 'Enter the site key exactly as the provider shows it.' using errcode = '22023';
  end if;
  if v_secret = '' then
    if v_current is distinct from p_provider
       or not exists (select 1 from private.form_captcha_secrets s where s.form_id = p_form_id) then
      raise exception 'Enter the secret key.' using errcode = '22023';
    end if;
  elsif char_length(v_secret) > 500 or v_secret !~ '^[!-~]+$' then
    raise exception 'Enter the secret key exactly as the provider shows it.' using errcode = '22023';
  else
    insert into private.form_captcha_secrets (form_id, secret) values (p_form_id, v_secret)
      on conflict (form_id) do update set secret = excluded.secret, updated_at = now();
  end if;

  update public.forms f set captcha_provider = p_provider, captcha_site_key = v_site_key
   where f.id = p_form_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$function$;

create or replace function public.skip_existing_subscriber()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  new.email := btrim(new.email);
  new.created_at := now();
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || lower(new.email), 0));
  if exists (
    select 1 from private.newsletter_subscribers s where lower(s.email) = lower(new.email)
  ) then
    return null;
  end if;
  return new;
end;
$function$;

create or replace function public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer)
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
$function$;

create or replace function public.confirm_newsletter_subscription(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_expires_at timestamptz;
begin
  delete from private.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'confirm'
   returning t.subscriber_id, t.expires_at into v_subscriber_id, v_expires_at;
  if v_subscriber_id is null or v_expires_at <= now() then
    return 'invalid';
  end if;

  update private.newsletter_subscribers
     set status = 'confirmed', confirmed_at = now()
   where id = v_subscriber_id and status = 'pending';
  delete from private.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'confirmed';
end;
$function$;

create or replace function public.unsubscribe_newsletter(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
begin
  select t.subscriber_id into v_subscriber_id
    from private.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'unsubscribe';
  if not found then
    return 'invalid';
  end if;

  update private.newsletter_subscribers
     set status = 'unsubscribed', unsubscribed_at = now()
   where id = v_subscriber_id and status <> 'unsubscribed';
  delete from private.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'unsubscribed';
end;
$function$;
