// Entry point of the `newsletter` Edge Function: wires the environment (Supabase service client,
// client hashing, public URLs) into the request handler. Everything else lives in pure modules.
//
// Mail goes through the shared outbox (email_deliveries): a sign-up queues its confirmation
// e-mail in the same transaction, and right after queueing this function's own outbox worker
// (_shared/outbox/, the one the `forms` function runs) sends it without delaying the answer, so
// the mail leaves within seconds instead of at the next scheduled run; if that send fails, the
// scheduled run (the `forms` function's `_deliver`: pg_cron on Supabase, the local stack's timer)
// retries it.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { captchaVerifyUrlFromEnv, checkWithStoredSecret } from '../_shared/captcha.ts';
import { clientSaltFromEnv, hashClientKey } from '../_shared/client-hash.ts';
import { connectDatabase, databaseUrlFromEnv } from '../_shared/database.ts';
import { clientIp, rateLimitKey } from '../_shared/client-ip.ts';
import { linkSecretFromEnv } from '../_shared/list-unsubscribe.ts';
import { createOutbox } from '../_shared/outbox/worker.ts';
import { handleRequest, type NewsletterDeps } from './handler.ts';
import { renderCampaignMarkdown } from '../_shared/outbox/campaign-markdown.ts';
import { createCampaignTestStore, createListsStore } from './supabase-store.ts';
import { newToken } from './tokens.ts';

const env = (name: string) => Deno.env.get(name);

function required(name: string): string {
  const value = env(name);
  if (!value) throw new Error(`The newsletter function needs the ${name} environment variable.`);
  return value;
}

const supabaseUrl = required('SUPABASE_URL').replace(/\/+$/, '');
const serviceKey = required('SUPABASE_SERVICE_ROLE_KEY');
const supabase = createClient(supabaseUrl, serviceKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});
const listsStore = createListsStore(supabase);
const campaignTestStore = createCampaignTestStore(supabase);
const salt = clientSaltFromEnv(env);
const siteUrl = env('SITE_URL') || null;
// Said once per start: the links still work, but answer in plain text instead of the site's pages.
if (!siteUrl)
  console.warn('newsletter: SITE_URL is not set; confirm/unsubscribe links answer in plain text.');

// The outbox claims and finishes its jobs over a direct connection, as in the forms function.
const outbox = createOutbox({
  client: connectDatabase(databaseUrlFromEnv(env), { max: 2 }),
  env,
  siteUrl,
  log: (message) => console.error(`newsletter: ${message}`),
  warn: (message) => console.warn(`newsletter: ${message}`),
});

// Tests and local development only: a loopback stand-in for the providers' siteverify.
const captchaVerifyUrl = captchaVerifyUrlFromEnv(env, (message) =>
  console.warn(`newsletter: ${message}`),
);

// On Supabase's Edge Runtime, waitUntil keeps the worker alive for work after the answer.
const edgeRuntime = (globalThis as { EdgeRuntime?: { waitUntil?(p: Promise<unknown>): void } })
  .EdgeRuntime;

/** Sends the queued e-mail after the answer; never throws (failures are logged, jobs stay queued). */
function deliverSoon() {
  const work = outbox.mailSoon();
  edgeRuntime?.waitUntil?.(work);
}

const deps: NewsletterDeps = {
  newToken,
  deliverSoon,
  // SUPABASE_URL is the gateway's internal address on self-hosted Supabase; links need the public one.
  functionUrl: env('NEWSLETTER_PUBLIC_URL') || `${supabaseUrl}/functions/v1/newsletter`,
  siteUrl,
  log: (message) => console.error(`newsletter: ${message}`),
  lists: {
    attempt: listsStore.attempt,
    subscribe: listsStore.subscribe,
    // The secret came with list_signup_attempt()'s answer: no second read.
    checkCaptcha: (input) =>
      checkWithStoredSecret(
        {
          provider: input.provider,
          token: input.token,
          remoteIp: input.remoteIp,
          expectedOrigin: input.origin,
          subject: `list ${input.listId}`,
        },
        {
          loadSecret: () => Promise.resolve(input.secret),
          log: (message) => console.error(`newsletter: ${message}`),
          verifyUrl: captchaVerifyUrl,
        },
      ),
    confirm: listsStore.confirm,
    unsubscribeToken: listsStore.unsubscribeToken,
    unsubscribe: listsStore.unsubscribe,
    // Apart from the forms' hashes; the footer's signups are the site list's.
    clientHash: (req) =>
      hashClientKey(rateLimitKey(clientIp(req.headers)), salt, 'newsletter-lists'),
    linkSecret: linkSecretFromEnv(env),
  },
  campaignTest: {
    userOf: campaignTestStore.userOf,
    loadCampaign: campaignTestStore.loadCampaign,
    queueTest: campaignTestStore.queueTest,
    renderMarkdown: renderCampaignMarkdown,
    siteUrl,
    deliverSoon,
    log: (message) => console.error(`newsletter: ${message}`),
  },
};

Deno.serve((req) => handleRequest(req, deps));
