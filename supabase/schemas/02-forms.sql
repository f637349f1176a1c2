-- Forms
--
-- Forms and their owners, ids never reused, the normalisation of origins and targets, and the
-- shared trigger of the per-form settings tables.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.forms (
  id uuid default gen_random_uuid() not null,
  user_id uuid default auth.uid() not null,
  name text not null,
  target_email text not null,
  allowed_origin text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  notify_email boolean default true not null,
  redirect_url text,
  target_verified boolean default false not null,
  captcha_provider text,
  captcha_site_key text,
  constraint forms_pkey PRIMARY KEY (id),
  constraint forms_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint forms_allowed_origin_format CHECK (((char_length(allowed_origin) <= 300) AND (allowed_origin ~ '^https?://([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$'::text))),
  constraint forms_captcha_complete CHECK (((captcha_provider IS NULL) = (captcha_site_key IS NULL))),
  constraint forms_captcha_provider CHECK ((captcha_provider = ANY (ARRAY['turnstile'::text, 'hcaptcha'::text, 'recaptcha'::text]))),
  constraint forms_captcha_site_key CHECK ((captcha_site_key ~ '^[A-Za-z0-9_-]{1,200}$'::text)),
  constraint forms_name_length CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 200))),
  constraint forms_redirect_url_format CHECK (((redirect_url IS NULL) OR ((char_length(redirect_url) <= 2000) AND (redirect_url ~ '^https?://[^\s/?#]+([/?#][^\s]*)?$'::text)))),
  constraint forms_target_email_format CHECK (((char_length(target_email) <= 320) AND (target_email ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'::text)))
);
create index forms_user_id_idx ON public.forms (user_id);
create unique index forms_id_user_id_key ON public.forms (id, user_id);
alter table public.forms replica identity using index forms_id_user_id_key;
comment on table public.forms is
  'Form endpoints; submissions go to /functions/v1/forms/<id>.';
comment on column public.forms.allowed_origin is
  'Origin allowed to post, stored lower-case without a trailing slash.';
comment on column public.forms.notify_email is
  'E-mail each accepted, non-spam message to target_email.';
comment on column public.forms.redirect_url is
  'Thank-you page for browser posts without _next; null = the site''s /thanks.';
comment on column public.forms.target_verified is
  'target_email is the owner''s confirmed account e-mail or confirmed through a link; kept by triggers.';
comment on column public.forms.captcha_provider is
  'turnstile, hcaptcha or recaptcha (v2 checkbox); null: no CAPTCHA. Written by set_form_captcha().';
comment on column public.forms.captcha_site_key is
  'The provider''s public site key, for the embed code. Written by set_form_captcha().';

create table private.used_form_ids (
  id uuid not null,
  first_used_at timestamp with time zone default now() not null,
  user_id uuid,
  constraint used_form_ids_pkey PRIMARY KEY (id)
);
create index used_form_ids_user_idx ON private.used_form_ids (user_id, first_used_at DESC) WHERE (user_id IS NOT NULL);
comment on table private.used_form_ids is
  'Every id a form has ever had; a form id is never given out twice (written by a trigger only).';
comment on column private.used_form_ids.user_id is
  'The account that created the form (null for forms made before this was recorded); counts form creations.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.normalize_form()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  new.name := btrim(new.name);
  new.target_email := btrim(new.target_email);
  new.allowed_origin := regexp_replace(lower(btrim(new.allowed_origin)), '/$', '');
  if tg_op = 'INSERT' then
    new.created_at := now();
  else
    new.created_at := old.created_at;
  end if;
  new.updated_at := now();
  return new;
end;
$function$;
revoke all on function public.normalize_form() from public, anon, authenticated, service_role;

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
revoke all on function public.register_form_id() from public, anon, authenticated, service_role;

create or replace function private.refuse_unless_form_owner(p_form_id uuid, p_table text)
 RETURNS void
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    return;
  end if;
  if not exists (select 1 from public.forms f where f.id = p_form_id and f.user_id = v_uid) then
    raise exception 'new row violates row-level security policy for table "%"', p_table
      using errcode = '42501';
  end if;
end;
$function$;
revoke all on function private.refuse_unless_form_owner(p_form_id uuid, p_table text) from public, anon, authenticated, service_role;

create or replace function public.form_owner_time_zone(p_form_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select p.time_zone
    from public.forms f
    join public.profiles p on p.id = f.user_id
   where f.id = p_form_id;
$function$;
revoke all on function public.form_owner_time_zone(p_form_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.form_owner_time_zone(p_form_id uuid) to service_role;

create or replace function public.prepare_form_setting()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
revoke all on function public.prepare_form_setting() from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger forms_normalize BEFORE INSERT OR UPDATE ON public.forms FOR EACH ROW EXECUTE FUNCTION public.normalize_form();
create trigger forms_register_id BEFORE INSERT OR UPDATE OF id ON public.forms FOR EACH ROW EXECUTE FUNCTION public.register_form_id();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.forms enable row level security;
create policy "Forms are deletable by their owner" on public.forms
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Forms can be created by users for themselves" on public.forms
  for insert to authenticated
  with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Forms are viewable by their owner" on public.forms
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Forms are updatable by their owner" on public.forms
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

alter table private.used_form_ids enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.forms from public, anon, authenticated, service_role;
grant select, delete on table public.forms to authenticated;
grant all on table public.forms to service_role;
grant insert (id, user_id, name, target_email, allowed_origin, notify_email, redirect_url) on table public.forms to authenticated;
grant update (name, target_email, allowed_origin, notify_email, redirect_url) on table public.forms to authenticated;
revoke all on table private.used_form_ids from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Realtime
-- ------------------------------------------------------------------------------------------------
alter publication supabase_realtime add table public.forms;
