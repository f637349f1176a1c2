-- Schedules the form endpoint's e-mail retries where pg_cron and pg_net exist (hosted and
-- self-hosted Supabase): every minute, POST {project_url}/functions/v1/forms/_deliver with a
-- service key. Both values are read from Supabase Vault at run time, so no secret lives in
-- this file; create them once per project:
--   select vault.create_secret('https://<project-ref>.supabase.co', 'project_url');
--   select vault.create_secret('<service role or sb_secret_ key>', 'forms_delivery_key');
-- Without those secrets the job runs and does nothing. Databases without the extensions (the
-- Docker-free local stack) skip this migration; there the stack calls the same route on a timer.

do $outer$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_cron;
    create extension if not exists pg_net with schema extensions;
    perform cron.schedule(
      'tinyback-forms-deliver',
      '* * * * *',
      $job$
      select net.http_post(
        url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url')
               || '/functions/v1/forms/_deliver',
        headers := jsonb_build_object(
          'Content-Type', 'application/json',
          'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'forms_delivery_key')
        ),
        body := '{}'::jsonb
      )
      where exists (select 1 from vault.decrypted_secrets where name = 'forms_delivery_key');
      $job$
    );
  end if;
end
$outer$;
