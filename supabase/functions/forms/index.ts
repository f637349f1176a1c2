// Entry point of the `forms` Edge Function: wires the environment (Supabase service client, salts,
// site URL) and the outbox worker into the request handler. Everything else lives in pure modules.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { connectDatabase, databaseUrlFromEnv } from '../_shared/database.ts';
import { createOutbox } from '../_shared/outbox/worker.ts';
import { handleRequest, type FormsDeps } from './handler.ts';
import { captchaVerifyUrlFromEnv } from '../_shared/captcha.ts';
import { createCaptchaCheck } from './captcha.ts';
import { webhookKickRoute } from './webhook-kick.ts';
import { mailKickRoute } from './mail-kick.ts';
import { campaignKickRoute } from './campaign-kick.ts';
import { cachedForms } from './form-cache.ts';
import { hashIp, ipSaltFromEnv, isServiceKey } from './secrets.ts';
import {
  clientIpPolicyFromEnv,
  publicUrlFromEnv,
  siteUrlFromEnv,
  submissionLimitsFromEnv,
} from './settings.ts';
import { createFormStore, holdNotification, loadCaptchaSecret } from './supabase-store.ts';
import { detectType } from './uploads/detect.ts';
import { directUploads } from './uploads/direct.ts';
import { storageFileStore } from './uploads/file-store.ts';
import { postFilesReader, removeStored } from './uploads/post-files.ts';
import { createFileSweep, sweepDatabase } from './uploads/sweep.ts';

const env = (name: string) => Deno.env.get(name);

function required(name: string): string {
  const value = env(name);
  if (!value) throw new Error(`The forms function needs the ${name} environment variable.`);
  return value;
}

const supabase = createClient(required('SUPABASE_URL'), required('SUPABASE_SERVICE_ROLE_KEY'), {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});
// Every post's calls and the outbox's go straight to Postgres (_shared/database.ts); posts that
// arrive together are accepted in one transaction.
const db = connectDatabase(databaseUrlFromEnv(env), { together: ['accept_post'] });
const salt = ipSaltFromEnv(env);
// Said once per start: a deployment that misses these keeps working, but not as intended.
const warn = (message: string) => console.warn(`forms: ${message}`);
const siteUrl = siteUrlFromEnv(env, warn);
const clientIpPolicy = clientIpPolicyFromEnv(env, warn);
// Known forms are remembered for a minute (at most 1 000): accept_post confirms each on use.
const formStore = createFormStore({ rest: supabase, db }, submissionLimitsFromEnv(env, warn));
const forms = cachedForms(formStore, { ttlMs: 60_000, maxForms: 1_000 });
// Files of posts to forms with uploads on: streamed to Storage's private bucket as they arrive.
const fileStore = storageFileStore({
  url: required('SUPABASE_URL'),
  publicUrl: publicUrlFromEnv(env, warn),
  serviceKey: required('SUPABASE_SERVICE_ROLE_KEY'),
});
const logError = (message: string) => console.error(`forms: ${message}`);
// The outbox worker (_shared/outbox/): mail, webhooks and target confirmations, sent in-process;
// its scheduled run also removes the objects of deleted and abandoned uploads from Storage.
const outbox = createOutbox({
  client: db,
  env,
  siteUrl,
  log: (message) => console.error(`forms: ${message}`),
  warn,
  sweepFiles: createFileSweep({
    db: sweepDatabase(db),
    files: fileStore,
    log: (message) => console.error(`forms: ${message}`),
  }),
  // Webhook payloads carry each file's URL, signed at each attempt and expiring.
  signFile: (key, seconds) => fileStore.sign(key, seconds),
});

// On Supabase's Edge Runtime, waitUntil keeps the worker alive for the send after we answer.
const edgeRuntime = (globalThis as { EdgeRuntime?: { waitUntil?(p: Promise<unknown>): void } })
  .EdgeRuntime;
/** Elsewhere, wait this long for the immediate send before answering; it carries on regardless. */
const IMMEDIATE_SEND_WAIT_MS = 2_000;

const deps: FormsDeps = {
  loadForm: forms.loadForm,
  accept: forms.accept,
  hashIp: (ip) => hashIp(ip, salt),
  beginCaptchaPost: formStore.beginCaptchaPost,
  // Forms with CAPTCHA only: their secret is read and the provider asked before storing.
  checkCaptcha: createCaptchaCheck({
    loadSecret: (formId) => loadCaptchaSecret(db, formId),
    verifyUrl: captchaVerifyUrlFromEnv(env, warn),
    log: (message) => console.error(`forms: ${message}`),
  }),
  // The job is due at once, so the next batch takes it; a failed batch leaves it queued (or its
  // lease runs out) and the scheduled run retries it.
  sendNow: () => outbox.mailSoon(),
  sendWebhooksNow: (entryId) => outbox.webhooksNow({ entryId }),
  // Never fails the post: without the copy, that one message cannot be sent later.
  holdNotification: (entryId, notification) =>
    holdNotification(db, entryId, notification).catch((err) =>
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
  readPostWithFiles: postFilesReader({
    store: fileStore,
    detect: detectType,
    beginUploads: formStore.beginUploads,
    log: logError,
  }),
  removeFiles: (files) => removeStored(fileStore, files, logError),
  // The JavaScript embed's files, written to Storage through signed upload URLs.
  directUploads: directUploads({
    store: fileStore,
    detect: detectType,
    beginUploads: formStore.beginUploads,
    namedEntry: formStore.namedEntry,
    log: logError,
  }),
  // Confirmation e-mails, due e-mail and due webhooks: the scheduled run.
  deliverDue: outbox.deliverDue,
  isServiceRole: (authorization) => isServiceKey(authorization, env),
  clientIpPolicy,
  siteUrl,
  newId: () => crypto.randomUUID(),
  now: () => new Date(),
  log: (message) => console.error(`forms: ${message}`),
};

// `_webhook`, `_mail` and `_campaigns` (the dashboard's "send now") are answered beside the
// handler's routes.
Deno.serve(
  (req) =>
    webhookKickRoute(req, (id) => outbox.webhooksNow({ id })) ??
    mailKickRoute(req, () => void deps.background(outbox.confirmationsSoon())) ??
    campaignKickRoute(req, () => void deps.background(outbox.campaignsSoon())) ??
    handleRequest(req, deps),
);
