-- Owners' newsletters, first step: lists, their subscribers (double opt-in through the list's signup
-- form, or imported under the owner's consent statement), campaigns and their recipients (one row per
-- subscriber and campaign, the exactly-once rule), the signup/confirm/unsubscribe, import and campaign
-- lifecycle RPCs, under RLS and in Realtime; their sweep.
alter table "private"."action_ledger" drop constraint "action_ledger_kind";

alter table "public"."email_deliveries" drop constraint "email_deliveries_kind";


  create table "private"."campaign_messages" (
    "campaign_id" uuid not null,
    "subscriber_id" uuid not null,
    "status" text not null default 'queued'::text,
    "attempts" integer not null default 0,
    "lease" uuid,
    "locked_until" timestamp with time zone,
    "sent_at" timestamp with time zone,
    "last_error" text
      );


alter table "private"."campaign_messages" enable row level security;


  create table "private"."list_subscriber_tokens" (
    "token_hash" text not null,
    "subscriber_id" uuid not null,
    "created_at" timestamp with time zone not null default now(),
    "expires_at" timestamp with time zone not null
      );


alter table "private"."list_subscriber_tokens" enable row level security;


  create table "public"."campaigns" (
    "id" uuid not null default gen_random_uuid(),
    "user_id" uuid not null default auth.uid(),
    "list_id" uuid not null,
    "subject" text not null default ''::text,
    "body_markdown" text not null default ''::text,
    "status" text not null default 'draft'::text,
    "scheduled_at" timestamp with time zone,
    "started_at" timestamp with time zone,
    "finished_at" timestamp with time zone,
    "recipients" integer not null default 0,
    "sent" integer not null default 0,
    "failed" integer not null default 0,
    "bounced" integer not null default 0,
    "unsubscribed" integer not null default 0,
    "created_at" timestamp with time zone not null default now(),
    "updated_at" timestamp with time zone not null default now()
      );


alter table "public"."campaigns" enable row level security;


  create table "public"."list_subscribers" (
    "id" uuid not null default gen_random_uuid(),
    "list_id" uuid not null,
    "user_id" uuid not null,
    "email" text not null,
    "name" text,
    "status" text not null default 'pending'::text,
    "source" text not null,
    "consent_at" timestamp with time zone,
    "consent_statement" text,
    "created_at" timestamp with time zone not null default now(),
    "confirmed_at" timestamp with time zone,
    "unsubscribed_at" timestamp with time zone,
    "bounced_at" timestamp with time zone
      );


alter table "public"."list_subscribers" enable row level security;


  create table "public"."newsletter_lists" (
    "id" uuid not null default gen_random_uuid(),
    "user_id" uuid not null default auth.uid(),
    "name" text not null,
    "from_name" text,
    "reply_to" text,
    "allowed_origin" text not null,
    "confirm_message" text not null default ''::text,
    "created_at" timestamp with time zone not null default now(),
    "updated_at" timestamp with time zone not null default now()
      );


alter table "public"."newsletter_lists" enable row level security;

CREATE UNIQUE INDEX campaign_messages_pkey ON private.campaign_messages USING btree (campaign_id, subscriber_id);

CREATE INDEX campaign_messages_queued_idx ON private.campaign_messages USING btree (campaign_id) WHERE (status = ANY (ARRAY['queued'::text, 'sending'::text]));

CREATE INDEX list_subscriber_tokens_expiry_idx ON private.list_subscriber_tokens USING btree (expires_at);

CREATE UNIQUE INDEX list_subscriber_tokens_pkey ON private.list_subscriber_tokens USING btree (token_hash);

CREATE INDEX list_subscriber_tokens_subscriber_idx ON private.list_subscriber_tokens USING btree (subscriber_id, created_at DESC);

CREATE INDEX campaigns_due_idx ON public.campaigns USING btree (scheduled_at) WHERE (status = 'scheduled'::text);

CREATE UNIQUE INDEX campaigns_id_user_id_key ON public.campaigns USING btree (id, user_id);

CREATE INDEX campaigns_list_id_idx ON public.campaigns USING btree (list_id);

CREATE UNIQUE INDEX campaigns_pkey ON public.campaigns USING btree (id);

CREATE INDEX campaigns_user_id_idx ON public.campaigns USING btree (user_id);

CREATE UNIQUE INDEX list_subscribers_id_user_id_key ON public.list_subscribers USING btree (id, user_id);

CREATE UNIQUE INDEX list_subscribers_list_email_key ON public.list_subscribers USING btree (list_id, lower(email));

CREATE UNIQUE INDEX list_subscribers_pkey ON public.list_subscribers USING btree (id);

CREATE INDEX list_subscribers_user_id_idx ON public.list_subscribers USING btree (user_id);

CREATE UNIQUE INDEX newsletter_lists_pkey ON public.newsletter_lists USING btree (id);

CREATE INDEX newsletter_lists_user_id_idx ON public.newsletter_lists USING btree (user_id);

alter table "private"."campaign_messages" add constraint "campaign_messages_pkey" PRIMARY KEY using index "campaign_messages_pkey";

alter table "private"."list_subscriber_tokens" add constraint "list_subscriber_tokens_pkey" PRIMARY KEY using index "list_subscriber_tokens_pkey";

alter table "public"."campaigns" add constraint "campaigns_pkey" PRIMARY KEY using index "campaigns_pkey";

alter table "public"."list_subscribers" add constraint "list_subscribers_pkey" PRIMARY KEY using index "list_subscribers_pkey";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_pkey" PRIMARY KEY using index "newsletter_lists_pkey";

alter table "private"."campaign_messages" add constraint "campaign_messages_campaign_id_fkey" FOREIGN KEY (campaign_id) REFERENCES campaigns(id) ON DELETE CASCADE not valid;

alter table "private"."campaign_messages" validate constraint "campaign_messages_campaign_id_fkey";

alter table "private"."campaign_messages" add constraint "campaign_messages_last_error" CHECK ((char_length(last_error) <= 1000)) not valid;

alter table "private"."campaign_messages" validate constraint "campaign_messages_last_error";

alter table "private"."campaign_messages" add constraint "campaign_messages_status" CHECK ((status = ANY (ARRAY['queued'::text, 'sending'::text, 'sent'::text, 'failed'::text, 'bounced'::text, 'skipped'::text]))) not valid;

alter table "private"."campaign_messages" validate constraint "campaign_messages_status";

alter table "private"."campaign_messages" add constraint "campaign_messages_subscriber_id_fkey" FOREIGN KEY (subscriber_id) REFERENCES list_subscribers(id) ON DELETE CASCADE not valid;

alter table "private"."campaign_messages" validate constraint "campaign_messages_subscriber_id_fkey";

alter table "private"."list_subscriber_tokens" add constraint "list_subscriber_tokens_hash_format" CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text)) not valid;

alter table "private"."list_subscriber_tokens" validate constraint "list_subscriber_tokens_hash_format";

alter table "private"."list_subscriber_tokens" add constraint "list_subscriber_tokens_subscriber_id_fkey" FOREIGN KEY (subscriber_id) REFERENCES list_subscribers(id) ON DELETE CASCADE not valid;

alter table "private"."list_subscriber_tokens" validate constraint "list_subscriber_tokens_subscriber_id_fkey";

alter table "public"."campaigns" add constraint "campaigns_body" CHECK ((octet_length(body_markdown) <= (100 * 1024))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_body";

alter table "public"."campaigns" add constraint "campaigns_counts" CHECK (((recipients >= 0) AND (sent >= 0) AND (failed >= 0) AND (bounced >= 0) AND (unsubscribed >= 0) AND ((sent + failed) <= recipients))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_counts";

alter table "public"."campaigns" add constraint "campaigns_list_id_fkey" FOREIGN KEY (list_id) REFERENCES newsletter_lists(id) ON DELETE CASCADE not valid;

alter table "public"."campaigns" validate constraint "campaigns_list_id_fkey";

alter table "public"."campaigns" add constraint "campaigns_scheduled" CHECK (((status = 'scheduled'::text) = (scheduled_at IS NOT NULL))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_scheduled";

alter table "public"."campaigns" add constraint "campaigns_status" CHECK ((status = ANY (ARRAY['draft'::text, 'scheduled'::text, 'sending'::text, 'paused'::text, 'cancelled'::text, 'sent'::text]))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_status";

alter table "public"."campaigns" add constraint "campaigns_subject" CHECK (((char_length(subject) <= 200) AND (subject !~ '[\x01-\x1f\x7f-\x9f\u2028\u2029]'::text))) not valid;

alter table "public"."campaigns" validate constraint "campaigns_subject";

alter table "public"."campaigns" add constraint "campaigns_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."campaigns" validate constraint "campaigns_user_id_fkey";

alter table "public"."list_subscribers" add constraint "list_subscribers_confirmed_has_consent" CHECK (((status <> 'confirmed'::text) OR (consent_at IS NOT NULL))) not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_confirmed_has_consent";

alter table "public"."list_subscribers" add constraint "list_subscribers_email" CHECK (((char_length(email) <= 254) AND (email ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'::text))) not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_email";

alter table "public"."list_subscribers" add constraint "list_subscribers_import_has_statement" CHECK (((source <> 'import'::text) OR ((consent_statement IS NOT NULL) AND ((char_length(consent_statement) >= 10) AND (char_length(consent_statement) <= 500))))) not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_import_has_statement";

alter table "public"."list_subscribers" add constraint "list_subscribers_list_id_fkey" FOREIGN KEY (list_id) REFERENCES newsletter_lists(id) ON DELETE CASCADE not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_list_id_fkey";

alter table "public"."list_subscribers" add constraint "list_subscribers_name" CHECK (((name IS NULL) OR ((char_length(name) <= 100) AND (name !~ '[\x01-\x1f\x7f-\x9f]'::text)))) not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_name";

alter table "public"."list_subscribers" add constraint "list_subscribers_source" CHECK ((source = ANY (ARRAY['form'::text, 'import'::text]))) not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_source";

alter table "public"."list_subscribers" add constraint "list_subscribers_status" CHECK ((status = ANY (ARRAY['pending'::text, 'confirmed'::text, 'unsubscribed'::text, 'bounced'::text]))) not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_status";

alter table "public"."list_subscribers" add constraint "list_subscribers_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."list_subscribers" validate constraint "list_subscribers_user_id_fkey";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_allowed_origin" CHECK (((char_length(allowed_origin) <= 300) AND (allowed_origin ~ '^https?://([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$'::text))) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_allowed_origin";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_confirm_message" CHECK ((char_length(confirm_message) <= 1000)) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_confirm_message";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_from_name" CHECK (((from_name IS NULL) OR ((char_length(from_name) >= 1) AND (char_length(from_name) <= 60) AND (btrim(from_name) <> ''::text) AND (from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]'::text)))) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_from_name";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_name" CHECK (((char_length(name) >= 1) AND (char_length(name) <= 100) AND (btrim(name) <> ''::text))) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_name";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_reply_to" CHECK (((reply_to IS NULL) OR ((char_length(reply_to) <= 254) AND (reply_to ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'::text)))) not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_reply_to";

alter table "public"."newsletter_lists" add constraint "newsletter_lists_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."newsletter_lists" validate constraint "newsletter_lists_user_id_fkey";

alter table "private"."action_ledger" add constraint "action_ledger_kind" CHECK ((kind = ANY (ARRAY['autoresponse'::text, 'target_confirmation'::text, 'webhook_manual_send'::text, 'webhook_attempt'::text, 'api_key_created'::text, 'booking_request'::text, 'booking'::text, 'booking_mail'::text, 'list_signup'::text, 'list_confirmation'::text]))) not valid;

alter table "private"."action_ledger" validate constraint "action_ledger_kind";

alter table "public"."email_deliveries" add constraint "email_deliveries_kind" CHECK ((kind = ANY (ARRAY['notification'::text, 'target_confirmation'::text, 'newsletter_confirmation'::text, 'autoresponse'::text, 'webhook_disabled'::text, 'quota_warning'::text, 'booking_confirmation'::text, 'booking_notice'::text, 'booking_cancellation'::text, 'list_confirmation'::text]))) not valid;

alter table "public"."email_deliveries" validate constraint "email_deliveries_kind";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.campaigns_prepare()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  -- A campaign goes to a list of its own owner, and is edited only while it is a draft.
  if not exists (select 1 from public.newsletter_lists l where l.id = new.list_id and l.user_id = new.user_id) then
    raise exception 'Choose one of your lists.' using errcode = '23503';
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft'
     and (new.subject, new.body_markdown, new.list_id) is distinct from (old.subject, old.body_markdown, old.list_id) then
    raise exception 'Only a draft can be edited.' using errcode = '55000';
  end if;
  new.updated_at := now();
  return new;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.newsletter_lists_prepare()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  new.name := btrim(new.name);
  new.allowed_origin := regexp_replace(lower(btrim(new.allowed_origin)), '/$', '');
  new.reply_to := nullif(lower(btrim(coalesce(new.reply_to, ''))), '');
  new.updated_at := now();
  return new;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.newsletter_lists_sweep(p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_tokens integer;
  v_pending integer;
begin
  delete from private.list_subscriber_tokens t
   where t.token_hash in (select x.token_hash from private.list_subscriber_tokens x
                           where x.expires_at < now() limit greatest(p_limit, 0));
  get diagnostics v_tokens = row_count;
  -- Signups never confirmed are forgotten after 30 days.
  delete from public.list_subscribers s
   where s.id in (select x.id from public.list_subscribers x
                   where x.status = 'pending' and x.created_at < now() - interval '30 days'
                   limit greatest(p_limit, 0));
  get diagnostics v_pending = row_count;
  -- Copies of confirmation mail (they name the address) go after 30 days.
  delete from public.email_deliveries d
   where d.kind = 'list_confirmation' and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  return jsonb_build_object('tokens', v_tokens, 'pending', v_pending);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.campaign_control(p_campaign_id uuid, p_action text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_status text;
  v_next text;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change a campaign.' using errcode = '42501';
  end if;
  select c.status into v_status from public.campaigns c
   where c.id = p_campaign_id and c.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This campaign no longer exists.' using errcode = 'PT404';
  end if;
  v_next := case
    when p_action = 'pause' and v_status = 'sending' then 'paused'
    when p_action = 'resume' and v_status = 'paused' then 'sending'
    when p_action = 'cancel' and v_status in ('scheduled', 'sending', 'paused') then 'cancelled'
    when p_action = 'unschedule' and v_status = 'scheduled' then 'draft'
  end;
  if v_next is null then
    raise exception 'A % campaign cannot be %d.', v_status, p_action using errcode = '55000';
  end if;
  update public.campaigns c
     set status = v_next,
         scheduled_at = null,
         finished_at = case when v_next = 'cancelled' then now() else c.finished_at end
   where c.id = p_campaign_id;
  -- A cancelled campaign's unsent messages are never sent.
  if v_next = 'cancelled' then
    update private.campaign_messages m set status = 'skipped', lease = null, locked_until = null
     where m.campaign_id = p_campaign_id and m.status = 'queued';
  end if;
  return jsonb_build_object('status', v_next);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_campaign public.campaigns;
  v_recipients integer;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to send a campaign.' using errcode = '42501';
  end if;
  select c.* into v_campaign from public.campaigns c
   where c.id = p_campaign_id and c.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This campaign no longer exists.' using errcode = 'PT404';
  end if;
  if v_campaign.status not in ('draft', 'scheduled') then
    raise exception 'This campaign has already been sent or is sending.' using errcode = '55000';
  end if;
  if btrim(v_campaign.subject) = '' or btrim(v_campaign.body_markdown) = '' then
    raise exception 'Write a subject and a message first.' using errcode = '22023';
  end if;
  if p_at is not null and p_at > now() then
    update public.campaigns c set status = 'scheduled', scheduled_at = p_at where c.id = p_campaign_id;
    return jsonb_build_object('status', 'scheduled', 'scheduled_at', p_at);
  end if;

  -- The recipients, once: every confirmed subscriber of the list at this moment.
  insert into private.campaign_messages (campaign_id, subscriber_id)
    select p_campaign_id, s.id from public.list_subscribers s
     where s.list_id = v_campaign.list_id and s.status = 'confirmed'
    on conflict do nothing;
  select count(*)::integer into v_recipients from private.campaign_messages m where m.campaign_id = p_campaign_id;
  update public.campaigns c
     set status = 'sending', scheduled_at = null, started_at = now(), recipients = v_recipients
   where c.id = p_campaign_id;
  return jsonb_build_object('status', 'sending', 'recipients', v_recipients);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_max_rows constant integer := 10000;
  v_statement text := btrim(coalesce(p_consent_statement, ''));
  v_added integer;
  v_invalid jsonb;
  v_duplicates jsonb;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to import subscribers.' using errcode = '42501';
  end if;
  perform 1 from public.newsletter_lists l where l.id = p_list_id and l.user_id = (select auth.uid());
  if not found then
    raise exception 'This list no longer exists.' using errcode = 'PT404';
  end if;
  if char_length(v_statement) < 10 or char_length(v_statement) > 500 then
    raise exception 'Say how these people agreed to hear from you (10 to 500 characters).' using errcode = '22023';
  end if;
  if jsonb_typeof(p_rows) <> 'array' or jsonb_array_length(p_rows) > c_max_rows then
    raise exception 'Import at most 10 000 rows at a time.' using errcode = '22023';
  end if;

  -- One import at a time per list, so two imports of one file report their duplicates truly.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-import:' || p_list_id::text, 0));
  with given as (
    select r.n::integer as row_number,
           lower(btrim(coalesce(r.v ->> 'email', ''))) as email,
           nullif(btrim(regexp_replace(coalesce(r.v ->> 'name', ''), '[\x01-\x1f\x7f-\x9f]+', ' ', 'g')), '') as name
      from jsonb_array_elements(p_rows) with ordinality r(v, n)
  ),
  judged as (
    select g.*,
           char_length(g.email) > 254
             or g.email !~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'
             or g.email ~ '\.\.'
             or char_length(coalesce(g.name, '')) > 100 as invalid
      from given g
  ),
  -- Duplicates: of an earlier valid row of the file, or of an address the list already has.
  valid as (
    select j.*,
           row_number() over (partition by j.email order by j.row_number) > 1
             or exists (select 1 from public.list_subscribers s
                         where s.list_id = p_list_id and lower(s.email) = j.email) as duplicate
      from judged j where not j.invalid
  ),
  added as (
    insert into public.list_subscribers
        (list_id, user_id, email, name, status, source, consent_at, consent_statement, confirmed_at)
      select p_list_id, (select auth.uid()), v.email, v.name, 'confirmed', 'import', now(), v_statement, now()
        from valid v where not v.duplicate
      on conflict do nothing
      returning 1
  )
  select (select count(*)::integer from added),
         (select coalesce(jsonb_agg(jsonb_build_object('row', v.row_number, 'email', v.email) order by v.row_number), '[]'::jsonb)
            from valid v where v.duplicate),
         (select coalesce(jsonb_agg(jsonb_build_object('row', j.row_number, 'email', left(j.email, 254),
                                                       'reason', 'Not an e-mail address') order by j.row_number), '[]'::jsonb)
            from judged j where j.invalid)
    into v_added, v_duplicates, v_invalid;
  return jsonb_build_object('added', v_added, 'duplicates', v_duplicates, 'invalid', v_invalid);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.list_confirm(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_list_name text;
begin
  delete from private.list_subscriber_tokens t
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
     and t.expires_at > now()
  returning t.subscriber_id into v_subscriber_id;
  if v_subscriber_id is null then
    return jsonb_build_object('status', 'invalid');
  end if;
  update public.list_subscribers s
     set status = 'confirmed', consent_at = now(), confirmed_at = now()
   where s.id = v_subscriber_id and s.status = 'pending';
  select l.name into v_list_name from public.list_subscribers s
    join public.newsletter_lists l on l.id = s.list_id where s.id = v_subscriber_id;
  return jsonb_build_object('status', 'confirmed', 'list_name', v_list_name);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_name text := nullif(btrim(regexp_replace(coalesce(p_name, ''), '[\x01-\x1f\x7f-\x9f]+', ' ', 'g')), '');
  v_client text := left(coalesce(p_client, ''), 200);
  v_per_minute integer := coalesce((p_caps ->> 'per_client_minute')::integer, 5);
  v_per_day integer := coalesce((p_caps ->> 'per_client_day')::integer, 20);
  v_per_recipient integer := coalesce((p_caps ->> 'per_recipient_day')::integer, 3);
  v_cooldown interval := make_interval(secs => coalesce((p_caps ->> 'cooldown_seconds')::integer, 6 * 3600));
  v_list public.newsletter_lists;
  v_subscriber public.list_subscribers;
  v_target text;
  v_link text;
  v_text text;
  v_label text;
begin
  if not public.autoresponse_address_ok(v_email) then
    return jsonb_build_object('status', 'invalid', 'field', 'email', 'message', 'Enter a valid e-mail address.');
  end if;
  if char_length(coalesce(v_name, '')) > 100 then
    return jsonb_build_object('status', 'invalid', 'field', 'name', 'message', 'Keep the name under 100 characters.');
  end if;
  if p_confirm_token is null or p_confirm_token !~ '^[A-Za-z0-9_-]{43}$'
     or p_link_prefix is null or p_link_prefix !~ '^https?://[^\s"<>]+$' then
    raise exception 'list_subscribe needs a token and the confirmation link''s prefix' using errcode = '22023';
  end if;
  select l.* into v_list from public.newsletter_lists l where l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if regexp_replace(lower(btrim(coalesce(p_origin, ''))), '/$', '') <> v_list.allowed_origin then
    return jsonb_build_object('status', 'foreign_origin');
  end if;

  -- The client's allowance at this owner's lists, counted whatever the outcome.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-client:' || v_list.user_id::text || ':' || v_client, 0));
  if private.ledger_count('list_signup', now() - interval '1 minute', v_per_minute, v_list.user_id, null, null, v_client) >= v_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 60);
  end if;
  if private.ledger_count('list_signup', now() - interval '1 day', v_per_day, v_list.user_id, null, null, v_client) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  insert into private.action_ledger (kind, user_id, client) values ('list_signup', v_list.user_id, v_client);

  -- One decision at a time per address and list.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-address:' || p_list_id::text || ':' || v_email, 0));
  select s.* into v_subscriber from public.list_subscribers s
   where s.list_id = p_list_id and lower(s.email) = v_email for update;
  if found and v_subscriber.status = 'confirmed' then
    return jsonb_build_object('status', 'ok');
  end if;
  if not found then
    insert into public.list_subscribers (list_id, user_id, email, name, status, source)
      values (p_list_id, v_list.user_id, v_email, v_name, 'pending', 'form')
      returning * into v_subscriber;
  elsif v_subscriber.status <> 'pending' then
    update public.list_subscribers s
       set status = 'pending', name = coalesce(v_name, s.name), unsubscribed_at = null, bounced_at = null
     where s.id = v_subscriber.id;
  elsif exists (select 1 from private.list_subscriber_tokens t
                 where t.subscriber_id = v_subscriber.id and t.created_at > now() - v_cooldown) then
    -- A confirmation went out a short while ago: no second one yet.
    return jsonb_build_object('status', 'ok');
  end if;

  -- At most v_per_recipient confirmation mails a day to one address, from every list together.
  v_target := private.address_key(v_email);
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-confirmation-to:' || v_target, 0));
  if private.ledger_count_target('list_confirmation', now() - interval '1 day', v_per_recipient, v_target) >= v_per_recipient then
    return jsonb_build_object('status', 'ok');
  end if;
  insert into private.action_ledger (kind, user_id, target) values ('list_confirmation', v_list.user_id, v_target);

  delete from private.list_subscriber_tokens t where t.subscriber_id = v_subscriber.id;
  insert into private.list_subscriber_tokens (token_hash, subscriber_id, expires_at)
    values (encode(sha256(convert_to(p_confirm_token, 'UTF8')), 'hex'), v_subscriber.id, now() + interval '7 days');
  v_link := p_link_prefix || p_confirm_token;
  v_label := left(btrim(regexp_replace(v_list.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), 100);
  v_text := case when btrim(v_list.confirm_message) <> '' then btrim(v_list.confirm_message) || E'\n\n' else '' end
    || 'Please confirm that you want to receive "' || v_label || '":' || E'\n' || v_link || E'\n\n'
    || 'If you did not ask for this, ignore this message: you will not hear from this list.'
    || E'\n\n--\nYou receive this because this address was entered in the signup form of "' || v_label
    || '" on ' || v_list.allowed_origin || '.';
  insert into public.email_deliveries
      (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name)
    values ('list_confirmation', v_list.user_id, v_email,
            'Confirm your subscription to ' || left(v_label, 150), v_list.reply_to, v_text,
            '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><div>'
              || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>') || '</div></body></html>',
            coalesce(v_list.from_name, private.autoresponse_from_name(v_list.name)));
  return jsonb_build_object('status', 'ok');
end;
$function$
;

CREATE OR REPLACE FUNCTION public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber public.list_subscribers;
  v_list_name text;
begin
  select s.* into v_subscriber from public.list_subscribers s where s.id = p_subscriber_id for update;
  if not found then
    return jsonb_build_object('status', 'invalid');
  end if;
  select l.name into v_list_name from public.newsletter_lists l where l.id = v_subscriber.list_id;
  if v_subscriber.status in ('pending', 'confirmed') then
    update public.list_subscribers s set status = 'unsubscribed', unsubscribed_at = now()
     where s.id = p_subscriber_id;
    -- Counted on the campaign whose mail carried the link (once per subscriber).
    update public.campaigns c set unsubscribed = c.unsubscribed + 1
     where c.id = p_campaign_id and c.list_id = v_subscriber.list_id;
  end if;
  return jsonb_build_object('status', 'unsubscribed', 'list_name', v_list_name);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.sweep_retention(p_limit integer DEFAULT 5000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_old integer;
  v_forwarded integer;
  v_mails integer;
  v_ledger integer;
  v_keys integer;
  v_analytics jsonb;
  v_booking jsonb;
  v_lists jsonb;
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
  -- Analytics events past their site's retention, and the salts of earlier days.
  v_analytics := private.analytics_sweep(p_limit);
  -- Booking links that can no longer act, and old copies of booking mail.
  v_booking := private.booking_sweep(p_limit);
  -- Owners' lists: expired confirmation links, signups never confirmed, old confirmation mail.
  v_lists := private.newsletter_lists_sweep(p_limit);

  return jsonb_build_object('expired', v_old, 'forwarded', v_forwarded, 'autoresponses', v_mails,
                            'ledger', v_ledger, 'revoked_keys', v_keys, 'analytics', v_analytics,
                            'booking', v_booking, 'lists', v_lists);
end;
$function$
;

grant delete on table "public"."campaigns" to "authenticated";

grant select on table "public"."campaigns" to "authenticated";

grant delete on table "public"."campaigns" to "service_role";

grant insert on table "public"."campaigns" to "service_role";

grant references on table "public"."campaigns" to "service_role";

grant select on table "public"."campaigns" to "service_role";

grant trigger on table "public"."campaigns" to "service_role";

grant truncate on table "public"."campaigns" to "service_role";

grant update on table "public"."campaigns" to "service_role";

grant delete on table "public"."list_subscribers" to "authenticated";

grant select on table "public"."list_subscribers" to "authenticated";

grant delete on table "public"."list_subscribers" to "service_role";

grant insert on table "public"."list_subscribers" to "service_role";

grant references on table "public"."list_subscribers" to "service_role";

grant select on table "public"."list_subscribers" to "service_role";

grant trigger on table "public"."list_subscribers" to "service_role";

grant truncate on table "public"."list_subscribers" to "service_role";

grant update on table "public"."list_subscribers" to "service_role";

grant delete on table "public"."newsletter_lists" to "authenticated";

grant select on table "public"."newsletter_lists" to "authenticated";

grant delete on table "public"."newsletter_lists" to "service_role";

grant insert on table "public"."newsletter_lists" to "service_role";

grant references on table "public"."newsletter_lists" to "service_role";

grant select on table "public"."newsletter_lists" to "service_role";

grant trigger on table "public"."newsletter_lists" to "service_role";

grant truncate on table "public"."newsletter_lists" to "service_role";

grant update on table "public"."newsletter_lists" to "service_role";


  create policy "Campaigns are updatable by their owner"
  on "public"."campaigns"
  as permissive
  for update
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id))
with check ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Campaigns are viewable by their owner"
  on "public"."campaigns"
  as permissive
  for select
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Campaigns can be created by users for themselves"
  on "public"."campaigns"
  as permissive
  for insert
  to authenticated
with check ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Draft campaigns are deletable by their owner"
  on "public"."campaigns"
  as permissive
  for delete
  to authenticated
using (((( SELECT auth.uid() AS uid) = user_id) AND (status = 'draft'::text)));



  create policy "Subscribers are deletable by the list's owner"
  on "public"."list_subscribers"
  as permissive
  for delete
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Subscribers are viewable by the list's owner"
  on "public"."list_subscribers"
  as permissive
  for select
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Lists are deletable by their owner"
  on "public"."newsletter_lists"
  as permissive
  for delete
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Lists are updatable by their owner"
  on "public"."newsletter_lists"
  as permissive
  for update
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id))
with check ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Lists are viewable by their owner"
  on "public"."newsletter_lists"
  as permissive
  for select
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Lists can be created by users for themselves"
  on "public"."newsletter_lists"
  as permissive
  for insert
  to authenticated
with check ((( SELECT auth.uid() AS uid) = user_id));


CREATE TRIGGER campaigns_prepare BEFORE INSERT OR UPDATE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION private.campaigns_prepare();

CREATE TRIGGER newsletter_lists_prepare BEFORE INSERT OR UPDATE ON public.newsletter_lists FOR EACH ROW EXECUTE FUNCTION private.newsletter_lists_prepare();

alter function private.campaigns_prepare() set search_path to '';
alter function private.newsletter_lists_prepare() set search_path to '';
alter function private.newsletter_lists_sweep(p_limit integer) set search_path to '';
alter function public.campaign_control(p_campaign_id uuid, p_action text) set search_path to '';
alter function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) set search_path to '';
alter function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) set search_path to '';
alter function public.list_confirm(p_token text) set search_path to '';
alter function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb) set search_path to '';
alter function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) set search_path to '';
alter publication supabase_realtime add table public.campaigns;
alter publication supabase_realtime add table public.list_subscribers;
alter table public.campaigns replica identity using index campaigns_id_user_id_key;
alter table public.list_subscribers replica identity using index list_subscribers_id_user_id_key;
comment on function public.campaign_control(p_campaign_id uuid, p_action text) is 'pause, resume, cancel or unschedule the caller''s campaign.';
comment on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) is 'Sends the caller''s draft now (its recipients fixed: the list''s confirmed subscribers) or schedules it for p_at.';
comment on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) is 'Adds rows [{email, name}] to the caller''s list as confirmed under the consent statement given; reports invalid rows and duplicates, adds nothing twice.';
comment on function public.list_confirm(p_token text) is 'Spends a confirmation link''s token (7 days, once): the subscriber is confirmed, with the time as their consent.';
comment on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb) is 'A signup to an owner''s list from its form: origin, client limits, and the double opt-in mail (the owner''s words) at most once per cooldown and a few times a day per address; the same answer for every valid address.';
comment on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) is 'Unsubscribes a list''s subscriber (the newsletter function checks the signed link first); counted on the campaign it came from.';
comment on table private.campaign_messages is 'One row per recipient of a campaign, written when it starts: the primary key allows one message per subscriber and campaign.';
comment on table private.list_subscriber_tokens is 'SHA-256 (hex) of the confirmation links of list signups; the tokens themselves are not stored.';
comment on table public.campaigns is 'Campaigns to one list''s confirmed subscribers, written in Markdown; the counts follow the sending.';
comment on table public.list_subscribers is 'Subscribers of owners'' lists: pending until they confirm (or imported under the owner''s consent statement), then confirmed, unsubscribed or bounced.';
comment on table public.newsletter_lists is 'An owner''s mailing lists: the sender name and reply-to of their mail, the site their signup form posts from, and the owner''s words in the confirmation e-mail.';
grant execute on function private.campaigns_prepare() to postgres;
grant execute on function private.newsletter_lists_prepare() to postgres;
grant execute on function private.newsletter_lists_sweep(p_limit integer) to postgres;
grant execute on function public.campaign_control(p_campaign_id uuid, p_action text) to authenticated;
grant execute on function public.campaign_control(p_campaign_id uuid, p_action text) to postgres;
grant execute on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) to authenticated;
grant execute on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) to postgres;
grant execute on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) to authenticated;
grant execute on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) to postgres;
grant execute on function public.list_confirm(p_token text) to postgres;
grant execute on function public.list_confirm(p_token text) to service_role;
grant execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb) to postgres;
grant execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb) to service_role;
grant execute on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) to postgres;
grant execute on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) to service_role;
grant insert (allowed_origin) on table public.newsletter_lists to authenticated;
grant insert (body_markdown) on table public.campaigns to authenticated;
grant insert (confirm_message) on table public.newsletter_lists to authenticated;
grant insert (from_name) on table public.newsletter_lists to authenticated;
grant insert (list_id) on table public.campaigns to authenticated;
grant insert (name) on table public.newsletter_lists to authenticated;
grant insert (reply_to) on table public.newsletter_lists to authenticated;
grant insert (subject) on table public.campaigns to authenticated;
grant insert (user_id) on table public.campaigns to authenticated;
grant insert (user_id) on table public.newsletter_lists to authenticated;
grant update (allowed_origin) on table public.newsletter_lists to authenticated;
grant update (body_markdown) on table public.campaigns to authenticated;
grant update (confirm_message) on table public.newsletter_lists to authenticated;
grant update (from_name) on table public.newsletter_lists to authenticated;
grant update (list_id) on table public.campaigns to authenticated;
grant update (name) on table public.newsletter_lists to authenticated;
grant update (reply_to) on table public.newsletter_lists to authenticated;
grant update (subject) on table public.campaigns to authenticated;

revoke execute on function private.campaigns_prepare() from public;
revoke execute on function private.newsletter_lists_prepare() from public;
revoke execute on function private.newsletter_lists_sweep(p_limit integer) from public;
revoke execute on function public.campaign_control(p_campaign_id uuid, p_action text) from public;
revoke execute on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) from public;
revoke execute on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) from public;
revoke execute on function public.list_confirm(p_token text) from public;
revoke execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_origin text, p_client text, p_confirm_token text, p_link_prefix text, p_caps jsonb) from public;
revoke execute on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) from public;
