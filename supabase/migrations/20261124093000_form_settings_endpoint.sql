-- Per-form settings at the form endpoint: accept_submission() now honours forms.notify_email (added
-- in 20261124090000_dashboard.sql). With e-mail notifications off, an accepted submission is stored
-- but no email_deliveries job is queued. The setting is read from the row the function already
-- locks, so the form lookup and the decision happen in one transaction. (The other setting,
-- forms.redirect_url, only changes the HTTP answer: the Edge Function reads it with the form.)

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------

-- Same signature and answers as before; `create or replace` keeps its owner and grants.
create or replace function public.accept_submission(
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
  p_per_day integer
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_recipient text;
  v_notify boolean;
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
  v_retry_after integer := 0;
  v_delivery_id uuid;
begin
  -- `for key share` keeps the form from being deleted until this transaction ends.
  -- The form's settings are read under the same lock, so the decision to e-mail follows the form as
  -- it is when the entry is stored.
  select f.target_email, f.notify_email into v_recipient, v_notify
    from public.forms f where f.id = p_form_id for key share;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;

  -- Upserting locks this client's counters, so concurrent posts from one client queue up here
  -- and each sees the count the previous one left.
  insert into public.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'minute', v_minute)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_minute_hits;
  insert into public.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'day', v_day)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_day_hits;

  if v_day_hits >= p_per_day then
    v_retry_after := ceil(extract(epoch from (v_day + interval '1 day' - now())));
  elsif v_minute_hits >= p_per_minute then
    v_retry_after := ceil(extract(epoch from (v_minute + interval '1 minute' - now())));
  end if;
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', greatest(v_retry_after, 1));
  end if;

  update public.submission_rate_limits
     set hits = hits + 1
   where form_id = p_form_id and ip_hash = p_ip_hash;
  -- Forget clients not seen for two days (cheap: the primary key starts with form_id).
  delete from public.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';

  -- The entry's owner is set by the entries_set_owner trigger, from the form.
  insert into public.entries (id, form_id, name, email, message, data, is_spam)
    values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb), p_is_spam);

  -- The owner may turn e-mails off per form: the entry is still stored, nothing is queued.
  if not p_is_spam and v_notify and p_notification is not null then
    insert into public.email_deliveries (entry_id, recipient, subject, reply_to, text_body, html_body)
      values (
        p_entry_id,
        v_recipient,
        p_notification ->> 'subject',
        nullif(p_notification ->> 'reply_to', ''),
        p_notification ->> 'text',
        p_notification ->> 'html'
      )
      returning id into v_delivery_id;
  end if;

  return jsonb_build_object('status', 'accepted', 'entry_id', p_entry_id, 'delivery_id', v_delivery_id);
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
-- Unchanged (still the service role only); stated again so this file reads complete on its own.
revoke execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer)
  from public, anon, authenticated;
grant execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer)
  to service_role;
