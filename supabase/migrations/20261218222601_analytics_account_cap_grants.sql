-- analytics_collect() (service role only) and analytics_account_today() (owners) as every other
-- analytics function: no execute for PUBLIC, which a function is granted when it is created.

revoke execute on function public.analytics_account_today() from public;
revoke execute on function public.analytics_collect(p_site_id uuid, p_host text, p_ip text, p_client_key text, p_user_agent text, p_name text, p_path text, p_referrer_host text, p_utm_source text, p_utm_medium text, p_utm_campaign text, p_country text, p_browser text, p_os text, p_device text, p_screen text, p_props jsonb, p_per_minute integer, p_per_day integer, p_site_per_minute integer, p_account_per_day integer) from public;
