alter table "private"."action_ledger" drop constraint "action_ledger_kind";

alter table "public"."email_deliveries" drop constraint "email_deliveries_kind";

drop function if exists "public"."list_subscribe"(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb);


  create table "private"."list_captcha_secrets" (
    "list_id" uuid not null,
    "secret" text not null,
    "updated_at" timestamp with time zone not null default now()
      );


alter table "private"."list_captcha_secrets" enable row level security;

alter table "public"."newsletter_lists" add column "captcha_provider" text;

alter table "public"."newsletter_lists" add column "captcha_site_key" text;

CREATE UNIQUE INDEX list_captcha_secrets_pkey ON private.list_captcha_secrets USING btree (list_id);

alter table "private"."list_captcha_secrets" add constraint "list_captcha_secrets_pkey" PRIMARY KEY using index "list_captcha_secrets_pkey";

alter table "private"."list_captcha_secrets" add constraint "list_captcha_secrets_list_fkey" FOREIGN KEY (list_id) REFERENCES newsletter_lists(id) ON DELETE CASCADE not valid;

alter table "private"."list_captcha_secrets" validate constraint "list_captcha_secrets_list_fkey";

alter table "private"."list_captcha_secrets" add constraint "list_captcha_secrets_secret" CHECK (((char_length(secret) <= 500) AND (secret ~ '^[!-~]+$'::text))) not valid;

alter table "private"."list_captcha_secrets" validate constraint "list_captcha_secrets_secret";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_captcha_complete" CHECK (((captcha_provider IS NULL) = (captcha_site_key IS NULL))) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_captcha_complete";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_captcha_provider" CHECK ((captcha_provider = ANY (ARRAY['turnstile'::text, 'hcaptcha'::text, 'recaptcha'::text]))) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_captcha_provider";

alter table "private"."action_ledger" add constraint "action_ledger_kind" CHECK ((kind = ANY (ARRAY['autoresponse'::text, 'target_confirmation'::text, 'webhook_manual_send'::text, 'webhook_attempt'::text, 'api_key_created'::text, 'booking_request'::text, 'booking'::text, 'booking_mail'::text, 'list_signup'::text, 'list_confirmation'::text, 'campaign_test'::text]))) not valid;

alter table "private"."action_ledger" validate constraint "action_ledger_kind";

alter table "public"."email_deliveries" add constraint "email_deliveries_kind" CHECK ((kind = ANY (ARRAY['notification'::text, 'target_confirmation'::text, 'newsletter_confirmation'::text, 'autoresponse'::text, 'webhook_disabled'::text, 'quota_warning'::text, 'booking_confirmation'::text, 'booking_notice'::text, 'booking_cancellation'::text, 'list_confirmation'::text, 'campaign_test'::text]))) not valid;

alter table "public"."email_deliveries" validate constraint "email_deliveries_kind";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_per_hour integer := coalesce((p_caps ->> 'per_account_hour')::integer, 10);
  v_per_day integer := coalesce((p_caps ->> 'per_account_day')::integer, 30);
  v_campaign public.campaigns;
  v_list public.newsletter_lists;
  v_recipient text;
begin
  select c.* into v_campaign from public.campaigns c where c.id = p_campaign_id and c.user_id = p_user_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if char_length(coalesce(p_subject, '')) > 220 or octet_length(coalesce(p_text, '')) > 200 * 1024
     or octet_length(coalesce(p_html, '')) > 600 * 1024 then
    raise exception 'campaign_send_test: the rendered test is too large' using errcode = '22023';
  end if;
  -- A test goes to the account's own sign-in address only, never to one the caller names.
  select u.email into v_recipient from auth.users u where u.id = p_user_id;
  if v_recipient is null or not public.autoresponse_address_ok(lower(v_recipient)) then
    return jsonb_build_object('status', 'no_address');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.campaign-test:' || p_user_id::text, 0));
  if private.ledger_count('campaign_test', now() - interval '1 hour', v_per_hour, p_user_id) >= v_per_hour then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  if private.ledger_count('campaign_test', now() - interval '1 day', v_per_day, p_user_id) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 86400);
  end if;
  insert into private.action_ledger (kind, user_id) values ('campaign_test', p_user_id);
  select l.* into v_list from public.newsletter_lists l where l.id = v_campaign.list_id;
  insert into public.email_deliveries
      (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name)
    values ('campaign_test', p_user_id, lower(v_recipient), p_subject, v_list.reply_to, p_text, p_html,
            coalesce(v_list.from_name, private.autoresponse_from_name(v_list.name)));
  return jsonb_build_object('status', 'ok', 'recipient', lower(v_recipient));
end;
$function$
;

CREATE OR REPLACE FUNCTION public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_list public.newsletter_lists;
  v_client text := left(coalesce(p_client, ''), 200);
  v_per_minute integer := coalesce((p_caps ->> 'per_client_minute')::integer, 5);
  v_per_day integer := coalesce((p_caps ->> 'per_client_day')::integer, 20);
begin
  select l.* into v_list from public.newsletter_lists l where l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if regexp_replace(lower(btrim(coalesce(p_origin, ''))), '/$', '') <> v_list.allowed_origin then
    return jsonb_build_object('status', 'foreign_origin');
  end if;
  -- The client's allowance at this owner's lists, counted before anything else is done for the
  -- request (a CAPTCHA check, the signup), whatever its outcome.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-client:' || v_list.user_id::text || ':' || v_client, 0));
  if private.ledger_count('list_signup', now() - interval '1 minute', v_per_minute, v_list.user_id, null, null, v_client) >= v_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 60);
  end if;
  if private.ledger_count('list_signup', now() - interval '1 day', v_per_day, v_list.user_id, null, null, v_client) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  insert into private.action_ledger (kind, user_id, client) values ('list_signup', v_list.user_id, v_client);
  return jsonb_build_object(
    'status', 'ok',
    'captcha_provider', v_list.captcha_provider,
    'captcha_secret', (select c.secret from private.list_captcha_secrets c where c.list_id = p_list_id));
end;
$function$
;

CREATE OR REPLACE FUNCTION public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_name text := nullif(btrim(regexp_replace(coalesce(p_name, ''), '[\x01-\x1f\x7f-\x9f]+', ' ', 'g')), '');
  v_per_recipient integer := coalesce((p_caps ->> 'per_recipient_day')::integer, 3);
  v_per_account integer := coalesce((p_caps ->> 'per_account_day')::integer, 500);
  v_cooldown interval := make_interval(secs => coalesce((p_caps ->> 'cooldown_seconds')::integer, 6 * 3600));
  v_list public.newsletter_lists;
  v_subscriber public.list_subscribers;
  v_target text;
  v_link text;
  v_text text;
  v_label text;
begin
  if not public.autoresponse_address_ok(v_email) then
    return jsonb_build_object('status', 'invalid', 'field', 'email', 'message', 'Enter a valid e-mail address.');
  end if;
  if char_length(coalesce(v_name, '')) > 100 then
    return jsonb_build_object('status', 'invalid', 'field', 'name', 'message', 'Keep the name under 100 characters.');
  end if;
  if p_confirm_token is null or p_confirm_token !~ '^[A-Za-z0-9_-]{43}$'
     or p_link_prefix is null or p_link_prefix !~ '^https?://[^\s"<>]+$' then
    raise exception 'list_subscribe needs a token and the confirmation link''s prefix' using errcode = '22023';
  end if;
  -- The caller went through list_signup_attempt() first (origin, client allowance, CAPTCHA).
  select l.* into v_list from public.newsletter_lists l where l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;

  -- One decision at a time per address and list.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-address:' || p_list_id::text || ':' || v_email, 0));
  select s.* into v_subscriber from public.list_subscribers s
   where s.list_id = p_list_id and lower(s.email) = v_email for update;
  if found and v_subscriber.status = 'confirmed' then
    return jsonb_build_object('status', 'ok');
  end if;
  if not found then
    insert into public.list_subscribers (list_id, user_id, email, name, status, source)
      values (p_list_id, v_list.user_id, v_email, v_name, 'pending', 'form')
      returning * into v_subscriber;
  elsif v_subscriber.status <> 'pending' then
    update public.list_subscribers s
       set status = 'pending', name = coalesce(v_name, s.name), unsubscribed_at = null, bounced_at = null
     where s.id = v_subscriber.id;
  elsif exists (select 1 from private.list_subscriber_tokens t
                 where t.subscriber_id = v_subscriber.id and t.created_at > now() - v_cooldown) then
    -- A confirmation went out a short while ago: no second one yet.
    return jsonb_build_object('status', 'ok');
  end if;

  -- At most v_per_recipient confirmation mails a day to one address, from every list together.
  v_target := private.address_key(v_email);
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-confirmation-to:' || v_target, 0));
  if private.ledger_count_target('list_confirmation', now() - interval '1 day', v_per_recipient, v_target) >= v_per_recipient then
    return jsonb_build_object('status', 'ok');
  end if;
  -- ...and at most v_per_account a day from one owner's lists together: the confirmation carries
  -- the owner's words, so many visitors' addresses must not make it a way to mail strangers.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-confirmations-of:' || v_list.user_id::text, 0));
  if private.ledger_count('list_confirmation', now() - interval '1 day', v_per_account, v_list.user_id) >= v_per_account then
    return jsonb_build_object('status', 'ok');
  end if;
  insert into private.action_ledger (kind, user_id, target) values ('list_confirmation', v_list.user_id, v_target);

  delete from private.list_subscriber_tokens t where t.subscriber_id = v_subscriber.id;
  insert into private.list_subscriber_tokens (token_hash, subscriber_id, expires_at)
    values (encode(sha256(convert_to(p_confirm_token, 'UTF8')), 'hex'), v_subscriber.id, now() + interval '7 days');
  v_link := p_link_prefix || p_confirm_token;
  v_label := left(btrim(regexp_replace(v_list.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), 100);
  v_text := case when btrim(v_list.confirm_message) <> '' then btrim(v_list.confirm_message) || E'\n\n' else '' end
    || 'Please confirm that you want to receive "' || v_label || '":' || E'\n' || v_link || E'\n\n'
    || 'If you did not ask for this, ignore this message: you will not hear from this list.'
    || E'\n\n--\nYou receive this because this address was entered in the signup form of "' || v_label
    || '" on ' || v_list.allowed_origin || '.';
  insert into public.email_deliveries
      (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name)
    values ('list_confirmation', v_list.user_id, v_email,
            'Confirm your subscription to ' || left(v_label, 150), v_list.reply_to, v_text,
            '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><div>'
              || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>') || '</div></body></html>',
            coalesce(v_list.from_name, private.autoresponse_from_name(v_list.name)));
  return jsonb_build_object('status', 'ok');
end;
$function$
;

CREATE OR REPLACE FUNCTION public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text)
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
    raise exception 'Sign in to change a list''s CAPTCHA.' using errcode = '42501';
  end if;
  select l.captcha_provider into v_current from public.newsletter_lists l
   where l.id = p_list_id and l.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This list no longer exists.' using errcode = 'PT404';
  end if;
  if p_provider is null then
    update public.newsletter_lists l set captcha_provider = null, captcha_site_key = null
     where l.id = p_list_id;
    delete from private.list_captcha_secrets c where c.list_id = p_list_id;
    return jsonb_build_object('captcha_provider', null, 'captcha_site_key', null);
  end if;
  if p_provider not in ('turnstile', 'hcaptcha', 'recaptcha') then
    raise exception 'Choose Turnstile, hCaptcha or reCAPTCHA.' using errcode = '22023';
  end if;
  if v_site_key !~ '^[A-Za-z0-9_-]{1,200}$' then
    raise exception 'Enter the site key exactly as the provider shows it.' using errcode = '22023';
  end if;
  if v_secret = '' then
    -- Keeping the stored secret is only possible for the provider it was given for.
    if v_current is distinct from p_provider
       or not exists (select 1 from private.list_captcha_secrets c where c.list_id = p_list_id) then
      raise exception 'Enter the secret key.' using errcode = '22023';
    end if;
  elsif char_length(v_secret) > 500 or v_secret !~ '^[!-~]+$' then
    raise exception 'Enter the secret key exactly as the provider shows it.' using errcode = '22023';
  else
    insert into private.list_captcha_secrets (list_id, secret) values (p_list_id, v_secret)
      on conflict (list_id) do update set secret = excluded.secret, updated_at = now();
  end if;
  update public.newsletter_lists l set captcha_provider = p_provider, captcha_site_key = v_site_key
   where l.id = p_list_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$function$
;

CREATE OR REPLACE FUNCTION private.newsletter_lists_sweep(p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_tokens integer;
  v_pending integer;
begin
  delete from private.list_subscriber_tokens t
   where t.token_hash in (select x.token_hash from private.list_subscriber_tokens x
                           where x.expires_at < now() limit greatest(p_limit, 0));
  get diagnostics v_tokens = row_count;
  -- Signups never confirmed are forgotten after 30 days.
  delete from public.list_subscribers s
   where s.id in (select x.id from public.list_subscribers x
                   where x.status = 'pending' and x.created_at < now() - interval '30 days'
                   limit greatest(p_limit, 0));
  get diagnostics v_pending = row_count;
  -- Copies of confirmation and test mail (they name the address) go after 30 days.
  delete from public.email_deliveries d
   where d.kind in ('list_confirmation', 'campaign_test') and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  return jsonb_build_object('tokens', v_tokens, 'pending', v_pending);
end;
$function$
;

alter function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) set search_path to '';
alter function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) set search_path to '';
alter function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) set search_path to '';
alter function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) set search_path to '';
comment on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) is 'Queues a test of an owner''s campaign (rendered by the newsletter function as the sender renders it) to the owner''s own sign-in address, within a few an hour and a day per account.';
comment on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) is 'The first step of a signup to an owner''s list: the list exists, the page is its site, and the client is within its allowance (counted whatever follows); answers the list''s CAPTCHA provider and secret for the check before list_subscribe().';
comment on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) is 'A signup to an owner''s list from its form, after list_signup_attempt(): the double opt-in mail (the owner''s words) at most once per cooldown and a few times a day per address and per account; the same answer for every valid address.';
comment on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) is 'The owner turns a list''s signup CAPTCHA on (provider, public site key, secret key kept in private) or off; an empty secret keeps the stored one for the same provider.';
comment on table private.list_captcha_secrets is 'CAPTCHA secret keys of lists'' signup forms: set through set_list_captcha(), read by the newsletter function.';
grant execute on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) to postgres;
grant execute on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) to service_role;
grant execute on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) to postgres;
grant execute on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) to service_role;
grant execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) to postgres;
grant execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) to service_role;
grant execute on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) to authenticated;
grant execute on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) to postgres;
revoke execute on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) from public;
revoke execute on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) from public;
revoke execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) from public;
revoke execute on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) from public;
