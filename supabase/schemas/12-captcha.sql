-- CAPTCHA
--
-- The provider and site key on the form, write-only secrets, and counting CAPTCHA posts first.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table private.form_captcha_secrets (
  form_id uuid not null,
  secret text not null,
  updated_at timestamp with time zone default now() not null,
  constraint form_captcha_secrets_pkey PRIMARY KEY (form_id),
  constraint form_captcha_secrets_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint form_captcha_secrets_secret CHECK (((char_length(secret) <= 500) AND (secret ~ '^[!-~]+$'::text)))
);
comment on table private.form_captcha_secrets is
  'CAPTCHA secret keys: set through set_form_captcha(), read by the forms function through form_captcha_secret().';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean)
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
$function$;
comment on function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean) is
  'Checks CAPTCHA keys as an owner gives them (for a form, a booking page, a list) and answers the secret to store, or null to keep the stored one; raises the owner''s words (22023) otherwise.';
revoke all on function private.captcha_keys(p_provider text, p_site_key text, p_secret text, p_current text, p_secret_stored boolean) from public, anon, authenticated, service_role;

create or replace function public.set_form_captcha(p_form_id uuid, p_provider text, p_site_key text, p_secret text)
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
$function$;
revoke all on function public.set_form_captcha(p_form_id uuid, p_provider text, p_site_key text, p_secret text) from public, anon, authenticated, service_role;
grant execute on function public.set_form_captcha(p_form_id uuid, p_provider text, p_site_key text, p_secret text) to authenticated;

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

create or replace function public.begin_captcha_post(p_form_id uuid, p_ip_hash text, p_idempotency_key text, p_per_minute integer, p_per_day integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_first uuid;
  v_retry_after integer;
begin
  perform 1 from public.forms f where f.id = p_form_id;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_idempotency_key is not null then
    v_first := private.idempotent_entry(p_form_id, p_idempotency_key);
    if v_first is not null then
      return private.repeated_post_answer(v_first);
    end if;
  end if;
  v_retry_after := private.take_client_allowance(p_form_id, p_ip_hash, p_per_minute, p_per_day);
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
  end if;
  return jsonb_build_object('status', 'counted');
end;
$function$;
revoke all on function public.begin_captcha_post(p_form_id uuid, p_ip_hash text, p_idempotency_key text, p_per_minute integer, p_per_day integer) from public, anon, authenticated, service_role;
grant execute on function public.begin_captcha_post(p_form_id uuid, p_ip_hash text, p_idempotency_key text, p_per_minute integer, p_per_day integer) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table private.form_captcha_secrets enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table private.form_captcha_secrets from public, anon, authenticated, service_role;
