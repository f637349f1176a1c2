-- The autoresponder's replies carry a sender name: "<form name> via tinyback", or the name the
-- owner chose for the form. Until now they went out from MAIL_FROM's name (or none), so a visitor
-- could not tell which site was answering.
--
-- - `form_autoresponders.from_name`: the owner's choice (1 to 60 characters, one line, no `@`, no
--   angle brackets, no bidirectional controls), or null for the default. Only the owner sets it
--   (RLS and column grants, as the other columns); a visitor never chooses it.
-- - `email_deliveries.from_name`: the display name the outbox row is sent with (null: MAIL_FROM as
--   it is). The `forms` function puts it before MAIL_FROM's address, encoded for the header; the
--   address itself never changes.
-- - queue_autoresponse() as 20261127100300_autoresponder_bounded.sql defined it, with the name
--   written into the row; claim_email_deliveries() as 20261124140000_accept_in_one_call.sql
--   defined it, returning the name too (a new result column, so it is dropped and created again
--   with its grants).

-- Characters a sender name never holds: control and bidirectional-override characters (one
-- line, no reordering), `@` (no name that reads as an address) and angle brackets (no name that
-- looks like the address part).
alter table public.form_autoresponders
  add column from_name text,
  add constraint form_autoresponders_from_name check (
    from_name is null
    or (char_length(from_name) between 1 and 60
        and btrim(from_name) <> ''
        and from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]')
  );

comment on column public.form_autoresponders.from_name is
  'Display name of the replies'' sender (MAIL_FROM''s address stays); null: "<form name> via tinyback".';

grant insert (from_name) on public.form_autoresponders to authenticated;
grant update (from_name) on public.form_autoresponders to authenticated;

alter table public.email_deliveries
  add column from_name text,
  add constraint email_deliveries_from_name check (
    from_name is null
    or (char_length(from_name) between 1 and 60
        and btrim(from_name) <> ''
        and from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]')
  );

comment on column public.email_deliveries.from_name is
  'Display name the mail is sent with before MAIL_FROM''s address; null: MAIL_FROM as it is.';

-- The default sender name of a form's replies: its name as a mail label (private.mail_label: one
-- line, no links, host names or `@`, at most 47 characters), angle brackets dropped, then
-- " via tinyback"; a name with nothing left is just "tinyback".
create function private.autoresponse_from_name(p_form_name text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when v.label = '' then 'tinyback' else v.label || ' via tinyback' end
    from (select btrim(regexp_replace(private.mail_label(p_form_name, 47),
                                      '( *[<>＜＞]+ *)+', ' ', 'g')) as label) v;
$$;

revoke execute on function private.autoresponse_from_name(text)
  from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Queueing, in the entry's transaction (unchanged but for the sender name)
-- ------------------------------------------------------------------------------------------------
create or replace function public.queue_autoresponse()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
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
$$;

-- ------------------------------------------------------------------------------------------------
-- Claiming: the sender name goes to the sending worker with the rest of the row
-- ------------------------------------------------------------------------------------------------
drop function public.claim_email_deliveries(uuid, integer, integer, integer);

create function public.claim_email_deliveries(
  p_id uuid,
  p_limit integer,
  p_lease_seconds integer,
  p_max_attempts integer
)
returns table (
  id uuid,
  lease uuid,
  attempts integer,
  recipient text,
  subject text,
  reply_to text,
  text_body text,
  html_body text,
  from_name text
)
language plpgsql
security definer set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_id is not null then
    return query
    with due as (
      select d.id
        from public.email_deliveries d
       where d.id = p_id
         and d.status in ('pending', 'sending')
         and d.next_attempt_at <= now()
         and not (d.status = 'sending' and d.attempts >= p_max_attempts)
         and p_limit > 0
       for update skip locked
    )
    update public.email_deliveries d
       set status = 'sending',
           attempts = d.attempts + 1,
           lease = gen_random_uuid(),
           locked_until = now() + make_interval(secs => p_lease_seconds),
           next_attempt_at = now() + make_interval(secs => p_lease_seconds)
      from due
     where d.id = due.id
    returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body,
    d.from_name;
    return;
  end if;

  -- A lease sets next_attempt_at = locked_until, so expired leases are among the due jobs.
  update public.email_deliveries d
     set status = 'failed', lease = null, locked_until = null,
         last_error = coalesce(d.last_error, 'The sending worker stopped before finishing.')
   where d.status in ('pending', 'sending')
     and d.next_attempt_at <= now()
     and d.status = 'sending' and d.locked_until <= now() and d.attempts >= p_max_attempts;

  return query
  with due as (
    select d.id
      from public.email_deliveries d
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update skip locked
  )
  update public.email_deliveries d
     set status = 'sending',
         attempts = d.attempts + 1,
         lease = gen_random_uuid(),
         locked_until = now() + make_interval(secs => p_lease_seconds),
         next_attempt_at = now() + make_interval(secs => p_lease_seconds)
    from due
   where d.id = due.id
  returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body,
    d.from_name;
end;
$$;

revoke execute on function public.claim_email_deliveries(uuid, integer, integer, integer)
  from public, anon, authenticated;
grant execute on function public.claim_email_deliveries(uuid, integer, integer, integer) to service_role;
