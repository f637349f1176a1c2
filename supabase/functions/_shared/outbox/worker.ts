// The outbox worker: sends what the database queued — e-mail (notifications, autoresponses,
// target-address confirmations, the newsletter's confirmations) and webhook deliveries. Every
// function that queues work builds one from its environment and calls it in-process: the `forms`
// function right after a post and on its `_deliver`, `_mail` and `_webhook` routes, the
// `newsletter` function right after a sign-up. Leases in the database keep workers of different
// functions (and instances) from ever sending the same job twice.
import { createDeliverStep } from './confirmations.ts';
import { createSendSoon, runDeliveries } from './mail-delivery.ts';
import { createResendMailer, mailConfigFromEnv, type Mailer } from './mailer.ts';
import { addReports, type DeliveryReport } from './report.ts';
import { createSmtpMailer } from './smtp-mailer.ts';
import {
  allowLocalFromEnv,
  composeTargetConfirmations,
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

/** The scheduled run's report: the deliveries' counts, and the file sweep's when there is one. */
type ScheduledReport = DeliveryReport & { files?: Record<string, number> };

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
   * The scheduled run (`_deliver`): confirmations, due e-mail and due webhooks, counted; and the
   * file sweep, when the function has one.
   */
  deliverDue(): Promise<ScheduledReport>;
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

  return {
    mailSoon: createSendSoon(sendMail, log),
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
      const report: ScheduledReport = await deliverAll();
      const swept = await files;
      return swept ? { ...report, files: swept } : report;
    },
  };
}
