-- Autoresponder
--
-- The reply a visitor gets, with merge fields, bounded by the action ledger.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.form_autoresponders (
  form_id uuid not null,
  user_id uuid not null,
  enabled boolean default false not null,
  subject text default 'Thanks for your message'::text not null,
  body text default ''::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  from_name text,
  constraint form_autoresponders_pkey PRIMARY KEY (form_id),
  constraint form_autoresponders_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint form_autoresponders_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint form_autoresponders_body CHECK ((char_length(body) <= 5000)),
  constraint form_autoresponders_from_name check (
    from_name is null
    or (char_length(from_name) between 1 and 60
        and btrim(from_name) <> ''
        and from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]')
  ),
  constraint form_autoresponders_subject check (
    char_length(btrim(subject)) between 1 and 200 and subject !~ '[[:cntrl:]]'
  )
);
alter table public.form_autoresponders add constraint form_autoresponders_merge_fields CHECK (((cardinality(regexp_split_to_array(subject, '\{\{\s*[A-Za-z0-9_.-]{1,100}\s*\}\}'::text)) <= 11) AND (cardinality(regexp_split_to_array(body, '\{\{\s*[A-Za-z0-9_.-]{1,100}\s*\}\}'::text)) <= 11))) NOT VALID;
create index form_autoresponders_user_id_idx ON public.form_autoresponders (user_id);
comment on table public.form_autoresponders is
  'Per-form autoresponder: subject and body (merge fields {{name}}, {{form}}…) mailed to the submitter.';
comment on column public.form_autoresponders.from_name is
  'Display name of the replies'' sender (MAIL_FROM''s address stays); null: "<form name> via tinyback".';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.queue_autoresponse()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  -- The caps (AUTORESPONDER in supabase/functions/_shared/limits.ts states them for the docs).
  c_per_hour constant integer := 50;
  c_per_day constant integer := 200;
  c_per_recipient_day constant integer := 5;
  c_per_client_day constant integer := 3;
  c_max_fields constant integer := 10;
  v_auto public.form_autoresponders%rowtype;
  v_form public.forms%rowtype;
  v_address text;
  v_target text;
  v_client text := nullif(current_setting('tinyback.client', true), '');
  v_values jsonb;
  v_subject text;
  v_text text;
  v_html text;
  v_footer text;
  v_from_name text;
begin
  if new.is_spam or not public.autoresponse_address_ok(new.email) then
    return null;
  end if;
  select a.* into v_auto from public.form_autoresponders a
   where a.form_id = new.form_id and a.enabled;
  if not found then
    return null;
  end if;
  select f.* into v_form from public.forms f where f.id = new.form_id;
  -- Only an owner with a confirmed address sends in tinyback's name.
  if not v_form.target_verified then
    return null;
  end if;

  v_address := lower(new.email);
  v_target := private.address_key(v_address);

  -- One decision at a time per account, then per address, so racing posts see each other.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.autoresponse:' || v_form.user_id::text, 0));
  perform pg_advisory_xact_lock(hashtextextended('tinyback.autoresponse-to:' || v_target, 0));
  if private.ledger_count('autoresponse', now() - interval '1 day', 1, v_form.user_id,
                          v_target, new.form_id) >= 1
     or private.ledger_count('autoresponse', now() - interval '1 hour', c_per_hour,
                             v_form.user_id) >= c_per_hour
     or private.ledger_count('autoresponse', now() - interval '1 day', c_per_day,
                             v_form.user_id) >= c_per_day
     or private.ledger_count_target('autoresponse', now() - interval '1 day',
                                    c_per_recipient_day, v_target) >= c_per_recipient_day
     or (v_client is not null
         and private.ledger_count('autoresponse', now() - interval '1 day', c_per_client_day,
                                  v_form.user_id, null, null, v_client) >= c_per_client_day) then
    return null;
  end if;

  v_values := private.autoresponse_values(new.name, v_address, v_form.name);
  v_subject := left(btrim(regexp_replace(
    private.fill_merge_fields(v_auto.subject, v_values, c_max_fields),
    '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), 200);
  if v_subject = '' then
    v_subject := 'Thanks for your message';
  end if;
  v_text := private.fill_merge_fields(v_auto.body, v_values, c_max_fields);
  -- Says why the mail came, so an address entered by someone else is not left guessing.
  v_footer := format('You receive this because this address was entered in the form "%s" on %s.',
                     v_values ->> 'form', v_form.allowed_origin);
  -- The HTML part is the text, escaped whole (the owner's words and the merged values alike).
  v_html := '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
    || '<div>' || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>') || '</div>'
    || '<p style="color:#666;font-size:12px">' || public.confirmation_mail_escape(v_footer)
    || '</p></body></html>';

  -- The sender's display name: the owner's choice, else "<form name> via tinyback" (the form's
  -- name as a label: one line, no links, host names or `@`, and no angle brackets).
  v_from_name := coalesce(v_auto.from_name, private.autoresponse_from_name(v_form.name));

  insert into private.action_ledger (kind, user_id, target, form_id, client)
    values ('autoresponse', v_form.user_id, v_target, new.form_id, v_client);
  insert into public.email_deliveries
      (kind, user_id, source_entry_id, recipient, subject, reply_to, text_body, html_body,
       from_name)
    values ('autoresponse', v_form.user_id, new.id, v_address, v_subject, v_form.target_email,
            v_text || E'\n\n--\n' || v_footer, v_html, v_from_name);
  return null;
end;
$function$;
revoke all on function public.queue_autoresponse() from public, anon, authenticated, service_role;

create or replace function public.autoresponse_address_ok(p_address text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select p_address is not null
     and char_length(p_address) <= 254
     and p_address !~ '\.\.'
     and p_address ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$';
$function$;
revoke all on function public.autoresponse_address_ok(p_address text) from public, anon, authenticated, service_role;

create or replace function private.autoresponse_from_name(p_form_name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case when v.label = '' then 'tinyback' else v.label || ' via tinyback' end
    from (select btrim(regexp_replace(private.mail_label(p_form_name, 47),
                                      '( *[<>＜＞]+ *)+', ' ', 'g')) as label) v;
$function$;
revoke all on function private.autoresponse_from_name(p_form_name text) from public, anon, authenticated, service_role;

create or replace function private.autoresponse_of(p_entry_id uuid)
 RETURNS uuid
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select d.id from public.email_deliveries d
   where d.source_entry_id = p_entry_id and d.kind = 'autoresponse' limit 1;
$function$;
revoke all on function private.autoresponse_of(p_entry_id uuid) from public, anon, authenticated, service_role;

create or replace function private.autoresponse_values(p_name text, p_address text, p_form_name text)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
    'name', private.mail_label(p_name, 50),
    'email', lower(p_address),
    'form', left(btrim(regexp_replace(coalesce(p_form_name, ''),
                 '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]+', ' ', 'g')), 100)
  );
$function$;
revoke all on function private.autoresponse_values(p_name text, p_address text, p_form_name text) from public, anon, authenticated, service_role;

create or replace function private.delete_autoresponse_copies()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from public.email_deliveries d
   using gone
   where d.source_entry_id = gone.id and d.kind = 'autoresponse';
  return null;
end;
$function$;
revoke all on function private.delete_autoresponse_copies() from public, anon, authenticated, service_role;

create or replace function private.fill_merge_fields(p_template text, p_values jsonb, p_max_fields integer)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  with parts as (
    select t.part, t.n
      from unnest(regexp_split_to_array(coalesce(p_template, ''),
                                        '\{\{\s*[A-Za-z0-9_.-]{1,100}\s*\}\}'))
           with ordinality as t(part, n)
  ), fields as (
    select t.m[1] as key, t.n
      from regexp_matches(coalesce(p_template, ''), '\{\{\s*([A-Za-z0-9_.-]{1,100})\s*\}\}', 'g')
           with ordinality as t(m, n)
  )
  select coalesce(string_agg(
           parts.part || case when fields.n <= p_max_fields
                              then coalesce(p_values ->> fields.key, '') else '' end,
           '' order by parts.n), '')
    from parts left join fields on fields.n = parts.n;
$function$;
revoke all on function private.fill_merge_fields(p_template text, p_values jsonb, p_max_fields integer) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger entries_delete_autoresponses AFTER DELETE ON public.entries REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION private.delete_autoresponse_copies();
create trigger entries_queue_autoresponse AFTER INSERT ON public.entries FOR EACH ROW EXECUTE FUNCTION public.queue_autoresponse();
create trigger form_autoresponders_prepare BEFORE INSERT OR UPDATE ON public.form_autoresponders FOR EACH ROW EXECUTE FUNCTION public.prepare_form_setting();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.form_autoresponders enable row level security;
create policy "Autoresponders are deletable by their owner" on public.form_autoresponders
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Autoresponders can be created by the form owner" on public.form_autoresponders
  for insert to authenticated
  with check (((( SELECT auth.uid() AS uid) = user_id) AND (EXISTS ( SELECT 1
   FROM public.forms f
  WHERE ((f.id = form_autoresponders.form_id) AND (f.user_id = ( SELECT auth.uid() AS uid)))))));
create policy "Autoresponders are viewable by their owner" on public.form_autoresponders
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Autoresponders are updatable by their owner" on public.form_autoresponders
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.form_autoresponders from public, anon, authenticated, service_role;
grant select, delete on table public.form_autoresponders to authenticated;
grant all on table public.form_autoresponders to service_role;
grant insert (form_id, user_id, enabled, subject, body, from_name) on table public.form_autoresponders to authenticated;
grant update (form_id, enabled, subject, body, from_name) on table public.form_autoresponders to authenticated;
