-- Confirmation mails of form target addresses, capped where no deletion resets the caps.
--
-- compose_target_confirmations() (20261124110000_verified_target_emails.sql) counted an account's
-- and an address's recent mails in target_email_confirmations, whose rows cascade with the account
-- that asked: deleting the account and signing up again won a fresh allowance for the same
-- recipient. The mails are now counted in the action ledger (20261127100000_action_ledger.sql),
-- and the mail, which goes to an address nobody has confirmed yet, names the form only by a short,
-- link-free label.

create or replace function public.compose_target_confirmations(
  p_link_prefix text,
  p_ttl_seconds integer,
  p_min_interval_seconds integer,
  p_per_account_per_day integer,
  p_per_recipient_per_day integer,
  p_limit integer
)
returns integer
language plpgsql
security definer set search_path = ''
as $$
declare
  v_req public.target_email_confirmations%rowtype;
  v_queued integer := 0;
  v_token text;
  v_target text;
  v_account text;
  v_form text;
  v_link text;
  v_hours integer := greatest(1, round(p_ttl_seconds / 3600.0)::integer);
  v_valid text;
begin
  -- Requests whose address got verified meanwhile, or that no form of the account uses any more,
  -- have nothing left to confirm.
  delete from public.target_email_confirmations c
   where c.queued_at is null and c.skipped is null
     and (public.is_target_verified(c.user_id, c.email)
          or not exists (
            select 1 from public.forms f
             where f.user_id = c.user_id and lower(f.target_email) = c.email
          ));

  for v_req in
    select c.* from public.target_email_confirmations c
     where c.queued_at is null and c.skipped is null
       and not exists (
         select 1 from public.target_email_confirmations p
          where p.user_id = c.user_id and p.email = c.email
            and p.queued_at > now() - make_interval(secs => p_min_interval_seconds)
       )
     order by c.requested_at
     limit greatest(p_limit, 0)
     for update of c skip locked
  loop
    v_target := private.address_key(v_req.email);
    -- One decision at a time per recipient, so two runs cannot both take its last slot.
    perform pg_advisory_xact_lock(hashtextextended('tinyback.confirmation-to:' || v_target, 0));
    if private.ledger_count('target_confirmation', now() - interval '1 day',
                            p_per_account_per_day, v_req.user_id) >= p_per_account_per_day
       or private.ledger_count_target('target_confirmation', now() - interval '1 day',
                                      p_per_recipient_per_day, v_target) >= p_per_recipient_per_day then
      update public.target_email_confirmations set skipped = 'limit' where id = v_req.id;
      continue;
    end if;

    v_token := encode(extensions.gen_random_bytes(32), 'hex');
    v_link := p_link_prefix || v_token;
    select u.email into v_account from auth.users u where u.id = v_req.user_id;
    -- The form's name is the asking account's text, going to a stranger: a short label only.
    select private.mail_label(f.name, 60) into v_form
      from public.forms f
     where f.user_id = v_req.user_id and lower(f.target_email) = v_req.email
     order by (f.id = v_req.form_id) desc nulls last, f.created_at
     limit 1;
    v_form := coalesce(nullif(v_form, ''), 'a form');
    v_valid := format('The link works once and expires in %s hours.', v_hours);

    insert into private.action_ledger (kind, user_id, target, form_id)
      values ('target_confirmation', v_req.user_id, v_target, v_req.form_id);
    insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
      values (
        'target_confirmation',
        v_req.user_id,
        v_req.email,
        'Confirm this address for tinyback form notifications',
        concat_ws(E'\n',
          'Hello,',
          '',
          format('The tinyback account %s wants its form "%s" to e-mail the messages it receives to this address (%s).',
                 coalesce(v_account, '(no e-mail)'), v_form, v_req.email),
          '',
          'To allow it, open this link and press "Confirm address". ' || v_valid,
          '',
          v_link,
          '',
          'If you did not expect this e-mail, ignore it: nothing is sent to this address unless it is confirmed.',
          ''),
        '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
          || '<p>Hello,</p>'
          || format('<p>The tinyback account <strong>%s</strong> wants its form <strong>%s</strong> '
                    || 'to e-mail the messages it receives to this address (%s).</p>',
                    public.confirmation_mail_escape(coalesce(v_account, '(no e-mail)')),
                    public.confirmation_mail_escape(v_form), public.confirmation_mail_escape(v_req.email))
          || format('<p><a href="%s" style="display:inline-block;padding:10px 16px;background:#0d9488;'
                    || 'color:#ffffff;border-radius:6px;text-decoration:none">Review and confirm</a></p>',
                    public.confirmation_mail_escape(v_link))
          || format('<p>Or open this link and press &quot;Confirm address&quot;: %s</p>',
                    public.confirmation_mail_escape(v_link))
          || format('<p>%s</p>', public.confirmation_mail_escape(v_valid))
          || '<p style="color:#666;font-size:12px">If you did not expect this e-mail, ignore it: '
          || 'nothing is sent to this address unless it is confirmed.</p>'
          || '</body></html>'
      );
    update public.target_email_confirmations
       set queued_at = now(),
           token_hash = sha256(convert_to(v_token, 'UTF8')),
           expires_at = now() + make_interval(secs => p_ttl_seconds)
     where id = v_req.id;
    v_queued := v_queued + 1;
  end loop;

  -- Forget spent confirmations after a while (the caps live in the ledger).
  delete from public.target_email_confirmations c
   where c.requested_at < now() - interval '30 days'
     and (c.used_at is not null or c.skipped is not null or c.expires_at < now());
  return v_queued;
end;
$$;

-- The confirmation mails of the last day move into the ledger, so the caps hold across the change.
insert into private.action_ledger (kind, user_id, target, form_id, created_at)
  select 'target_confirmation', c.user_id, private.address_key(c.email), c.form_id, c.queued_at
    from public.target_email_confirmations c
   where c.queued_at > now() - interval '1 day';
