-- The autoresponder, bounded: its caps kept where no deletion resets them, its mail never carrying
-- a visitor's free text, its size bounded, and its copies gone with their message.
--
-- - Caps (20261124170000_autoresponder_retention.sql) counted rows of autoresponse_sends, which
--   cascaded with their form: "create a form, post, delete it" reset every cap. They now count the
--   action ledger (20261127100000_action_ledger.sql): per account 50 an hour and 200 a day, per
--   recipient 5 a day across all accounts, one per form and address a day, and, new, 3 a day per
--   visitor network across an account's forms, so one visitor cannot spend an owner's allowance.
-- - The reply goes to an address nobody has confirmed, so it never repeats what a visitor typed:
--   only {{name}} (at most 50 characters, without links, host names or `@`), {{email}} (the
--   recipient's own address) and {{form}} (the owner's form name) are filled; any other field is
--   left empty. At most 10 merge fields per template are filled, strings are joined once (no
--   quadratic concatenation), and the outbox refuses oversized rows whatever their kind.
-- - A reply's copy in the outbox names the entry it answers (source_entry_id) and is deleted with
--   that entry (owner, retention or form deletion alike), and finished copies after 30 days.

-- ------------------------------------------------------------------------------------------------
-- The outbox: copies linked to their entry, rows of bounded size
-- ------------------------------------------------------------------------------------------------

-- No foreign key on purpose: a second key from email_deliveries to entries would make the inbox's
-- one-to-one embed (entries → email_deliveries by entry_id, the notification) ambiguous. The
-- trigger below deletes a copy with its entry instead.
alter table public.email_deliveries add column source_entry_id uuid;

comment on column public.email_deliveries.source_entry_id is
  'autoresponse: the entry it answers; the copy is deleted with that entry (entries_delete_autoresponses).';

create index email_deliveries_source_entry_idx on public.email_deliveries (source_entry_id)
  where source_entry_id is not null;

-- Existing copies get their entry from the rows that recorded it.
update public.email_deliveries d
   set source_entry_id = s.entry_id
  from public.autoresponse_sends s
 where s.delivery_id = d.id and d.kind = 'autoresponse';

-- Copies whose message is already gone go now; oversized copies (from before the bounds) too.
delete from public.email_deliveries d
 where d.kind = 'autoresponse'
   and (d.source_entry_id is null
        or not exists (select 1 from public.entries e where e.id = d.source_entry_id)
        or octet_length(d.text_body) > 65536 or octet_length(d.html_body) > 262144);

-- The largest mail the product composes is a notification of a 64 KiB post (every character
-- escaped in HTML grows at most sixfold): these bounds hold it with room, and stop anything that
-- grows without bound.
alter table public.email_deliveries
  add constraint email_deliveries_size check (
    char_length(subject) <= 1000
    and octet_length(text_body) <= 512 * 1024
    and octet_length(html_body) <= 1024 * 1024
  ),
  add constraint email_deliveries_source_entry_matches_kind check (
    source_entry_id is null or kind = 'autoresponse'
  );

-- ------------------------------------------------------------------------------------------------
-- Templates: at most 10 merge fields each (existing templates keep working: rendering fills only
-- the first 10 anyway)
-- ------------------------------------------------------------------------------------------------
alter table public.form_autoresponders
  add constraint form_autoresponders_merge_fields check (
    cardinality(regexp_split_to_array(subject, '\{\{\s*[A-Za-z0-9_.-]{1,100}\s*\}\}')) <= 11
    and cardinality(regexp_split_to_array(body, '\{\{\s*[A-Za-z0-9_.-]{1,100}\s*\}\}')) <= 11
  ) not valid;

-- ------------------------------------------------------------------------------------------------
-- Rendering
-- ------------------------------------------------------------------------------------------------
drop function public.autoresponse_fill(text, jsonb, boolean);

-- Fills the first p_max_fields {{key}} merge fields of p_template from p_values (a JSON object of
-- strings; unknown keys and fields past the limit become empty) in one pass: a value is never read
-- as a template, and the pieces are joined once.
create function private.fill_merge_fields(p_template text, p_values jsonb, p_max_fields integer)
returns text
language sql
immutable
set search_path = ''
as $$
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
$$;

-- The merge values of a reply: nothing a visitor typed beyond a short, link-free name.
create function private.autoresponse_values(p_name text, p_address text, p_form_name text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'name', private.mail_label(p_name, 50),
    'email', lower(p_address),
    'form', left(btrim(regexp_replace(coalesce(p_form_name, ''),
                 '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]+', ' ', 'g')), 100)
  );
$$;

-- ------------------------------------------------------------------------------------------------
-- Queueing, in the entry's transaction
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

  insert into private.action_ledger (kind, user_id, target, form_id, client)
    values ('autoresponse', v_form.user_id, v_target, new.form_id, v_client);
  insert into public.email_deliveries
      (kind, user_id, source_entry_id, recipient, subject, reply_to, text_body, html_body)
    values ('autoresponse', v_form.user_id, new.id, v_address, v_subject, v_form.target_email,
            v_text || E'\n\n--\n' || v_footer, v_html);
  return null;
end;
$$;

-- A reply's copy goes with the entry it answers, however the entry goes (the owner, the API, a
-- retention rule, the form's or the account's deletion).
create function private.delete_autoresponse_copies()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  delete from public.email_deliveries d
   using gone
   where d.source_entry_id = gone.id and d.kind = 'autoresponse';
  return null;
end;
$$;

create trigger entries_delete_autoresponses
  after delete on public.entries
  referencing old table as gone
  for each statement execute function private.delete_autoresponse_copies();

-- The autoresponse an entry queued (its e-mail's id), or null (used by accept_post()).
create or replace function private.autoresponse_of(p_entry_id uuid)
returns uuid
language sql
stable
set search_path = ''
as $$
  select d.id from public.email_deliveries d
   where d.source_entry_id = p_entry_id and d.kind = 'autoresponse' limit 1;
$$;

-- ------------------------------------------------------------------------------------------------
-- The old bookkeeping: its recent rows move into the ledger, then it goes
-- ------------------------------------------------------------------------------------------------
insert into private.action_ledger (kind, user_id, target, form_id, created_at)
  select 'autoresponse', s.user_id, s.address_hash, s.form_id, s.created_at
    from public.autoresponse_sends s
   where s.created_at > now() - interval '2 days';

drop table public.autoresponse_sends;

-- ------------------------------------------------------------------------------------------------
-- The sweep (pg_cron every minute; the local stack's scheduler through the REST API)
-- ------------------------------------------------------------------------------------------------

-- Applies every form's retention rule, at most p_limit entries per rule kind and run (the next run
-- goes on); deletes finished autoresponse copies after 30 days (the others go with their entry);
-- forgets ledger rows older than every cap's window and keys revoked 30 days ago.
create or replace function public.sweep_retention(p_limit integer default 5000)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_old integer;
  v_forwarded integer;
  v_mails integer;
  v_ledger integer;
  v_keys integer;
begin
  -- Entries older than their form's number of days.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e
        on e.form_id = r.form_id and e.created_at < now() - make_interval(days => r.days)
     where r.mode = 'days'
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_old = row_count;

  -- "Forward only": entries none of whose deliveries is still pending or being sent. Deliveries
  -- are queued in the entry's transaction, so a committed entry without one has none to wait for.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e on e.form_id = r.form_id
     where r.mode = 'forward_only'
       and not exists (select 1 from public.email_deliveries d
                        where d.entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.email_deliveries d
                        where d.source_entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.webhook_deliveries w
                        where w.entry_id = e.id and w.status in ('pending', 'sending'))
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_forwarded = row_count;

  -- Copies of replies still kept (their entry kept too) go 30 days after they were queued.
  delete from public.email_deliveries d
   where d.kind = 'autoresponse' and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  get diagnostics v_mails = row_count;

  v_ledger := private.purge_action_ledger();
  v_keys := private.purge_revoked_api_keys();

  return jsonb_build_object('expired', v_old, 'forwarded', v_forwarded, 'autoresponses', v_mails,
                            'ledger', v_ledger, 'revoked_keys', v_keys);
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke execute on function private.fill_merge_fields(text, jsonb, integer)
  from public, anon, authenticated, service_role;
revoke execute on function private.autoresponse_values(text, text, text)
  from public, anon, authenticated, service_role;
revoke execute on function private.delete_autoresponse_copies()
  from public, anon, authenticated, service_role;
