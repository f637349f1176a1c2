// The outbox worker: sends what the database queued — e-mail (notifications, autoresponses,
// target-address confirmations, the newsletter's confirmations) and webhook deliveries. Every
// function that queues work builds one from its environment and calls it in-process: the `forms`
// function right after a post and on its `_deliver`, `_mail` and `_webhook` routes, the
// `newsletter` function right after a sign-up. Leases in the database keep workers of different
// functions (and instances) from ever sending the same job twice.
import {
  linkSecretFromEnv,
  listUnsubscribeUrlOf,
  signUnsubscribe,
  unsubscribeMailtoFromEnv,
  unsubscribeMailtoOf,
  unsubscribePageUrlOf,
} from '../list-unsubscribe.ts';
import { renderCampaignMarkdown } from './campaign-markdown.ts';
import {
  campaignLimitsFromEnv,
  runCampaigns,
  type CampaignReport,
  type CampaignResult,
  type CampaignRunDeps,
} from './campaigns.ts';
import { coalescedRuns } from './coalesced.ts';
import { createDeliverStep } from './confirmations.ts';
import { createSendSoon, runDeliveries } from './mail-delivery.ts';
import { createResendMailer, mailConfigFromEnv, type Mailer } from './mailer.ts';
import { addReports, type DeliveryReport } from './report.ts';
import { createSmtpMailer } from './smtp-mailer.ts';
import {
  allowLocalFromEnv,
  composeTargetConfirmations,
  createCampaignStore,
  createMailStore,
  createWebhookStore,
  type RpcClient,
} from './store.ts';
import { runWebhookDeliveries, type WebhookWorkerDeps } from './webhook-delivery.ts';
import { sendWebhook } from './webhook-sender.ts';

export interface OutboxOptions {
  /** The function's direct database connection (_shared/database.ts; `rpc` is all it uses). */
  client: RpcClient;
  env: (name: string) => string | undefined;
  /** SITE_URL, for the confirmation links; null: confirmations wait until it is set. */
  siteUrl: string | null;
  /** Failures (already prefixed with the function's name by the caller). */
  log(message: string): void;
  /** Said once at start about a setting that works, but not as intended. */
  warn(message: string): void;
  /**
   * More work for the scheduled run, beside the deliveries: the forms function's file sweep
   * (forms/uploads/sweep.ts), whose counts the run's report carries as `files`. It must not
   * reject; if it does, that is logged and the deliveries' report is answered without it.
   */
  sweepFiles?: () => Promise<Record<string, number>>;
  /** Signs a download URL of a stored file for a webhook payload (the forms function's Storage). */
  signFile?: (objectKey: string, seconds: number) => Promise<string>;
}

/**
 * The scheduled run's report: the deliveries' counts, the file sweep's when there is one, and the
 * campaign run's when it ran (null: one was already running in this worker).
 */
type ScheduledReport = DeliveryReport & {
  files?: Record<string, number>;
  /** The campaign run: started now, or already running in this worker. */
  campaigns?: 'started' | 'running';
};

export interface Outbox {
  /**
   * Sends due e-mail as soon as possible, in batches: posts arriving together share one claim,
   * one connection to the provider and one finish. Settles when this call's work is done (for
   * EdgeRuntime.waitUntil); never rejects (the jobs stay queued for the scheduled run).
   */
  mailSoon(): Promise<void>;
  /**
   * The e-mail half of the scheduled run (`_mail`, the dashboard's "send now"): composes waiting
   * target-address confirmations, then sends due e-mail; coalesced like mailSoon; never rejects.
   */
  confirmationsSoon(): Promise<void>;
  /** Sends webhook deliveries now (an entry's after its post, or one just queued); never throws. */
  webhooksNow(only: { entryId?: string; id?: string }): Promise<void>;
  /**
   * The scheduled run (`_deliver`): confirmations, due e-mail and due webhooks, counted; the
   * file sweep, when the function has one; and owners' campaigns (only the forms function's
   * scheduled run calls it). Campaign links need SITE_URL and the newsletter function's public
   * URL (NEWSLETTER_PUBLIC_URL, else SUPABASE_URL's).
   */
  deliverDue(): Promise<ScheduledReport>;
  /**
   * Sends due campaign messages now (`_campaigns`: a campaign just started or resumed): starts a
   * campaign run, or asks the one going for one more round after it (its last claim may have come
   * before the campaign started). Settles when that run ends; never rejects.
   */
  campaignsSoon(): Promise<void>;
}

export function createOutbox(opts: OutboxOptions): Outbox {
  const { client, env, siteUrl, log, warn, sweepFiles, signFile } = opts;
  const mailStore = createMailStore(client);
  const webhooks: WebhookWorkerDeps = {
    store: createWebhookStore(client),
    send: (url, body, headers, allowLocal) => sendWebhook(url, body, headers, { allowLocal }),
    signFile,
    allowLocal: allowLocalFromEnv(env),
    now: () => new Date(),
  };
  if (webhooks.allowLocal)
    warn(
      'WEBHOOKS_ALLOW_LOCAL=on: webhooks may reach local addresses (never set it in production).',
    );

  // A broken mail setup must not lose anything: jobs stay queued, each attempt records why.
  let mailer: Mailer;
  let from = '';
  try {
    const config = mailConfigFromEnv(env);
    from = config.from;
    mailer = config.provider === 'resend' ? createResendMailer(config) : createSmtpMailer(config);
  } catch (err) {
    const reason = (err as Error).message;
    log(`mail is not configured: ${reason}`);
    mailer = {
      send: () => Promise.reject(new Error(`Mail is not configured: ${reason}`)),
    };
  }

  const sendMail = () => runDeliveries(mailStore, mailer, from);
  // Confirmation e-mails of target addresses are composed first, so they go out in the same run.
  const withConfirmations = (deliver: () => Promise<DeliveryReport>) =>
    createDeliverStep({
      siteUrl,
      compose: (linkPrefix) => composeTargetConfirmations(client, linkPrefix),
      deliver,
      log,
    });

  const deliverAll = withConfirmations(async () => {
    // A webhook failure is logged and never keeps the e-mails from going out (nor the reverse).
    const hooks = runWebhookDeliveries(webhooks).catch((err) => {
      log(`webhook run failed: ${(err as Error).message}`);
      return { claimed: 0, sent: 0, retrying: 0, failed: 0 };
    });
    return addReports(await sendMail(), await hooks);
  });

  const campaignRound = campaignRunner({
    env,
    siteUrl,
    log,
    client,
    mailer,
    from,
    unsubscribeMailto: unsubscribeMailtoFromEnv(env, warn),
  });
  const campaignRuns = coalescedRuns(async () => {
    try {
      await campaignRound();
    } catch (err) {
      log(`campaign run failed: ${(err as Error).message}`);
    }
  });
  // On Supabase's Edge Runtime, waitUntil keeps the worker alive for the run after we answer.
  const keepAlive = (run: Promise<void>) =>
    (
      globalThis as { EdgeRuntime?: { waitUntil?(p: Promise<unknown>): void } }
    ).EdgeRuntime?.waitUntil?.(run);
  const startCampaigns = (): 'started' | 'running' => {
    const run = campaignRuns.start();
    if (!run) return 'running';
    keepAlive(run);
    return 'started';
  };

  return {
    mailSoon: createSendSoon(sendMail, log),
    campaignsSoon: () => campaignRuns.kick(),
    confirmationsSoon: createSendSoon(withConfirmations(sendMail), log),
    async webhooksNow(only) {
      try {
        await runWebhookDeliveries(webhooks, only);
      } catch (err) {
        // The deliveries stay pending (or their lease runs out) and the scheduled run sends them.
        log(`immediate webhook attempt failed: ${(err as Error).message}`);
      }
    },
    // Webhooks go out in the same scheduled run, alongside the e-mails.
    deliverDue: async () => {
      // Objects to remove from Storage wait on nothing the deliveries do, nor they on them.
      const files = sweepFiles?.().catch((err) => {
        log(`file sweep failed: ${(err as Error).message}`);
        return undefined;
      });
      // Campaigns run on beside (up to CAMPAIGNS.runSeconds), not held by this answer: the
      // scheduler's next call finds this run still going and leaves it be.
      const campaigns = startCampaigns();
      const report: ScheduledReport = await deliverAll();
      const swept = await files;
      return { ...report, ...(swept ? { files: swept } : {}), campaigns };
    },
  };
}

/**
 * One round of campaign sending (runCampaigns), with the unsubscribe links signed for each
 * recipient; coalescedRuns keeps rounds one at a time in this worker.
 */
function campaignRunner(opts: {
  env: (name: string) => string | undefined;
  siteUrl: string | null;
  log(message: string): void;
  client: RpcClient;
  mailer: Mailer;
  from: string;
  /** NEWSLETTER_UNSUBSCRIBE_MAILTO, checked; null: List-Unsubscribe offers the URL alone. */
  unsubscribeMailto: string | null;
}): () => Promise<CampaignReport> {
  const { env, siteUrl, log, unsubscribeMailto } = opts;
  let warned = false;
  const unrecorded: CampaignResult[] = [];
  const newsletterUrl = env('NEWSLETTER_PUBLIC_URL')?.replace(/\/+$/, '');
  const functionsUrl = newsletterUrl
    ? newsletterUrl.replace(/\/newsletter$/, '')
    : `${(env('SUPABASE_URL') ?? '').replace(/\/+$/, '')}/functions/v1`;
  return async () => {
    if (!siteUrl) {
      if (!warned) log('SITE_URL is not set: campaigns wait until it is (their links need it).');
      warned = true;
      return { claimed: 0, sent: 0, retrying: 0, failed: 0, bounced: 0 };
    }
    const secret = linkSecretFromEnv(env);
    const deps: CampaignRunDeps = {
      store: createCampaignStore(opts.client),
      mailer: opts.mailer,
      from: opts.from,
      renderMarkdown: renderCampaignMarkdown,
      links: async (m) => {
        // Signed once: the header's URL, its mailto and the body's page carry the same code.
        const link = await signUnsubscribe(m.subscriber_id, m.campaign_id, secret);
        return {
          oneClick: listUnsubscribeUrlOf(functionsUrl, link),
          page: unsubscribePageUrlOf(siteUrl, link),
          mailto: unsubscribeMailto ? unsubscribeMailtoOf(unsubscribeMailto, link) : null,
        };
      },
      limits: campaignLimitsFromEnv(env),
      listIdDomain: new URL(siteUrl).hostname,
      log,
      unrecorded,
    };
    return await runCampaigns(deps);
  };
}
