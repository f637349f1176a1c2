// The campaign run of the outbox: sends owners' campaigns a batch at a time. Each batch is leased
// by campaign_claim() (fair across accounts, within their per-second and daily ceilings); then,
// a window of a few messages at a time, campaign_begin() marks them 'sending' right before their
// SMTP transactions and campaign_finish() records each server's answer under the batch's lease.
//
// Exactly once: a message is sent only after campaign_begin() made it 'sending', and the database
// never hands a 'sending' message out again. A sender killed mid-window leaves at most one window
// uncertain (recorded as failed when its lease ends, never sent twice); the rest of its batch was
// never begun and is claimed again when the lease ends. Each mail's Message-ID is derived from
// (campaign, subscriber), so a receiver sees one identity per recipient whatever happens.
// Memory is one batch: a campaign of any size is streamed from the database, never loaded.
import { CAMPAIGNS, DELIVERY } from '../limits.ts';
import { escapeHtml } from '../html.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

/** One leased message as campaign_claim() returns it. */
export interface ClaimedMessage {
  campaign_id: string;
  subscriber_id: string;
  lease: string;
  /** Attempts before this one. */
  attempts: number;
  user_id: string;
  list_id: string;
  recipient: string;
  recipient_name: string | null;
  subject: string;
  body_markdown: string;
  list_name: string;
  from_name: string | null;
  reply_to: string | null;
}

type MessageKey = Pick<ClaimedMessage, 'campaign_id' | 'subscriber_id'>;

/** sent; failed for good; bounced (5xx for the address); retry later; released (never begun). */
type CampaignOutcome = 'sent' | 'failed' | 'bounced' | 'retry' | 'released';

export interface CampaignResult extends MessageKey {
  lease: string;
  outcome: CampaignOutcome;
  error: string | null;
  retry_in_seconds: number | null;
}

export interface CampaignLimits {
  perAccountPerSecond: number;
  perAccountPerDay: number;
  newAccountPerDay: number;
  batchSize: number;
  window: number;
  leaseSeconds: number;
  maxAttempts: number;
  runSeconds: number;
}

export interface CampaignStore {
  claim(limits: CampaignLimits): Promise<ClaimedMessage[]>;
  /** Marks these leased messages 'sending'; returns those it did (with their attempts). */
  begin(lease: string, messages: MessageKey[]): Promise<(MessageKey & { attempts: number })[]>;
  /** Records outcomes under their leases; returns how many counted. */
  finish(results: CampaignResult[]): Promise<number>;
}

/** A campaign mail's parts, with the links it carries. */
export interface CampaignLinks {
  /** The one-click URL (List-Unsubscribe, RFC 8058). */
  oneClick: string;
  /** The site's unsubscribe page, linked visibly in the body. */
  page: string;
  /** A mailto URI offered after the URL (NEWSLETTER_UNSUBSCRIBE_MAILTO); absent or null: none. */
  mailto?: string | null;
}

export interface CampaignRunDeps {
  store: CampaignStore;
  mailer: Mailer;
  /** MAIL_FROM. */
  from: string;
  /** Markdown to HTML: raw HTML escaped, links kept (campaign-markdown.ts). */
  renderMarkdown(markdown: string): string;
  links(message: ClaimedMessage): Promise<CampaignLinks>;
  limits?: CampaignLimits;
  /** The List-ID's domain (the site's host). */
  listIdDomain: string;
  log(message: string): void;
  /**
   * Results the database could not take in an earlier run (it was away longer than the retries
   * lasted); offered first, since a late finish under its own lease still counts. Kept by the
   * caller across runs.
   */
  unrecorded?: CampaignResult[];
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface CampaignReport {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  bounced: number;
}

/** The limits of this deployment: CAMPAIGNS, with the per-account ceilings from the environment. */
export function campaignLimitsFromEnv(env: (name: string) => string | undefined): CampaignLimits {
  const positive = (name: string, fallback: number) => {
    const value = Number(env(name));
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    ...CAMPAIGNS,
    perAccountPerSecond: positive(
      'CAMPAIGNS_PER_ACCOUNT_PER_SECOND',
      CAMPAIGNS.perAccountPerSecond,
    ),
    perAccountPerDay: positive('CAMPAIGNS_PER_ACCOUNT_PER_DAY', CAMPAIGNS.perAccountPerDay),
    // Shorter leases hand a killed sender's unbegun messages on sooner (the fault tests use it).
    leaseSeconds: positive('CAMPAIGNS_LEASE_SECONDS', CAMPAIGNS.leaseSeconds),
    // With a ceiling above it, a bigger batch (one claim a second per account sends at most one).
    batchSize: positive('CAMPAIGNS_BATCH_SIZE', CAMPAIGNS.batchSize),
  };
}

/** What a failed SMTP transaction means for the message. */
export type SendVerdict =
  /** Never reached the server, or a 4xx: safe to try again later. */
  | { kind: 'retry'; unreachable: boolean }
  /** 5xx for the recipient's address: the subscriber bounces. */
  | { kind: 'bounced' }
  /** 5xx for anything else: failed for good. */
  | { kind: 'failed' }
  /** Lost mid-transaction: the server may have taken it, so it is not sent again. */
  | { kind: 'uncertain' };

const UNREACHABLE = new Set([
  'ECONNECTION',
  'ECONNREFUSED',
  'EDNS',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Reads nodemailer's (and the Resend mailer's) errors: response code, stage, connection code. */
export function classifySendError(err: unknown): SendVerdict {
  const e = (err ?? {}) as {
    responseCode?: number;
    command?: string;
    code?: string;
    message?: string;
  };
  const resend = /^Resend answered (\d{3})/.exec(String(e.message ?? ''));
  const code = typeof e.responseCode === 'number' ? e.responseCode : resend ? Number(resend[1]) : 0;
  if (resend) {
    // Resend's idempotency key makes a repeat harmless; 429 and 5xx are its own trouble.
    if (code === 429 || code >= 500) return { kind: 'retry', unreachable: false };
    return { kind: 'failed' };
  }
  if (code >= 400 && code < 500) return { kind: 'retry', unreachable: false };
  if (code >= 500) return /RCPT/i.test(e.command ?? '') ? { kind: 'bounced' } : { kind: 'failed' };
  const command = (e.command ?? '').toUpperCase();
  // Before the server was given the message: connecting, greeting, MAIL FROM, RCPT TO.
  if (UNREACHABLE.has(e.code ?? '') || command === 'CONN' || command === 'GREETING')
    return { kind: 'retry', unreachable: true };
  if (/^(EHLO|HELO|STARTTLS|AUTH|MAIL FROM|RCPT TO)/.test(command))
    return { kind: 'retry', unreachable: false };
  return { kind: 'uncertain' };
}

/** The mail's id: its Message-ID becomes <delivery-campaign.subscriber@…>, one per recipient. */
const campaignMailId = (m: MessageKey) => `${m.campaign_id}.${m.subscriber_id}`;

/** The List-ID of a list: `<list-id>.<domain>` after its name. */
function listId(message: ClaimedMessage, domain: string): string {
  return `${message.list_id}.${domain}`;
}

/** A campaign's mail: the owner's Markdown as HTML and as text, with the unsubscribe links. */
export function composeCampaignMail(
  message: ClaimedMessage,
  bodyHtml: string,
  links: CampaignLinks,
  from: string,
  listIdDomain: string,
): OutgoingMail {
  // eslint-disable-next-line no-control-regex
  const name = message.list_name.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  const text =
    `${message.body_markdown.trim()}\n\n--\n` +
    `You receive this because you subscribed to "${name}".\n` +
    `Unsubscribe: ${links.page}\n`;
  const html =
    '<!doctype html><html><head><meta charset="utf-8"></head>' +
    '<body style="font-family:sans-serif;line-height:1.5;max-width:40em;margin:0 auto;padding:1em">' +
    bodyHtml +
    '<hr style="border:none;border-top:1px solid #ddd;margin:2em 0 1em">' +
    `<p style="font-size:13px;color:#555">You receive this because you subscribed to ` +
    `“${escapeHtml(name)}”. <a href="${escapeHtml(links.page)}">Unsubscribe</a></p>` +
    '</body></html>';
  return {
    id: campaignMailId(message),
    from,
    fromName: message.from_name,
    to: message.recipient,
    subject: message.subject,
    replyTo: message.reply_to,
    text,
    html,
    list: {
      unsubscribeUrl: links.oneClick,
      unsubscribeMailto: links.mailto ?? null,
      listId: listId(message, listIdDomain),
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`sending timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long to pause before recording results again after the database failed (≈ 60 s in all). */
const FINISH_RETRIES_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/**
 * Sends due campaign messages for up to `limits.runSeconds`, or until nothing is due. Never
 * rejects: a failed claim ends the run (the next one carries on), results the database could not
 * take are offered again (a late finish under its own lease still counts).
 */
export async function runCampaigns(
  deps: CampaignRunDeps,
  sendTimeoutMs = 15_000,
): Promise<CampaignReport> {
  const limits = deps.limits ?? CAMPAIGNS;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? defaultSleep;
  const report: CampaignReport = { claimed: 0, sent: 0, retrying: 0, failed: 0, bounced: 0 };
  const deadline = now() + limits.runSeconds * 1000;
  // Campaign bodies rendered once each (a few at a time: one batch rarely spans many).
  const rendered = new Map<string, string>();
  const render = (m: ClaimedMessage) => {
    let html = rendered.get(m.campaign_id);
    if (html === undefined) {
      html = deps.renderMarkdown(m.body_markdown);
      if (rendered.size >= 16) rendered.delete(rendered.keys().next().value!);
      rendered.set(m.campaign_id, html);
    }
    return html;
  };

  const record = async (results: CampaignResult[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await deps.store.finish(results);
        return true;
      } catch (err) {
        if (attempt >= FINISH_RETRIES_MS.length) {
          deps.log(`recording campaign messages failed: ${(err as Error).message}`);
          return false;
        }
        await sleep(FINISH_RETRIES_MS[attempt]);
      }
    }
  };

  /** The pause before a message's next attempt (as the outbox's backoff), or null: no more. */
  const retryIn = (attempts: number) =>
    attempts >= limits.maxAttempts
      ? null
      : Math.min(
          DELIVERY.baseDelaySeconds * 2 ** Math.max(0, attempts - 1),
          DELIVERY.maxDelaySeconds,
        );

  const sendOne = async (
    m: ClaimedMessage,
    attempts: number,
  ): Promise<CampaignResult & { unreachable?: boolean }> => {
    const base = { campaign_id: m.campaign_id, subscriber_id: m.subscriber_id, lease: m.lease };
    let mail: OutgoingMail;
    try {
      mail = composeCampaignMail(m, render(m), await deps.links(m), deps.from, deps.listIdDomain);
    } catch (err) {
      return {
        ...base,
        outcome: 'failed',
        error: String((err as Error).message).slice(0, 500),
        retry_in_seconds: null,
      };
    }
    try {
      await withTimeout(deps.mailer.send(mail), sendTimeoutMs);
      return { ...base, outcome: 'sent', error: null, retry_in_seconds: null };
    } catch (err) {
      const error = String((err as Error)?.message ?? err).slice(0, 500);
      const verdict = classifySendError(err);
      if (verdict.kind === 'retry') {
        const delay = retryIn(attempts);
        if (delay === null) return { ...base, outcome: 'failed', error, retry_in_seconds: null };
        return {
          ...base,
          outcome: 'retry',
          error,
          retry_in_seconds: delay,
          unreachable: verdict.unreachable,
        };
      }
      if (verdict.kind === 'bounced')
        return { ...base, outcome: 'bounced', error, retry_in_seconds: null };
      if (verdict.kind === 'uncertain')
        return {
          ...base,
          outcome: 'failed',
          error:
            `Interrupted while sending (it may have been delivered, so it is not sent again): ${error}`.slice(
              0,
              500,
            ),
          retry_in_seconds: null,
        };
      return { ...base, outcome: 'failed', error, retry_in_seconds: null };
    }
  };

  const unrecorded = deps.unrecorded ?? [];
  if (unrecorded.length) {
    if (!(await record(unrecorded.slice()))) return report;
    unrecorded.length = 0;
  }

  while (now() < deadline) {
    const started = now();
    let batch: ClaimedMessage[];
    try {
      batch = await deps.store.claim(limits);
    } catch (err) {
      deps.log(`claiming campaign messages failed: ${(err as Error).message}`);
      break;
    }
    if (!batch.length) break;
    report.claimed += batch.length;
    let unreachable = false;
    for (let i = 0; i < batch.length; i += limits.window) {
      const group = batch.slice(i, i + limits.window);
      // A window is begun only well within the lease, so it is never taken over mid-send.
      const leaseEnding = now() > started + (limits.leaseSeconds * 1000) / 2;
      if (unreachable || leaseEnding || now() >= deadline) {
        // Never begun: back to the queue at once, for the next run.
        await record(
          group.map((m) => ({
            campaign_id: m.campaign_id,
            subscriber_id: m.subscriber_id,
            lease: m.lease,
            outcome: 'released',
            error: null,
            retry_in_seconds: null,
          })),
        );
        continue;
      }
      let begun: (MessageKey & { attempts: number })[];
      try {
        begun = await deps.store.begin(group[0].lease, group);
      } catch (err) {
        // Nothing of this window was sent; its lease runs out and it is claimed again.
        deps.log(`beginning campaign messages failed: ${(err as Error).message}`);
        unreachable = true;
        continue;
      }
      const byKey = new Map(group.map((m) => [campaignMailId(m), m]));
      const toSend = begun.map((b) => ({ m: byKey.get(campaignMailId(b))!, attempts: b.attempts }));
      const results: (CampaignResult & { unreachable?: boolean })[] = new Array(toSend.length);
      let next = 0;
      const lane = async () => {
        while (next < toSend.length) {
          const k = next++;
          results[k] = await sendOne(toSend[k].m, toSend[k].attempts);
        }
      };
      const lanes = Math.max(1, Math.min(deps.mailer.parallel ?? 1, toSend.length));
      await Promise.all(Array.from({ length: lanes }, lane));
      for (const r of results) {
        if (r.outcome === 'sent') report.sent++;
        else if (r.outcome === 'retry') report.retrying++;
        else if (r.outcome === 'bounced') report.bounced++;
        else report.failed++;
      }
      // A server that cannot be reached: the rest of the batch goes back to the queue.
      if (results.some((r) => r.unreachable)) unreachable = true;
      const plain = results.map(({ unreachable: _, ...r }) => r);
      if (!(await record(plain))) {
        unrecorded.push(...plain);
        return report;
      }
    }
    if (unreachable) break;
    // A claim gives each account at most its per-second share: one claim a second at most.
    const elapsed = now() - started;
    if (elapsed < 1000) await sleep(1000 - elapsed);
  }
  return report;
}
