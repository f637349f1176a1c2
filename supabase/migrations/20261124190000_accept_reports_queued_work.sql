-- accept_post() also says what the entry's insert queued by trigger, so the endpoint asks for work
-- only when there is some: `webhooks_queued` (deliveries queued by entries_queue_webhooks,
-- 20261124150000_webhooks.sql) and `autoresponse_id` (the e-mail queued by
-- entries_queue_autoresponse, 20261124170000_autoresponder_retention.sql, or null). Before, the
-- endpoint claimed the entry's webhook deliveries after every post, one more call and transaction
-- even for the forms without webhooks.
--
-- Backwards compatible: the same signature, and every answer as before, with the two keys added to
-- the accepted one (callers that do not know them ignore them). Both are read in the entry's own
-- transaction, after its triggers ran, through indexes on entry_id.

-- Same body as 20261124180000_captcha.sql up to the accepted answer; `create or replace` keeps the
-- owner and the grants (service_role only).
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
  v_result jsonb;
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
  v_result := public.accept_submission(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day
  );
  if v_result ->> 'status' is distinct from 'accepted' then
    return v_result;
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id',
    (select s.delivery_id from public.autoresponse_sends s
      where s.entry_id = p_entry_id and s.delivery_id is not null limit 1)
  );
end;
$$;
