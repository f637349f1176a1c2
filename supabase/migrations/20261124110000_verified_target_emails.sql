-- Verified target addresses: a form's notifications go only to an address its owner has shown
-- to be reachable and willing. An address counts as verified for an account when it is the
-- account's own confirmed e-mail, or when someone opened the confirmation link mailed to it.
-- Verification is kept per (account, address), so one confirmation covers every form of that
-- account with that address, and never another account's forms.
--
-- Flow: inserting a form, or changing its target, with an unverified address records a
-- confirmation request. The form endpoint's `_deliver` run (every minute) composes the mail of
-- each open request: it draws a random token in the database, keeps only its SHA-256 hash, and
-- queues the rendered mail in `email_deliveries`, all in one transaction and within the caps
-- it is given (supabase/functions/_shared/limits.ts). The link opens the site's
-- /confirm-address page, whose button calls confirm_target_email(token): single use, expiring.
-- Until then entries are stored but not e-mailed (see the next migration).

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------

-- Addresses an account has confirmed through a link (its own account e-mail needs no row).
create table public.verified_target_emails (
  user_id uuid not null references auth.users (id) on delete cascade,
  email text not null,
  verified_at timestamptz not null default now(),
  primary key (user_id, email),
  constraint verified_target_emails_lower check (email = lower(email))
);

comment on table public.verified_target_emails is
  'Target addresses an account confirmed through a link; written only by confirm_target_email().';

-- One row per confirmation: requested (open), then composed (token hash and expiry set, mail
-- queued), then used; or skipped when a cap stopped it. The raw token exists only in the mail.
create table public.target_email_confirmations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  email text not null,
  -- The form named in the mail; another form of the account with the address if it is deleted.
  form_id uuid references public.forms (id) on delete set null,
  requested_at timestamptz not null default now(),
  queued_at timestamptz,
  token_hash bytea,
  expires_at timestamptz,
  used_at timestamptz,
  skipped text,
  constraint target_email_confirmations_lower check (email = lower(email)),
  constraint target_email_confirmations_skipped check (skipped in ('limit')),
  constraint target_email_confirmations_composed check (
    (queued_at is null) = (token_hash is null) and (queued_at is null) = (expires_at is null)
  )
);

comment on table public.target_email_confirmations is
  'Confirmation requests and tokens (SHA-256 hashes only) of form target addresses.';

create unique index target_email_confirmations_token_key
  on public.target_email_confirmations (token_hash) where token_hash is not null;
-- At most one open request per account and address: repeated edits or clicks do not pile up.
create unique index target_email_confirmations_open_key
  on public.target_email_confirmations (user_id, email) where queued_at is null and skipped is null;
-- The caps count an account's and an address's recent confirmation mails.
create index target_email_confirmations_user_queued_idx
  on public.target_email_confirmations (user_id, queued_at) where queued_at is not null;
create index target_email_confirmations_email_queued_idx
  on public.target_email_confirmations (email, queued_at) where queued_at is not null;
create index target_email_confirmations_form_idx
  on public.target_email_confirmations (form_id) where form_id is not null;

-- Whether the form's notifications may be sent: kept by the database (trigger below), readable by
-- the owner (table-level select), writable by nobody else (no column grant: the existing insert
-- and update grants on forms name their columns).
alter table public.forms add column target_verified boolean not null default false;

comment on column public.forms.target_verified is
  'target_email is the owner''s confirmed account e-mail or confirmed through a link; kept by triggers.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------

-- Internal: is `p_email` verified for account `p_user`?
create function public.is_target_verified(p_user uuid, p_email text)
returns boolean
language sql
stable
security definer set search_path = ''
as $$
  select exists (
           select 1 from public.verified_target_emails v
            where v.user_id = p_user and v.email = lower(btrim(p_email))
         )
      or exists (
           select 1 from auth.users u
            where u.id = p_user
              and u.email_confirmed_at is not null
              and lower(u.email) = lower(btrim(p_email))
         );
$$;

-- Before every write of a form: the flag follows the row as written, whatever the writer sent.
create function public.set_form_target_verified()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  new.target_verified := public.is_target_verified(new.user_id, new.target_email);
  return new;
end;
$$;

-- After a form gets an unverified address: record a confirmation request, unless one is open or
-- a mail with a still valid link went to that address for this account already.
create function public.request_target_confirmation()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
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
    select 1 from public.target_email_confirmations c
     where c.user_id = new.user_id and c.email = v_email
       and c.used_at is null and c.expires_at > now()
  ) then
    return null;
  end if;
  insert into public.target_email_confirmations (user_id, email, form_id)
    values (new.user_id, v_email, new.id)
    on conflict (user_id, email) where queued_at is null and skipped is null do nothing;
  return null;
end;
$$;

-- When an account's e-mail changes, the address it had confirmed stays verified for its forms
-- (it was proven), and every form's flag is brought up to date.
create function public.refresh_target_verification()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  if old.email is not null and old.email_confirmed_at is not null
     and lower(old.email) is distinct from lower(new.email) then
    insert into public.verified_target_emails (user_id, email)
      values (new.id, lower(old.email))
      on conflict do nothing;
  end if;
  update public.forms f
     set target_verified = public.is_target_verified(f.user_id, f.target_email)
   where f.user_id = new.id
     and f.target_verified is distinct from public.is_target_verified(f.user_id, f.target_email);
  return null;
end;
$$;

-- The confirmation link's action (the /confirm-address page calls it, signed in or not). Whoever
-- holds the token may use it once, before it expires; it verifies exactly the account and address
-- it was made for. Answers {status: confirmed, email} or {status: invalid | used | expired}.
create function public.confirm_target_email(p_token text)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_row public.target_email_confirmations%rowtype;
begin
  -- 32 random bytes in hex; anything else cannot be a token (and is not looked up).
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object('status', 'invalid');
  end if;
  select * into v_row
    from public.target_email_confirmations c
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

  update public.target_email_confirmations set used_at = now() where id = v_row.id;
  insert into public.verified_target_emails (user_id, email)
    values (v_row.user_id, v_row.email)
    on conflict do nothing;
  -- The before-update trigger recomputes the flag (now true); Realtime tells the owner's tabs.
  update public.forms f
     set target_verified = true
   where f.user_id = v_row.user_id and lower(f.target_email) = v_row.email and not f.target_verified;
  return jsonb_build_object('status', 'confirmed', 'email', v_row.email);
end;
$$;

-- "Resend confirmation" on a form's card, as its owner. Answers {status: requested, email},
-- {status: already_requested, email} (a request waits for the next mail run), {status: verified},
-- {status: limited} (a daily cap stopped a confirmation of this account or address within the
-- last day) or {status: not_found} (no such form of the caller's).
create function public.resend_target_confirmation(p_form_id uuid)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
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
    select 1 from public.target_email_confirmations c
     where c.user_id = v_uid and c.email = v_email and c.queued_at is null and c.skipped is null
  ) then
    return jsonb_build_object('status', 'already_requested', 'email', v_email);
  end if;
  if exists (
    select 1 from public.target_email_confirmations c
     where (c.user_id = v_uid or c.email = v_email)
       and c.skipped = 'limit' and c.requested_at > now() - interval '1 day'
  ) then
    return jsonb_build_object('status', 'limited');
  end if;
  insert into public.target_email_confirmations (user_id, email, form_id)
    values (v_uid, v_email, p_form_id);
  return jsonb_build_object('status', 'requested', 'email', v_email);
end;
$$;

-- HTML-escapes a value for the confirmation mail.
create function public.confirmation_mail_escape(p_value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select replace(replace(replace(replace(replace(coalesce(p_value, ''),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;');
$$;

-- Composes the mails of open requests (called by the form endpoint's `_deliver` run with the
-- service role; the caps come from limits.ts as arguments). A request is composed once the
-- account's last mail to that address is `p_min_interval_seconds` old; a request over a daily cap
-- (per account, or per recipient across accounts) is skipped. Returns how many mails it queued.
create function public.compose_target_confirmations(
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
    if (select count(*) from public.target_email_confirmations p
         where p.user_id = v_req.user_id and p.queued_at > now() - interval '1 day')
         >= p_per_account_per_day
       or (select count(*) from public.target_email_confirmations p
            where p.email = v_req.email and p.queued_at > now() - interval '1 day')
         >= p_per_recipient_per_day then
      update public.target_email_confirmations set skipped = 'limit' where id = v_req.id;
      continue;
    end if;

    v_token := encode(extensions.gen_random_bytes(32), 'hex');
    v_link := p_link_prefix || v_token;
    select u.email into v_account from auth.users u where u.id = v_req.user_id;
    -- Names are the owner's text: one line, no control characters, escaped in HTML below.
    select regexp_replace(f.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g') into v_form
      from public.forms f
     where f.user_id = v_req.user_id and lower(f.target_email) = v_req.email
     order by (f.id = v_req.form_id) desc nulls last, f.created_at
     limit 1;
    v_valid := format('The link works once and expires in %s hours.', v_hours);

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

  -- Forget spent confirmations after a while (the caps look back one day).
  delete from public.target_email_confirmations c
   where c.requested_at < now() - interval '30 days'
     and (c.used_at is not null or c.skipped is not null or c.expires_at < now());
  return v_queued;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
-- Named to run after forms_normalize (same timing, alphabetical order), on the trimmed address.
create trigger forms_target_verified
  before insert or update on public.forms
  for each row execute function public.set_form_target_verified();

create trigger forms_request_target_confirmation
  after insert or update of target_email on public.forms
  for each row execute function public.request_target_confirmation();

create trigger on_auth_user_email_changed
  after update of email, email_confirmed_at on auth.users
  for each row execute function public.refresh_target_verification();

-- ------------------------------------------------------------------------------------------------
-- Existing forms
-- ------------------------------------------------------------------------------------------------
-- No address is trusted on faith: existing forms are verified only where the target is the
-- owner's confirmed e-mail; for the others a confirmation request is recorded, so their owners get
-- the mail with the next `_deliver` run.
update public.forms f
   set target_verified = public.is_target_verified(f.user_id, f.target_email);
insert into public.target_email_confirmations (user_id, email, form_id)
  select distinct on (f.user_id, lower(f.target_email)) f.user_id, lower(f.target_email), f.id
    from public.forms f
   where not f.target_verified
   order by f.user_id, lower(f.target_email), f.created_at
  on conflict do nothing;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
-- No policies: only the definer functions above read or write these tables. Owners see the
-- outcome on forms.target_verified.
alter table public.verified_target_emails enable row level security;
alter table public.target_email_confirmations enable row level security;
revoke all on table public.verified_target_emails from anon, authenticated;
revoke all on table public.target_email_confirmations from anon, authenticated;
grant all on table public.verified_target_emails to service_role;
grant all on table public.target_email_confirmations to service_role;

-- Trigger functions and helpers are not an API.
revoke execute on function public.is_target_verified(uuid, text) from public, anon, authenticated;
revoke execute on function public.set_form_target_verified() from public, anon, authenticated;
revoke execute on function public.request_target_confirmation() from public, anon, authenticated;
revoke execute on function public.refresh_target_verification() from public, anon, authenticated;
revoke execute on function public.confirmation_mail_escape(text) from public, anon, authenticated;

revoke execute on function public.confirm_target_email(text) from public;
grant execute on function public.confirm_target_email(text) to anon, authenticated, service_role;
revoke execute on function public.resend_target_confirmation(uuid) from public, anon;
grant execute on function public.resend_target_confirmation(uuid) to authenticated;
revoke execute on function public.compose_target_confirmations(text, integer, integer, integer, integer, integer)
  from public, anon, authenticated;
grant execute on function public.compose_target_confirmations(text, integer, integer, integer, integer, integer)
  to service_role;
