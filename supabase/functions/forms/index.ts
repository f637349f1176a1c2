// Entry point of the `forms` Edge Function: wires the environment (Supabase service client, mail
// provider, salts, site URL) into the request handler. Everything else lives in pure modules.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { handleRequest, type FormsDeps } from './handler.ts';
import { captchaVerifyUrlFromEnv, createCaptchaCheck } from './captcha.ts';
import { createDeliverStep } from './confirmations.ts';
import { addReports } from '../_shared/outbox/report.ts';
import { runWebhookDeliveries, type WebhookWorkerDeps } from './webhook-delivery.ts';
import { webhookKickRoute } from './webhook-kick.ts';
import { mailKickRoute } from './mail-kick.ts';
import { sendWebhook } from './webhook-sender.ts';
import { allowLocalFromEnv, createWebhookStore } from './webhook-store.ts';
import { createSendSoon, runDeliveries } from './delivery.ts';
import { cachedForms } from './form-cache.ts';
import { createResendMailer, mailConfigFromEnv, type Mailer } from './mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';
import { hashIp, ipSaltFromEnv, isServiceKey } from './secrets.ts';
import { clientIpPolicyFromEnv, siteUrlFromEnv, submissionLimitsFromEnv } from './settings.ts';
import {
  composeTargetConfirmations,
  createDeliveryStore,
  createFormStore,
  holdNotification,
  loadCaptchaSecret,
} from './supabase-store.ts';

const env = (name: string) => Deno.env.get(name);

function required(name: string): string {
  const value = env(name);
  if (!value) throw new Error(`The forms function needs the ${name} environment variable.`);
  return value;
}

const supabase = createClient(required('SUPABASE_URL'), required('SUPABASE_SERVICE_ROLE_KEY'), {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});
const salt = ipSaltFromEnv(env);
// Said once per start: a deployment that misses these keeps working, but not as intended.
const warn = (message: string) => console.warn(`forms: ${message}`);
const siteUrl = siteUrlFromEnv(env, warn);
const clientIpPolicy = clientIpPolicyFromEnv(env, warn);
// Known forms are remembered for a minute (at most 1 000): accept_post confirms each on use.
const formStore = createFormStore(supabase, submissionLimitsFromEnv(env, warn));
const forms = cachedForms(formStore, { ttlMs: 60_000, maxForms: 1_000 });
const deliveries = createDeliveryStore(supabase);
const webhooks: WebhookWorkerDeps = {
  store: createWebhookStore(supabase),
  send: (url, body, headers, allowLocal) => sendWebhook(url, body, headers, { allowLocal }),
  allowLocal: allowLocalFromEnv(env),
  now: () => new Date(),
};
if (webhooks.allowLocal)
  warn('WEBHOOKS_ALLOW_LOCAL=on: webhooks may reach local addresses (never set it in production).');

/** Sends webhook deliveries at once: an entry's (after its post) or one just queued; never throws. */
async function webhooksNow(only: { entryId?: string; id?: string }): Promise<void> {
  try {
    await runWebhookDeliveries(webhooks, only);
  } catch (err) {
    // The deliveries stay pending (or their lease runs out) and the scheduled run sends them.
    console.error(`forms: immediate webhook attempt failed: ${(err as Error).message}`);
  }
}

// A broken mail setup must not lose submissions: jobs stay queued, each attempt records why.
let mailer: Mailer;
let from = '';
try {
  const config = mailConfigFromEnv(env);
  from = config.from;
  mailer = config.provider === 'resend' ? createResendMailer(config) : createSmtpMailer(config);
} catch (err) {
  const reason = (err as Error).message;
  console.error(`forms: mail is not configured: ${reason}`);
  mailer = {
    send: () => Promise.reject(new Error(`Mail is not configured: ${reason}`)),
  };
}

// On Supabase's Edge Runtime, waitUntil keeps the worker alive for the send after we answer.
const edgeRuntime = (globalThis as { EdgeRuntime?: { waitUntil?(p: Promise<unknown>): void } })
  .EdgeRuntime;
/** Elsewhere, wait this long for the immediate send before answering; it carries on regardless. */
const IMMEDIATE_SEND_WAIT_MS = 2_000;

// Mail queued by posts goes out in batches as soon as possible (one claim, one open connection,
// one finish for all the posts that arrived meanwhile), after the answer.
const sendSoon = createSendSoon(
  () => runDeliveries(deliveries, mailer, from),
  (message) => console.error(`forms: ${message}`),
);

// The `_mail` route's runs (the dashboard's "send now" for confirmation links): the e-mail half
// of the scheduled run, coalesced per worker.
const mailSoon = createSendSoon(
  createDeliverStep({
    siteUrl,
    compose: (linkPrefix) => composeTargetConfirmations(supabase, linkPrefix),
    deliver: () => runDeliveries(deliveries, mailer, from),
    log: (message) => console.error(`forms: ${message}`),
  }),
  (message) => console.error(`forms: ${message}`),
);

const deps: FormsDeps = {
  loadForm: forms.loadForm,
  accept: forms.accept,
  hashIp: (ip) => hashIp(ip, salt),
  beginCaptchaPost: formStore.beginCaptchaPost,
  // Forms with CAPTCHA only: their secret is read and the provider asked before storing.
  checkCaptcha: createCaptchaCheck({
    loadSecret: (formId) => loadCaptchaSecret(supabase, formId),
    verifyUrl: captchaVerifyUrlFromEnv(env, warn),
    log: (message) => console.error(`forms: ${message}`),
  }),
  // The job is due at once, so the next batch takes it; a failed batch leaves it queued (or its
  // lease runs out) and the scheduled run retries it.
  sendNow: () => sendSoon(),
  sendWebhooksNow: (entryId) => webhooksNow({ entryId }),
  // Never fails the post: without the copy, that one message cannot be sent later.
  holdNotification: (entryId, notification) =>
    holdNotification(supabase, entryId, notification).catch((err) =>
      console.error(`forms: keeping a notification failed: ${(err as Error).message}`),
    ),
  async background(work) {
    if (edgeRuntime?.waitUntil) {
      edgeRuntime.waitUntil(work);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([work, new Promise((r) => (timer = setTimeout(r, IMMEDIATE_SEND_WAIT_MS)))]);
    clearTimeout(timer);
  },
  // Confirmation e-mails of target addresses are composed first, so they go out in this run.
  deliverDue: createDeliverStep({
    siteUrl,
    compose: (linkPrefix) => composeTargetConfirmations(supabase, linkPrefix),
    // Webhooks go out in the same scheduled run, alongside the e-mails.
    deliver: async () => {
      // A webhook failure is logged and never keeps the e-mails from going out (nor the reverse).
      const hooks = runWebhookDeliveries(webhooks).catch((err) => {
        console.error(`forms: webhook run failed: ${(err as Error).message}`);
        return { claimed: 0, sent: 0, retrying: 0, failed: 0 };
      });
      return addReports(await runDeliveries(deliveries, mailer, from), await hooks);
    },
    log: (message) => console.error(`forms: ${message}`),
  }),
  isServiceRole: (authorization) => isServiceKey(authorization, env),
  clientIpPolicy,
  siteUrl,
  newId: () => crypto.randomUUID(),
  now: () => new Date(),
  log: (message) => console.error(`forms: ${message}`),
};

// `_webhook` and `_mail` (the dashboard's "send now") are answered beside the handler's routes.
Deno.serve(
  (req) =>
    webhookKickRoute(req, (id) => webhooksNow({ id })) ??
    mailKickRoute(req, () => void deps.background(mailSoon())) ??
    handleRequest(req, deps),
);
