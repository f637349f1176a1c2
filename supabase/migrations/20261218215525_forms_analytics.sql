-- Forms meet analytics: an entry keeps the tracker's site, page and referrer host (accept_post()
-- takes them); form_conversion() sets a form's tracked submissions against its pages' views.

drop function if exists "private"."accept_entry"(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]);

drop function if exists "public"."accept_post"(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb);

alter table "public"."entries" add column "source_page" text;

alter table "public"."entries" add column "source_referrer" text;

alter table "public"."entries" add column "source_site_id" uuid;

CREATE INDEX entries_source_site_id_idx ON public.entries USING btree (source_site_id) WHERE (source_site_id IS NOT NULL);

alter table "public"."entries" add constraint "entries_source_page" CHECK (((source_page ~ '^/'::text) AND (char_length(source_page) <= 2000) AND (source_page !~ '[[:cntrl:]]'::text))) not valid;

alter table "public"."entries" validate constraint "entries_source_page";

alter table "public"."entries" add constraint "entries_source_referrer" CHECK (((char_length(source_referrer) <= 253) AND (source_referrer ~ '^[a-z0-9.-]+$'::text))) not valid;

alter table "public"."entries" validate constraint "entries_source_referrer";

alter table "public"."entries" add constraint "entries_source_site_id_fkey" FOREIGN KEY (source_site_id) REFERENCES analytics_sites(id) ON DELETE SET NULL not valid;

alter table "public"."entries" validate constraint "entries_source_site_id_fkey";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid DEFAULT NULL::uuid, p_source_page text DEFAULT NULL::text, p_source_referrer text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
  v_recipient text;
  v_notify boolean;
  v_verified boolean;
  v_epoch double precision := extract(epoch from now());
  v_second bigint := floor(extract(epoch from now()))::bigint;
  v_minute bigint := floor(extract(epoch from now()) / 60)::bigint;
  v_hour bigint := floor(extract(epoch from now()) / 3600)::bigint;
  v_hits integer[];
  v_last bigint;
  v_retry_after integer := 0;
  v_skipped text;
  v_delivery_id uuid;
  v_key bytea;
  v_first uuid;
  v_counted boolean;
  v_storing boolean := true;
  v_source_site uuid;
begin
  -- `for key share` keeps the form from being deleted until this transaction ends; its settings
  -- are read under the same lock, so the decision to e-mail follows the form as it is now.
  select f.user_id, f.target_email, f.notify_email, f.target_verified
    into v_owner, v_recipient, v_notify, v_verified
    from public.forms f where f.id = p_form_id for key share;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;

  -- A repeated key answers as the first post did. The key is claimed before anything is counted:
  -- a racing repeat waits on it here and then sees the first post's entry.
  if p_idempotency_key is not null then
    v_key := sha256(convert_to(p_idempotency_key, 'UTF8'));
    delete from private.post_idempotency i
     where i.form_id = p_form_id and i.created_at <= now() - interval '24 hours';
    insert into private.post_idempotency (form_id, key_hash, entry_id)
      values (p_form_id, v_key, p_entry_id)
      on conflict (form_id, key_hash) do nothing;
    if not found then
      select i.entry_id into v_first from private.post_idempotency i
       where i.form_id = p_form_id and i.key_hash = v_key;
      return private.repeated_post_answer(v_first);
    end if;
  end if;

  -- Per client (unless counted before the CAPTCHA check).
  if not p_client_counted then
    v_retry_after := private.take_client_allowance(p_form_id, p_ip_hash, p_per_minute, p_per_day);
    if v_retry_after > 0 then
      -- Nothing was stored: the key is free again for a later try.
      delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
      return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
    end if;
  end if;

  -- The tracker's site only when it is the form owner's: nobody links posts into another
  -- account's analytics.
  if p_source_site_id is not null then
    select s.id into v_source_site from public.analytics_sites s
     where s.id = p_source_site_id and s.user_id = v_owner;
  end if;

  -- The visitor's network, for the autoresponder's per-visitor cap (its trigger reads it in this
  -- transaction only).
  perform set_config('tinyback.client', coalesce(p_ip_hash, ''), true);

  -- Whether to e-mail, and if not, why: the form's settings here, the account's caps below. Spam
  -- is never e-mailed (is_spam says so).
  if not p_is_spam and p_notification is not null then
    if not v_notify then
      v_skipped := 'off';
    elsif not v_verified then
      v_skipped := 'unverified';
    end if;
  end if;

  -- The shared counters (the form's minute, the account's month and notification caps) lock their
  -- rows until this transaction ends, and every racing post of the form or the account waits for
  -- them. So the entry and its e-mail job are stored first and the counters taken last, in one
  -- block: when a counter refuses the post or caps its e-mail (rare), the block is undone (its
  -- savepoint) and taken again: to answer the refusal (counting only, in the order below, as a
  -- refused post always was), or to store the entry with the cap it met.
  for v_pass in 1 .. 5 loop
    begin
      if v_storing then
        -- The entry's owner is set by the entries_set_owner trigger, from the form; the order of
        -- the custom fields is checked against the data by entries_set_field_order.
        insert into public.entries (id, form_id, name, email, message, data, is_spam,
                                    notification_skipped, field_order, source_site_id,
                                    source_page, source_referrer)
          values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb),
                  p_is_spam, v_skipped, p_field_order, v_source_site, p_source_page,
                  p_source_referrer);
        if not p_is_spam and p_notification is not null and v_skipped is null then
          insert into public.email_deliveries
              (kind, entry_id, user_id, recipient, subject, reply_to, text_body, html_body)
            values (
              'notification',
              p_entry_id,
              v_owner,
              v_recipient,
              p_notification ->> 'subject',
              nullif(p_notification ->> 'reply_to', ''),
              p_notification ->> 'text',
              p_notification ->> 'html'
            )
            returning id into v_delivery_id;
        end if;
      end if;

      -- Per form, all clients together (a backstop when addresses are cheap): the posts of the
      -- last sixty seconds, by second. One statement counts the post when there is room, under
      -- the form's counter row lock, so a racing post waits and then decides on the count this
      -- one left.
      if p_form_per_minute is not null then
        for attempt in 1 .. 2 loop
          update private.form_post_counts c
             set (hits, last_second) =
                   (select a.hits, a.last from private.ring_take(c.hits, c.last_second, v_second, 60, 1) a)
           where c.form_id = p_form_id
             and private.ring_sum(c.hits, c.last_second, v_second, 60) < p_form_per_minute;
          v_counted := found;
          exit when v_counted or attempt = 2;
          -- The form's first post (or a full minute): the row, then the same statement once more.
          insert into private.form_post_counts (form_id) values (p_form_id) on conflict do nothing;
        end loop;
        if not v_counted then
          if v_storing then
            raise sqlstate 'TB409';
          end if;
          select c.hits, c.last_second into v_hits, v_last
            from private.form_post_counts c where c.form_id = p_form_id;
          delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
          return jsonb_build_object(
            'status', 'rate_limited',
            'retry_after', greatest(
              ceil(private.ring_first(v_hits, v_last, v_second, 60) + 60 - v_epoch)::integer, 1)
          );
        end if;
      end if;

      -- The account's month (plan quota): after every check that may refuse the post, so that a
      -- post refused for another reason is never counted; in this transaction, so the count and
      -- the entry commit together.
      v_retry_after := private.take_submission_quota(v_owner, p_is_spam);
      if v_retry_after > 0 then
        if v_storing then
          raise sqlstate 'TB409';
        end if;
        delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
        return jsonb_build_object('status', 'quota_exceeded', 'retry_after', v_retry_after);
      end if;

      if not v_storing then
        -- Room was made meanwhile: store the post after all.
        raise sqlstate 'TB410';
      end if;

      -- The account's notification caps: one statement counts the e-mail when both have room,
      -- under the account's counter row lock (held to the end), so racing posts cannot both take
      -- the last slot; its job above commits with the count.
      if not p_is_spam and p_notification is not null and v_skipped is null
         and (p_account_per_hour is not null or p_account_per_day is not null) then
        for attempt in 1 .. 2 loop
          update private.notification_counts c
             set (minute_hits, last_minute) =
                   (select m.hits, m.last from private.ring_take(c.minute_hits, c.last_minute, v_minute, 61, 1) m),
                 (hour_hits, last_hour) =
                   (select h.hits, h.last from private.ring_take(c.hour_hits, c.last_hour, v_hour, 25, 1) h)
           where c.user_id = v_owner
             and (p_account_per_hour is null
                  or private.ring_sum(c.minute_hits, c.last_minute, v_minute, 61) < p_account_per_hour)
             and (p_account_per_day is null
                  or private.ring_sum(c.hour_hits, c.last_hour, v_hour, 25) < p_account_per_day);
          v_counted := found;
          exit when v_counted or attempt = 2;
          insert into private.notification_counts (user_id) values (v_owner) on conflict do nothing;
        end loop;
        if not v_counted then
          -- A cap is reached: the entry is stored again with it, without the e-mail.
          select c.minute_hits, c.last_minute into v_hits, v_last
            from private.notification_counts c where c.user_id = v_owner;
          if p_account_per_day is not null and (p_account_per_hour is null or private.ring_sum(
               v_hits, v_last, v_minute, 61) < p_account_per_hour) then
            v_skipped := 'daily_limit';
          else
            v_skipped := 'hourly_limit';
          end if;
          raise sqlstate 'TB410';
        end if;
      elsif v_delivery_id is not null then
        -- Without caps the counters still record the send.
        perform public.count_notification_send(v_owner, now());
      end if;
      exit;
    exception
      when sqlstate 'TB409' then
        v_storing := false;
        v_delivery_id := null;
      when sqlstate 'TB410' then
        v_storing := true;
        v_delivery_id := null;
    end;
    if v_pass = 5 then
      raise exception 'accept_entry: the counters of form % kept changing', p_form_id;
    end if;
  end loop;

  return jsonb_build_object(
    'status', 'accepted',
    'entry_id', p_entry_id,
    'delivery_id', v_delivery_id,
    'notification_skipped', v_skipped
  );
end;
$function$
;
CREATE OR REPLACE FUNCTION public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false, p_field_order text[] DEFAULT NULL::text[], p_files jsonb DEFAULT NULL::jsonb, p_source_site_id uuid DEFAULT NULL::uuid, p_source_page text DEFAULT NULL::text, p_source_referrer text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_form jsonb;
  v_result jsonb;
  v_owner uuid;
  v_file_bytes bigint;
begin
  select f.user_id, jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url,
           'captcha_provider', f.captcha_provider
         )
    into v_owner, v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  if jsonb_typeof(p_files) = 'array' and jsonb_array_length(p_files) > 0 then
    v_file_bytes := private.files_bytes(p_files);
  end if;
  if v_file_bytes is null then
    v_result := private.accept_entry(
      p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
      p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
      p_account_per_day, p_idempotency_key, p_client_counted, p_field_order,
      p_source_site_id, p_source_page, p_source_referrer
    );
  else
    -- A post with files, in a block of its own: judged once the entry is in (a repeat is answered
    -- as the first post whatever else holds), and a refusal takes the entry back out.
    begin
      v_result := private.accept_entry(
        p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
        p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
        p_account_per_day, p_idempotency_key, p_client_counted, p_field_order,
        p_source_site_id, p_source_page, p_source_referrer
      );
      if v_result ->> 'status' = 'accepted' and not v_result ? 'repeated' then
        -- Read under a minute-old copy of the form: the owner may have turned uploads off since.
        if not exists (select 1 from public.form_uploads u where u.form_id = p_form_id and u.enabled) then
          raise exception 'uploads are off' using errcode = 'TBUP0';
        end if;
        -- Under the owner's usage row lock: racing posts cannot together pass the quota.
        if not private.reserve_storage(v_owner, v_file_bytes) then
          raise exception 'storage full' using errcode = 'TBUP1';
        end if;
      end if;
    exception
      when sqlstate 'TBUP0' then return jsonb_build_object('status', 'uploads_off');
      when sqlstate 'TBUP1' then return jsonb_build_object('status', 'storage_full');
    end;
  end if;
  if v_result ->> 'status' is distinct from 'accepted' or v_result ? 'repeated' then
    return v_result;
  end if;
  -- The post's files, already in Storage: their rows commit with the entry (or not at all).
  if p_files is not null then
    perform private.store_entry_files(p_entry_id, p_files);
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id', private.autoresponse_of(p_entry_id)
  );
end;
$function$
;

CREATE OR REPLACE FUNCTION public.form_conversion(p_form_id uuid, p_days integer DEFAULT 30)
 RETURNS TABLE(views bigint, submissions bigint, conversion numeric)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  v_to date := (now() at time zone 'UTC')::date;
  v_from date;
  v_views bigint := 0;
  v_submissions bigint;
  v_site uuid;
  v_pages text[];
begin
  if p_days is null or p_days < 1 or p_days > 400 then
    raise exception 'The period is 1 to 400 days.' using errcode = '22023';
  end if;
  -- Another account's form answers as a missing one: nothing tells the two apart.
  if not exists (select 1 from public.forms f
                  where f.id = p_form_id and f.user_id = (select auth.uid())) then
    raise exception 'This form does not exist.' using errcode = 'PT404';
  end if;
  v_from := v_to - (p_days - 1);

  -- Submissions sent from pages with the tracker, spam left out.
  select count(*) into v_submissions
    from public.entries e
   where e.form_id = p_form_id and not e.is_spam and e.source_site_id is not null
     and e.created_at >= v_from::timestamp at time zone 'UTC';

  -- The page views of the pages those submissions came from, site by site, from the same
  -- unfiltered counts the dashboard reads (rollups, then raw events for the rest).
  for v_site, v_pages in
    select e.source_site_id, array_agg(distinct e.source_page)
      from public.entries e
     where e.form_id = p_form_id and not e.is_spam and e.source_site_id is not null
       and e.source_page is not null
       and e.created_at >= v_from::timestamp at time zone 'UTC'
     group by e.source_site_id
  loop
    v_views := v_views + coalesce((
      select sum(c.pageviews)
        from private.analytics_cells(v_site, v_from, v_to, '{}'::jsonb, true) c
       where c.kind = 'page' and c.value = any (v_pages)
    ), 0);
  end loop;

  return query select v_views, v_submissions,
    case when v_views > 0 then round(100.0 * v_submissions / v_views, 1) end;
end;
$function$
;

alter function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid, p_source_page text, p_source_referrer text) set search_path to '';
alter function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb, p_source_site_id uuid, p_source_page text, p_source_referrer text) set search_path to '';
alter function public.form_conversion(p_form_id uuid, p_days integer) set search_path to '';
comment on column public.entries.source_page is 'The path of the page the form was on, as the tracker reported it; null without the tracker.';
comment on column public.entries.source_referrer is 'The host that referred the visit to the site (as analytics keeps it); null for a direct visit or without the tracker.';
comment on column public.entries.source_site_id is 'The owner''s analytics site whose tracker was on the page the post came from (its foreign key, ON DELETE SET NULL, is in 17-analytics.sql); null otherwise.';
comment on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid, p_source_page text, p_source_referrer text) is 'The body of accept_submission() and accept_post(): the caps, the idempotency key, the quota, the entry and its notification; p_field_order is the order the visitor sent the fields in.';
comment on function public.form_conversion(p_form_id uuid, p_days integer) is 'For the caller''s form over the last p_days UTC days: page views of the pages its tracked submissions came from, those submissions, and the percentage (null without views).';
revoke all on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid, p_source_page text, p_source_referrer text) from public, anon, authenticated, service_role;
revoke all on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb, p_source_site_id uuid, p_source_page text, p_source_referrer text) from public, anon, authenticated, service_role;
revoke all on function public.form_conversion(p_form_id uuid, p_days integer) from public, anon, authenticated, service_role;
grant execute on function private.accept_entry(p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_source_site_id uuid, p_source_page text, p_source_referrer text) to postgres;
grant execute on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb, p_source_site_id uuid, p_source_page text, p_source_referrer text) to postgres;
grant execute on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb, p_source_site_id uuid, p_source_page text, p_source_referrer text) to service_role;
grant execute on function public.form_conversion(p_form_id uuid, p_days integer) to authenticated;
grant execute on function public.form_conversion(p_form_id uuid, p_days integer) to postgres;
