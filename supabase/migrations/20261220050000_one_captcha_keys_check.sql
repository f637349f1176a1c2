set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_secret text := btrim(coalesce(p_secret, ''));
begin
  if p_provider not in ('turnstile', 'hcaptcha', 'recaptcha') then
    raise exception 'Choose Turnstile, hCaptcha or reCAPTCHA.' using errcode = '22023';
  end if;
  if btrim(coalesce(p_site_key, '')) !~ '^[A-Za-z0-9_-]{1,200}$' then
    raise exception 'Enter the site key exactly as the provider shows it.' using errcode = '22023';
  end if;
  if v_secret = '' then
    -- Keeping the stored secret is only possible for the provider it was given for.
    if p_current is distinct from p_provider or not p_secret_stored then
      raise exception 'Enter the secret key.' using errcode = '22023';
    end if;
    return null;
  end if;
  if char_length(v_secret) > 500 or v_secret !~ '^[!-~]+$' then
    raise exception 'Enter the secret key exactly as the provider shows it.' using errcode = '22023';
  end if;
  return v_secret;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.set_booking_captcha(p_booking_form_id uuid, p_provider text, p_site_key text, p_secret text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_current text;
  v_site_key text := btrim(coalesce(p_site_key, ''));
  -- The secret to store (null: keep the stored one).
  v_secret text;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change a booking form''s CAPTCHA.' using errcode = '42501';
  end if;
  select f.captcha_provider into v_current from public.booking_forms f
   where f.id = p_booking_form_id and f.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This booking form no longer exists.' using errcode = 'PT404';
  end if;
  if p_provider is null then
    update public.booking_forms f set captcha_provider = null, captcha_site_key = null
     where f.id = p_booking_form_id;
    delete from private.booking_captcha_secrets s where s.booking_form_id = p_booking_form_id;
    return jsonb_build_object('captcha_provider', null, 'captcha_site_key', null);
  end if;
  v_secret := private.captcha_keys(p_provider, v_site_key, p_secret, v_current,
    exists (select 1 from private.booking_captcha_secrets s where s.booking_form_id = p_booking_form_id));
  if v_secret is not null then
    insert into private.booking_captcha_secrets (booking_form_id, secret) values (p_booking_form_id, v_secret)
      on conflict (booking_form_id) do update set secret = excluded.secret, updated_at = now();
  end if;
  update public.booking_forms f set captcha_provider = p_provider, captcha_site_key = v_site_key
   where f.id = p_booking_form_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.set_form_captcha(p_form_id uuid, p_provider text, p_site_key text, p_secret text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_current text;
  v_site_key text := btrim(coalesce(p_site_key, ''));
  -- The secret to store (null: keep the stored one).
  v_secret text;
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

  v_secret := private.captcha_keys(p_provider, v_site_key, p_secret, v_current,
    exists (select 1 from private.form_captcha_secrets s where s.form_id = p_form_id));
  if v_secret is not null then
    insert into private.form_captcha_secrets (form_id, secret) values (p_form_id, v_secret)
      on conflict (form_id) do update set secret = excluded.secret, updated_at = now();
  end if;

  update public.forms f set captcha_provider = p_provider, captcha_site_key = v_site_key
   where f.id = p_form_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
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
  -- The secret to store (null: keep the stored one).
  v_secret text;
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
  v_secret := private.captcha_keys(p_provider, v_site_key, p_secret, v_current,
    exists (select 1 from private.list_captcha_secrets s where s.list_id = p_list_id));
  if v_secret is not null then
    insert into private.list_captcha_secrets (list_id, secret) values (p_list_id, v_secret)
      on conflict (list_id) do update set secret = excluded.secret, updated_at = now();
  end if;
  update public.newsletter_lists l set captcha_provider = p_provider, captcha_site_key = v_site_key
   where l.id = p_list_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$function$
;

alter function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean) set search_path to '';
comment on function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean) is 'Checks CAPTCHA keys as an owner gives them (for a form, a booking page, a list) and answers the secret to store, or null to keep the stored one; raises the owner''s words (22023) otherwise.';
grant execute on function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean) to postgres;
revoke execute on function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean) from public;
