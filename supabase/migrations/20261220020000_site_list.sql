drop trigger if exists "newsletter_subscribers_skip_existing" on "private"."newsletter_subscribers";

drop function if exists "public"."confirm_newsletter_subscription"(p_token text);

drop function if exists "public"."newsletter_token_hash"(p_token text);

drop function if exists "public"."request_newsletter_subscription"(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer);

drop function if exists "public"."skip_existing_subscriber"();

drop function if exists "public"."unsubscribe_newsletter"(p_token text);

alter table "private"."list_subscriber_tokens" add column "purpose" text not null default 'confirm'::text;

alter table "private"."list_subscriber_tokens" alter column "expires_at" drop not null;

alter table "public"."newsletter_lists" add column "site_list" boolean not null default false;

CREATE UNIQUE INDEX newsletter_lists_site_list_key ON public.newsletter_lists USING btree (site_list) WHERE site_list;

alter table "private"."list_subscriber_tokens" add constraint "list_subscriber_tokens_expiry" CHECK (((purpose = 'confirm'::text) = (expires_at IS NOT NULL))) not valid;

alter table "private"."list_subscriber_tokens" validate constraint "list_subscriber_tokens_expiry";

alter table "private"."list_subscriber_tokens" add constraint "list_subscriber_tokens_purpose" CHECK ((purpose = ANY (ARRAY['confirm'::text, 'unsubscribe'::text]))) not valid;

alter table "private"."list_subscriber_tokens" validate constraint "list_subscriber_tokens_purpose";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.list_unsubscribe_token(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_list_name text;
begin
  select t.subscriber_id into v_subscriber_id from private.list_subscriber_tokens t
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
     and t.purpose = 'unsubscribe';
  if v_subscriber_id is null then
    return jsonb_build_object('status', 'invalid');
  end if;
  update public.list_subscribers s set status = 'unsubscribed', unsubscribed_at = now()
   where s.id = v_subscriber_id and s.status in ('pending', 'confirmed');
  -- A confirmation link still out there no longer subscribes them.
  delete from private.list_subscriber_tokens t
   where t.subscriber_id = v_subscriber_id and t.purpose = 'confirm';
  select l.name into v_list_name from public.list_subscribers s
    join public.newsletter_lists l on l.id = s.list_id where s.id = v_subscriber_id;
  return jsonb_build_object('status', 'unsubscribed', 'list_name', v_list_name);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.set_site_list(p_list_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
  v_moved integer;
begin
  select l.user_id into v_owner from public.newsletter_lists l where l.id = p_list_id for update;
  if not found then
    raise exception 'No list has the id %.', p_list_id using errcode = 'PT404';
  end if;
  update public.newsletter_lists l set site_list = false where l.site_list and l.id <> p_list_id;
  update public.newsletter_lists l set site_list = true where l.id = p_list_id;

  -- Footer sign-ups from before: into the list, with their consent times and their links.
  with moved as (
    insert into public.list_subscribers
        (id, list_id, user_id, email, status, source, consent_at, created_at, confirmed_at, unsubscribed_at)
      select s.id, p_list_id, v_owner, lower(s.email), s.status, 'form',
             case when s.status = 'confirmed' then s.confirmed_at end,
             s.created_at, s.confirmed_at, s.unsubscribed_at
        from private.newsletter_subscribers s
       where char_length(s.email) <= 254
         and not exists (select 1 from public.list_subscribers x where x.id = s.id)
      on conflict do nothing
      returning id
  ), tokens as (
    insert into private.list_subscriber_tokens (token_hash, subscriber_id, purpose, created_at, expires_at)
      select t.token_hash, t.subscriber_id, t.purpose, t.created_at, t.expires_at
        from private.newsletter_tokens t join moved m on m.id = t.subscriber_id
       where t.expires_at is null or t.expires_at > now()
      on conflict do nothing
      returning 1
  )
  select count(*)::integer into v_moved from moved;
  -- Moved, or already on the list: the old rows are done with.
  delete from private.newsletter_subscribers s
   where exists (select 1 from public.list_subscribers x
                  where x.list_id = p_list_id and lower(x.email) = lower(s.email));
  return jsonb_build_object('site_list', p_list_id, 'moved', v_moved);
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
  -- ...and so are footer sign-ups from before the site's list that were never confirmed.
  delete from private.newsletter_subscribers s
   where s.id in (select x.id from private.newsletter_subscribers x
                   where x.status = 'pending' and x.created_at < now() - interval '30 days'
                   limit greatest(p_limit, 0));
  -- Copies of confirmation and test mail (they name the address) go after 30 days.
  delete from public.email_deliveries d
   where d.kind in ('list_confirmation', 'campaign_test', 'newsletter_confirmation')
     and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  return jsonb_build_object('tokens', v_tokens, 'pending', v_pending);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.list_confirm(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_list_name text;
begin
  delete from private.list_subscriber_tokens t
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
     and t.purpose = 'confirm' and t.expires_at > now()
  returning t.subscriber_id into v_subscriber_id;
  if v_subscriber_id is null then
    return jsonb_build_object('status', 'invalid');
  end if;
  update public.list_subscribers s
     set status = 'confirmed', consent_at = now(), confirmed_at = now()
   where s.id = v_subscriber_id and s.status = 'pending';
  select l.name into v_list_name from public.list_subscribers s
    join public.newsletter_lists l on l.id = s.list_id where s.id = v_subscriber_id;
  return jsonb_build_object('status', 'confirmed', 'list_name', v_list_name);
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
  -- No list named: the site's own (its footer signup, which any page of the site may send).
  select l.* into v_list from public.newsletter_lists l
   where (p_list_id is null and l.site_list) or l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if p_list_id is not null
     and regexp_replace(lower(btrim(coalesce(p_origin, ''))), '/$', '') <> v_list.allowed_origin then
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
    'list_id', v_list.id,
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
                 where t.subscriber_id = v_subscriber.id and t.purpose = 'confirm'
                   and t.created_at > now() - v_cooldown) then
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

  delete from private.list_subscriber_tokens t
   where t.subscriber_id = v_subscriber.id and t.purpose = 'confirm';
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

alter function public.list_unsubscribe_token(p_token text) set search_path to '';
alter function public.set_site_list(p_list_id uuid) set search_path to '';
comment on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) is 'The first step of a signup to an owner''s list (null: the site''s list, from its footer): the list exists, the page is its site, and the client is within its allowance (counted whatever follows); answers the list and its CAPTCHA provider and secret for the check before list_subscribe().';
comment on function public.list_unsubscribe_token(p_token text) is 'Spends an unsubscribe link of earlier footer mail (it works again, as it always did): the subscriber is unsubscribed.';
comment on function public.set_site_list(p_list_id uuid) is 'Makes one list the site''s own (its footer signup goes there) and moves the footer sign-ups from before into it. For the database owner: select public.set_site_list(''<list id>'').';
comment on table private.list_subscriber_tokens is 'SHA-256 (hex) of the confirmation links of list signups (and of the unsubscribe links of earlier footer mail); the tokens themselves are not stored.';
comment on table private.newsletter_rate_limits is 'Requests per client (salted IP hash) in its current minute and day, as take_fixed_window() counts them when no form is named.';
comment on table private.newsletter_subscribers is 'Footer sign-ups from before the site''s list; set_site_list() moves them into it.';
comment on table private.newsletter_tokens is 'SHA-256 (hex) of the links of footer sign-ups from before the site''s list; set_site_list() moves the live ones.';
grant execute on function public.list_unsubscribe_token(p_token text) to postgres;
grant execute on function public.list_unsubscribe_token(p_token text) to service_role;
grant execute on function public.set_site_list(p_list_id uuid) to postgres;
revoke execute on function public.list_unsubscribe_token(p_token text) from public;
revoke execute on function public.set_site_list(p_list_id uuid) from public;
