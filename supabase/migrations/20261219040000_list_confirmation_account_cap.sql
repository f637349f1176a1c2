-- Owners' lists: at most a number of confirmation e-mails a day from one account's lists together
-- (the owner's words go to addresses visitors type in).
set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_name text := nullif(btrim(regexp_replace(coalesce(p_name, ''), '[\x01-\x1f\x7f-\x9f]+', ' ', 'g')), '');
  v_client text := left(coalesce(p_client, ''), 200);
  v_per_minute integer := coalesce((p_caps ->> 'per_client_minute')::integer, 5);
  v_per_day integer := coalesce((p_caps ->> 'per_client_day')::integer, 20);
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
  select l.* into v_list from public.newsletter_lists l where l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if regexp_replace(lower(btrim(coalesce(p_origin, ''))), '/$', '') <> v_list.allowed_origin then
    return jsonb_build_object('status', 'foreign_origin');
  end if;

  -- The client's allowance at this owner's lists, counted whatever the outcome.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-client:' || v_list.user_id::text || ':' || v_client, 0));
  if private.ledger_count('list_signup', now() - interval '1 minute', v_per_minute, v_list.user_id, null, null, v_client) >= v_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 60);
  end if;
  if private.ledger_count('list_signup', now() - interval '1 day', v_per_day, v_list.user_id, null, null, v_client) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  insert into private.action_ledger (kind, user_id, client) values ('list_signup', v_list.user_id, v_client);

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
