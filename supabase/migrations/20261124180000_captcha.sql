-- CAPTCHA per form (optional): Cloudflare Turnstile, hCaptcha or reCAPTCHA v2 (checkbox). The forms
-- function verifies the visitor's token with the provider before it accepts a post.
--
-- - The provider and the site key are public (they go into the embed code), so they are columns of
--   `forms`, readable by the owner like the others and read by the endpoint with the form it
--   already reads: a form without CAPTCHA costs no lookup of its own. No client has a column grant
--   on them; only set_form_captcha() writes them.
-- - The secret key lives in `form_captcha_secrets`: row level security on, no policy and no grant
--   to any client role, so the owner can set it (through set_form_captcha()) but never read it
--   back; the dashboard only knows that one is set (the provider is only set together with one).
--   The forms function reads it with the service role.
-- - accept_post() now also compares the form's CAPTCHA provider: a post judged against a form the
--   function remembered from before CAPTCHA was turned on is never stored unverified.

-- ------------------------------------------------------------------------------------------------
-- Columns and tables
-- ------------------------------------------------------------------------------------------------
alter table public.forms
  add column captcha_provider text,
  add column captcha_site_key text,
  add constraint forms_captcha_provider check (
    captcha_provider in ('turnstile', 'hcaptcha', 'recaptcha')
  ),
  -- Site keys of all three providers are letters, digits, '-' and '_' (hCaptcha's are UUIDs).
  add constraint forms_captcha_site_key check (captcha_site_key ~ '^[A-Za-z0-9_-]{1,200}$'),
  add constraint forms_captcha_complete check (
    (captcha_provider is null) = (captcha_site_key is null)
  );

comment on column public.forms.captcha_provider is
  'turnstile, hcaptcha or recaptcha (v2 checkbox); null: no CAPTCHA. Written by set_form_captcha().';
comment on column public.forms.captcha_site_key is
  'The provider''s public site key, for the embed code. Written by set_form_captcha().';

create table public.form_captcha_secrets (
  form_id uuid primary key references public.forms (id) on delete cascade,
  secret text not null,
  updated_at timestamptz not null default now(),
  -- Printable ASCII without spaces: what the providers issue; sent form-encoded to them.
  constraint form_captcha_secrets_secret check (
    char_length(secret) <= 500 and secret ~ '^[!-~]+$'
  )
);

comment on table public.form_captcha_secrets is
  'CAPTCHA secret keys: set through set_form_captcha(), read by the forms function only (no client can select them).';

-- ------------------------------------------------------------------------------------------------
-- Setting it (the signed-in owner)
-- ------------------------------------------------------------------------------------------------

-- Turns CAPTCHA on, changes it, or (p_provider null) turns it off and forgets the keys. An empty
-- p_secret keeps the stored secret, allowed only while the provider stays the same (another
-- provider's secret would fail every check). Returns the form's public CAPTCHA settings.
create function public.set_form_captcha(
  p_form_id uuid,
  p_provider text,
  p_site_key text,
  p_secret text
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
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
    raise exception 'This form no longer exists.' using errcode = 'no_data_found';
  end if;

  if p_provider is null then
    update public.forms f set captcha_provider = null, captcha_site_key = null
     where f.id = p_form_id;
    delete from public.form_captcha_secrets s where s.form_id = p_form_id;
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
       or not exists (select 1 from public.form_captcha_secrets s where s.form_id = p_form_id) then
      raise exception 'Enter the secret key.' using errcode = '22023';
    end if;
  elsif char_length(v_secret) > 500 or v_secret !~ '^[!-~]+$' then
    raise exception 'Enter the secret key exactly as the provider shows it.' using errcode = '22023';
  else
    insert into public.form_captcha_secrets (form_id, secret) values (p_form_id, v_secret)
      on conflict (form_id) do update set secret = excluded.secret, updated_at = now();
  end if;

  update public.forms f set captcha_provider = p_provider, captcha_site_key = v_site_key
   where f.id = p_form_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- The endpoint's one call per post (20261124140000_accept_in_one_call.sql), now also comparing
-- the CAPTCHA provider. Same signature and answers; `create or replace` keeps owner and grants.
-- ------------------------------------------------------------------------------------------------
create or replace function public.accept_post(
  p_seen jsonb,
  p_entry_id uuid,
  p_form_id uuid,
  p_ip_hash text,
  p_name text,
  p_email text,
  p_message text,
  p_data jsonb,
  p_is_spam boolean,
  p_notification jsonb,
  p_per_minute integer,
  p_per_day integer,
  p_form_per_minute integer,
  p_account_per_hour integer,
  p_account_per_day integer
)
returns jsonb
language plpgsql
security invoker set search_path = ''
as $$
declare
  v_form jsonb;
begin
  select jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url,
           'captcha_provider', f.captcha_provider
         )
    into v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  return public.accept_submission(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day
  );
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
alter table public.form_captcha_secrets enable row level security;
-- No policy: no client role reads or writes a secret directly (set_form_captcha() writes them).
revoke all on table public.form_captcha_secrets from anon, authenticated;
grant all on table public.form_captcha_secrets to service_role;

revoke execute on function public.set_form_captcha(uuid, text, text, text) from public, anon;
grant execute on function public.set_form_captcha(uuid, text, text, text) to authenticated;
