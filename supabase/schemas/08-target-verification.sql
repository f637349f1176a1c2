-- Target verification
--
-- Confirming a form's target address before notifications go there.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table private.target_email_confirmations (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  email text not null,
  form_id uuid,
  requested_at timestamp with time zone default now() not null,
  queued_at timestamp with time zone,
  token_hash bytea,
  expires_at timestamp with time zone,
  used_at timestamp with time zone,
  skipped text,
  constraint target_email_confirmations_pkey PRIMARY KEY (id),
  constraint target_email_confirmations_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE SET NULL,
  constraint target_email_confirmations_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint target_email_confirmations_composed CHECK ((((queued_at IS NULL) = (token_hash IS NULL)) AND ((queued_at IS NULL) = (expires_at IS NULL)))),
  constraint target_email_confirmations_lower CHECK ((email = lower(email))),
  constraint target_email_confirmations_skipped CHECK ((skipped = 'limit'::text))
);
create index target_email_confirmations_email_queued_idx ON private.target_email_confirmations (email, queued_at) WHERE (queued_at IS NOT NULL);
create index target_email_confirmations_form_idx ON private.target_email_confirmations (form_id) WHERE (form_id IS NOT NULL);
create index target_email_confirmations_user_queued_idx ON private.target_email_confirmations (user_id, queued_at) WHERE (queued_at IS NOT NULL);
create unique index target_email_confirmations_open_key ON private.target_email_confirmations (user_id, email) WHERE ((queued_at IS NULL) AND (skipped IS NULL));
create unique index target_email_confirmations_token_key ON private.target_email_confirmations (token_hash) WHERE (token_hash IS NOT NULL);
comment on table private.target_email_confirmations is
  'Confirmation requests and tokens (SHA-256 hashes only) of form target addresses.';

create table private.verified_target_emails (
  user_id uuid not null,
  email text not null,
  verified_at timestamp with time zone default now() not null,
  constraint verified_target_emails_pkey PRIMARY KEY (user_id, email),
  constraint verified_target_emails_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint verified_target_emails_lower CHECK ((email = lower(email)))
);
comment on table private.verified_target_emails is
  'Target addresses an account confirmed through a link; written only by confirm_target_email().';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.is_target_verified(p_user uuid, p_email text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select exists (
           select 1 from private.verified_target_emails v
            where v.user_id = p_user and v.email = lower(btrim(p_email))
         )
      or exists (
           select 1 from auth.users u
            where u.id = p_user
              and u.email_confirmed_at is not null
              and lower(u.email) = lower(btrim(p_email))
         );
$function$;
revoke all on function public.is_target_verified(p_user uuid, p_email text) from public, anon, authenticated, service_role;

create or replace function public.request_target_confirmation()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(new.target_email);
begin
  if new.target_verified then
    return null;
  end if;
  if tg_op = 'UPDATE' and lower(old.target_email) = v_email then
    return null;
  end if;
  if exists (
    select 1 from private.target_email_confirmations c
     where c.user_id = new.user_id and c.email = v_email
       and c.used_at is null and c.expires_at > now()
  ) then
    return null;
  end if;
  insert into private.target_email_confirmations (user_id, email, form_id)
    values (new.user_id, v_email, new.id)
    on conflict (user_id, email) where queued_at is null and skipped is null do nothing;
  return null;
end;
$function$;
revoke all on function public.request_target_confirmation() from public, anon, authenticated, service_role;

create or replace function public.refresh_target_verification()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if old.email is not null and old.email_confirmed_at is not null
     and lower(old.email) is distinct from lower(new.email) then
    insert into private.verified_target_emails (user_id, email)
      values (new.id, lower(old.email))
      on conflict do nothing;
  end if;
  update public.forms f
     set target_verified = public.is_target_verified(f.user_id, f.target_email)
   where f.user_id = new.id
     and f.target_verified is distinct from public.is_target_verified(f.user_id, f.target_email);
  return null;
end;
$function$;
revoke all on function public.refresh_target_verification() from public, anon, authenticated, service_role;

create or replace function public.resend_target_confirmation(p_form_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_verified boolean;
begin
  if v_uid is null then
    raise exception 'Not signed in.' using errcode = '42501';
  end if;
  select lower(f.target_email), f.target_verified into v_email, v_verified
    from public.forms f where f.id = p_form_id and f.user_id = v_uid;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if v_verified then
    return jsonb_build_object('status', 'verified');
  end if;
  if exists (
    select 1 from private.target_email_confirmations c
     where c.user_id = v_uid and c.email = v_email and c.queued_at is null and c.skipped is null
  ) then
    return jsonb_build_object('status', 'already_requested', 'email', v_email);
  end if;
  if exists (
    select 1 from private.target_email_confirmations c
     where (c.user_id = v_uid or c.email = v_email)
       and c.skipped = 'limit' and c.requested_at > now() - interval '1 day'
  ) then
    return jsonb_build_object('status', 'limited');
  end if;
  insert into private.target_email_confirmations (user_id, email, form_id)
    values (v_uid, v_email, p_form_id);
  return jsonb_build_object('status', 'requested', 'email', v_email);
end;
$function$;
revoke all on function public.resend_target_confirmation(p_form_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.resend_target_confirmation(p_form_id uuid) to authenticated;

create or replace function public.compose_target_confirmations(p_link_prefix text, p_ttl_seconds integer, p_min_interval_seconds integer, p_per_account_per_day integer, p_per_recipient_per_day integer, p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_req private.target_email_confirmations%rowtype;
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
  delete from private.target_email_confirmations c
   where c.queued_at is null and c.skipped is null
     and (public.is_target_verified(c.user_id, c.email)
          or not exists (
            select 1 from public.forms f
             where f.user_id = c.user_id and lower(f.target_email) = c.email
          ));

  for v_req in
    select c.* from private.target_email_confirmations c
     where c.queued_at is null and c.skipped is null
       and not exists (
         select 1 from private.target_email_confirmations p
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
      update private.target_email_confirmations set skipped = 'limit' where id = v_req.id;
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
    update private.target_email_confirmations
       set queued_at = now(),
           token_hash = sha256(convert_to(v_token, 'UTF8')),
           expires_at = now() + make_interval(secs => p_ttl_seconds)
     where id = v_req.id;
    v_queued := v_queued + 1;
  end loop;

  -- Forget spent confirmations after a while (the caps live in the ledger).
  delete from private.target_email_confirmations c
   where c.requested_at < now() - interval '30 days'
     and (c.used_at is not null or c.skipped is not null or c.expires_at < now());
  return v_queued;
end;
$function$;
revoke all on function public.compose_target_confirmations(p_link_prefix text, p_ttl_seconds integer, p_min_interval_seconds integer, p_per_account_per_day integer, p_per_recipient_per_day integer, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.compose_target_confirmations(p_link_prefix text, p_ttl_seconds integer, p_min_interval_seconds integer, p_per_account_per_day integer, p_per_recipient_per_day integer, p_limit integer) to service_role;

create or replace function public.confirm_target_email(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_row private.target_email_confirmations%rowtype;
begin
  -- 32 random bytes in hex; anything else cannot be a token (and is not looked up).
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from private.target_email_confirmations c
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

  update private.target_email_confirmations set used_at = now() where id = v_row.id;
  insert into private.verified_target_emails (user_id, email)
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
$function$;
revoke all on function public.confirm_target_email(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.confirm_target_email(p_token text) to anon;
grant execute on function public.confirm_target_email(p_token text) to authenticated;
grant execute on function public.confirm_target_email(p_token text) to service_role;

create or replace function public.confirmation_mail_escape(p_value text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select replace(replace(replace(replace(replace(coalesce(p_value, ''),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;');
$function$;
revoke all on function public.confirmation_mail_escape(p_value text) from public, anon, authenticated, service_role;

create or replace function public.target_confirmation_details(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_row private.target_email_confirmations%rowtype;
begin
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from private.target_email_confirmations c
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
$function$;
revoke all on function public.target_confirmation_details(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.target_confirmation_details(p_token text) to anon;
grant execute on function public.target_confirmation_details(p_token text) to authenticated;
grant execute on function public.target_confirmation_details(p_token text) to service_role;

create or replace function public.set_form_target_verified()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  new.target_verified := public.is_target_verified(new.user_id, new.target_email);
  return new;
end;
$function$;
revoke all on function public.set_form_target_verified() from public, anon, authenticated, service_role;

create or replace function private.confirmation_form_label(p_row private.target_email_confirmations)
 RETURNS text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select coalesce(nullif((
    select private.mail_label(f.name, 60)
      from public.forms f
     where f.user_id = p_row.user_id and lower(f.target_email) = p_row.email
     order by (f.id = p_row.form_id) desc nulls last, f.created_at
     limit 1), ''), 'a form');
$function$;
revoke all on function private.confirmation_form_label(p_row private.target_email_confirmations) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger on_auth_user_email_changed AFTER UPDATE OF email, email_confirmed_at ON auth.users FOR EACH ROW EXECUTE FUNCTION public.refresh_target_verification();
create trigger forms_request_target_confirmation AFTER INSERT OR UPDATE OF target_email ON public.forms FOR EACH ROW EXECUTE FUNCTION public.request_target_confirmation();
create trigger forms_target_verified BEFORE INSERT OR UPDATE ON public.forms FOR EACH ROW EXECUTE FUNCTION public.set_form_target_verified();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table private.target_email_confirmations enable row level security;

alter table private.verified_target_emails enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table private.target_email_confirmations from public, anon, authenticated, service_role;
revoke all on table private.verified_target_emails from public, anon, authenticated, service_role;
