-- A form's settings rows (autoresponder, retention) refuse a client that does not own the form
-- before their BEFORE trigger looks anything up, with row level security's own answer: the
-- trigger used to answer "form … does not exist" for a missing form and go on for another
-- account's, telling a stranger which form ids exist. set_form_captcha() answers a form that is
-- not the caller's with 404 (PT404) instead of a 500.

create or replace function public.prepare_form_setting()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.refuse_unless_form_owner(new.form_id, tg_table_name);
    select f.user_id into new.user_id from public.forms f where f.id = new.form_id;
    if new.user_id is null then
      raise exception 'form % does not exist', new.form_id using errcode = 'foreign_key_violation';
    end if;
    new.created_at := now();
  else
    new.form_id := old.form_id;
    new.user_id := old.user_id;
    new.created_at := old.created_at;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create or replace function public.set_form_captcha(
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
    raise exception 'This form no longer exists.' using errcode = 'PT404';
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
