// The `forms` endpoint as a plain function of (Request, dependencies) → Response: routing, method,
// form lookup, origin, body, validation, rate limit, storage and the answer. Storage, hashing and
// mail sending are injected so this module runs unchanged under Deno and in unit tests.
import { clientIp, rateLimitKey, type ClientIpPolicy } from '../_shared/client-ip.ts';
import { IDEMPOTENCY, LIMITS, SPECIAL_FIELDS } from '../_shared/limits.ts';
import type { CaptchaProvider, CaptchaVerdict } from '../_shared/captcha.ts';
import { captchaError } from './captcha.ts';
import { ERRORS, type EndpointError } from './errors.ts';
import { composeNotification, type Notification } from './notification.ts';
import { originAllowed, originOf, safeNext, safeRedirectUrl } from './origin.ts';
import { bodyKind, parseBody } from './request-body.ts';
import {
  corsHeaders,
  errorResponse,
  isBrowserNavigation,
  preflightResponse,
  successResponse,
  wantsJson,
} from './responses.ts';
import { isIdempotencyKey, validateSubmission } from './submission.ts';
import { readLimited } from '../_shared/read-limited.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';
import { isUuid } from '../_shared/uuid.ts';
import type { DeliveryReport } from '../_shared/outbox/report.ts';
import type { AcceptInput, AcceptResult, BeginCaptchaResult, FormRecord } from './model.ts';
import type { StoredFile } from './uploads/receive.ts';
import {
  readAnnouncement,
  type AnnouncedFile,
  type DirectRead,
  type SignedUploads,
} from './uploads/direct.ts';

/** A multipart post to a form with uploads on, read with its files stored (uploads/post-files.ts). */
export type PostWithFiles =
  | { ok: true; fields: [string, string][]; files: StoredFile[] }
  | { ok: false; error: EndpointError };

export interface FormsDeps {
  /**
   * Reads a form, possibly as remembered from a moment ago (`fresh`: from storage); null when it
   * does not exist; throws when storage is unreachable.
   */
  loadForm(id: string, opts?: { fresh?: boolean }): Promise<FormRecord | null>;
  /**
   * Rate-limits, stores the entry and queues its e-mail in one transaction (unless the form's
   * e-mail notifications are off, which the database decides under the form's lock).
   */
  accept(input: AcceptInput): Promise<AcceptResult>;
  hashIp(ip: string): string;
  /**
   * Before costly work (a CAPTCHA check; storing a post's files): counts the post against the
   * client's allowance (so a refused token or file costs the client too), or answers a repeated
   * idempotency key with the first post's entry.
   */
  beginCaptchaPost?(input: {
    formId: string;
    ipHash: string;
    idempotencyKey: string | null;
  }): Promise<BeginCaptchaResult>;
  /** Verifies the post's CAPTCHA token for a form with CAPTCHA (captcha.ts); never throws. */
  checkCaptcha?(input: {
    formId: string;
    provider: CaptchaProvider;
    fields: [string, string][];
    remoteIp: string;
    /** The form's allowed origin: the provider must have seen the challenge solved on its host. */
    allowedOrigin: string;
  }): Promise<CaptchaVerdict>;
  /** Tries to send one freshly queued delivery now; must never throw. */
  sendNow(deliveryId: string): Promise<void>;
  /** Tries the webhooks the entry's insert queued (a trigger) now; must never throw. */
  sendWebhooksNow?(entryId: string): Promise<void>;
  /**
   * Keeps the notification of an entry stored without e-mailing because the form's target is not
   * confirmed yet, for its owner to send once it is; must never throw.
   */
  holdNotification?(entryId: string, notification: Notification): Promise<void>;
  /** Lets work finish after the response (EdgeRuntime.waitUntil) or awaits it briefly. */
  background(work: Promise<void>): Promise<void>;
  /**
   * Reads a multipart post to a form with uploads on, storing its files as the entry `entryId`'s
   * as they arrive; a refusal has removed what it stored. Throws when storage is unreachable.
   * Absent: posts with files are refused as before uploads existed.
   */
  readPostWithFiles?(req: Request, form: FormRecord, entryId: string): Promise<PostWithFiles>;
  /** Removes the objects of files a post stored and did not keep; must never throw. */
  removeFiles?(files: readonly StoredFile[]): Promise<void>;
  /**
   * Direct uploads (uploads/direct.ts): the uploads route's signed URLs for a new pending entry,
   * the objects of a post naming one, judged, and their removal when the post keeps none.
   * Absent: the uploads route answers as for a form without uploads.
   */
  directUploads?: {
    begin(
      form: FormRecord,
      entryId: string,
      files: readonly AnnouncedFile[],
    ): Promise<{ ok: true; signed: SignedUploads } | { ok: false; error: EndpointError }>;
    read(form: FormRecord, entryId: string): Promise<DirectRead>;
    remove(form: FormRecord, entryId: string, files: readonly StoredFile[]): Promise<void>;
  };
  /** Processes due deliveries (the `_deliver` route). */
  deliverDue(): Promise<DeliveryReport>;
  /** True when the Authorization header carries the service-role key. */
  isServiceRole(authorization: string | null): boolean;
  /** Which proxy, besides Supabase's gateway, may name the client (see _shared/client-ip.ts). */
  clientIpPolicy: ClientIpPolicy;
  /**
   * The site's base URL (SITE_URL); plain posts without a usable `_next` go to the form's
   * `redirect_url`, else to `${siteUrl}/thanks`. Null when unset: they get a neutral thank-you
   * answer instead of a redirect to a guessed address.
   */
  siteUrl: string | null;
  newId(): string;
  now(): Date;
  log(message: string): void;
}

/** `/forms/{route}`: a form's id, or one of the function's own routes (`_deliver`, `_mail`, …). */
const FORMS_ROUTE = functionRoute('forms', '/:route([^/]*)');

/** `/forms/{formId}/uploads`: signed upload URLs for the JavaScript embed (uploads/direct.ts). */
const UPLOADS_ROUTE = functionRoute('forms', '/:form([^/]+)/uploads');

/** The part of the path after `/forms/` (the function's own name comes first on every platform). */
export function routeOf(pathname: string): string | null {
  return matchRoute(FORMS_ROUTE, pathname)?.route ?? null;
}

export async function handleRequest(req: Request, deps: FormsDeps): Promise<Response> {
  const url = new URL(req.url);
  const route = routeOf(url.pathname);
  // The form whose uploads route this is, if it is one.
  const uploadsOf = route === null ? (matchRoute(UPLOADS_ROUTE, url.pathname)?.form ?? null) : null;
  // The uploads route answers JSON only: only a script asks it.
  const json = uploadsOf !== null || wantsJson(req.headers);
  // A browser's refused form post goes to the site's refusal page (when SITE_URL is known).
  const refusalSite =
    !json && req.method === 'POST' && isBrowserNavigation(req.headers) ? deps.siteUrl : null;
  const refuse = (err: EndpointError, corsOrigin: string | null = null) =>
    errorResponse(err, { json, corsOrigin, refusalSite });

  const formId = route ?? uploadsOf;
  if (formId === null || formId === '') return refuse(ERRORS.notFound());
  if (route === '_deliver') return handleDeliver(req, deps);

  if (req.method !== 'POST' && req.method !== 'OPTIONS') return refuse(ERRORS.methodNotAllowed());
  if (!isUuid(formId)) return refuse(ERRORS.formNotFound());

  let form: FormRecord | null;
  // Whether `form` was read from storage for this request rather than remembered.
  let fresh = false;
  try {
    form = await deps.loadForm(formId.toLowerCase());
    // A remembered form may predate an edit that allows this origin: refuse only on a fresh read.
    if (form && !originAllowed(req.headers, form.allowed_origin)) {
      form = await deps.loadForm(formId.toLowerCase(), { fresh: true });
      fresh = true;
    }
  } catch (err) {
    deps.log(`form lookup failed: ${(err as Error).message}`);
    return refuse(ERRORS.storageFailed());
  }
  if (!form) return refuse(ERRORS.formNotFound());
  if (!originAllowed(req.headers, form.allowed_origin)) return refuse(ERRORS.originNotAllowed());
  // From here on the caller is the form's own site, so it may read our answers.
  const corsOrigin = originOf(form.allowed_origin);

  if (req.method === 'OPTIONS') return preflightResponse(corsOrigin!);
  if (uploadsOf !== null) return handleUploadsRoute(req, deps, form, fresh, corsOrigin);
  return handleSubmission(req, deps, form, json, corsOrigin, refusalSite, fresh);
}

/** Stores of one post when the form keeps changing under it (each try saw a newer edit). */
const MAX_STORE_TRIES = 3;

/**
 * Reads the form afresh (a remembered copy may predate an edit of its uploads settings) and checks
 * the origin again. `corsOrigin` is what to answer with next: the form's origin, the caller's when
 * the form cannot be read, none when the origin is no longer the form's.
 */
async function readFormAgain(
  req: Request,
  deps: FormsDeps,
  formId: string,
  corsOrigin: string | null,
): Promise<
  | { ok: true; form: FormRecord; corsOrigin: string | null }
  | { ok: false; error: EndpointError; corsOrigin: string | null }
> {
  let current: FormRecord | null;
  try {
    current = await deps.loadForm(formId, { fresh: true });
  } catch (err) {
    deps.log(`form lookup failed: ${(err as Error).message}`);
    return { ok: false, error: ERRORS.storageFailed(), corsOrigin };
  }
  if (!current) return { ok: false, error: ERRORS.formNotFound(), corsOrigin };
  if (!originAllowed(req.headers, current.allowed_origin))
    return { ok: false, error: ERRORS.originNotAllowed(), corsOrigin: null };
  return { ok: true, form: current, corsOrigin: originOf(current.allowed_origin) };
}

async function handleSubmission(
  req: Request,
  deps: FormsDeps,
  seenForm: FormRecord,
  json: boolean,
  seenCorsOrigin: string | null,
  refusalSite: string | null,
  seenFresh: boolean,
): Promise<Response> {
  let form = seenForm;
  let fresh = seenFresh;
  let corsOrigin = seenCorsOrigin;
  const refuse = (err: EndpointError) => errorResponse(err, { json, corsOrigin, refusalSite });
  const contentType = req.headers.get('content-type');
  const kind = bodyKind(contentType);
  if (!kind) return refuse(ERRORS.unsupportedType());
  let entryId = deps.newId();
  const declared = Number(req.headers.get('content-length') ?? NaN);
  const readFiles = deps.readPostWithFiles;
  // A post with files is larger than any without: a remembered form may predate its owner
  // turning uploads on, so it is read again before the post is refused or read.
  if (
    kind === 'multipart' &&
    readFiles &&
    !form.uploads?.enabled &&
    !fresh &&
    !(declared <= LIMITS.maxBodyBytes)
  ) {
    const again = await readFormAgain(req, deps, form.id, corsOrigin);
    corsOrigin = again.corsOrigin;
    if (!again.ok) return refuse(again.error);
    form = again.form;
    fresh = true;
  }

  // Never an address the client wrote; IPv6 clients counted by their /64 network.
  const ip = clientIp(req.headers, deps.clientIpPolicy);
  const ipHash = deps.hashIp(rateLimitKey(ip));
  // Counted against the client's allowance before costly work, so not again when stored.
  let clientCounted = false;

  let fields: [string, string][];
  // The post's files, already in Storage (null: a post read whole, without files).
  let files: StoredFile[] | null = null;
  if (kind === 'multipart' && readFiles && form.uploads?.enabled) {
    // Counted before its first byte is stored: a client over its allowance uploads nothing, and
    // a post refused for its files still spent the client's allowance. (A repeated key is found
    // when the post is stored; its files are then removed.)
    if (deps.beginCaptchaPost) {
      let begun: BeginCaptchaResult;
      try {
        begun = await deps.beginCaptchaPost({ formId: form.id, ipHash, idempotencyKey: null });
      } catch (err) {
        deps.log(`counting a post with files failed: ${(err as Error).message}`);
        return refuse(ERRORS.storageFailed());
      }
      if (begun.status === 'rate_limited') return refuse(ERRORS.rateLimited(begun.retryAfter));
      if (begun.status === 'form_not_found') return refuse(ERRORS.formNotFound());
      clientCounted = true;
    }
    let read: PostWithFiles;
    try {
      read = await readFiles(req, form, entryId);
    } catch (err) {
      deps.log(`reading a post with files failed: ${(err as Error).message}`);
      return refuse(ERRORS.storageFailed());
    }
    if (!read.ok) return refuse(read.error);
    fields = read.fields;
    files = read.files;
  } else {
    if (declared > LIMITS.maxBodyBytes) return refuse(ERRORS.bodyTooLarge());
    let body: Uint8Array | null;
    try {
      body = await readLimited(req, LIMITS.maxBodyBytes);
    } catch {
      return refuse(ERRORS.invalidBody('The request body could not be read.'));
    }
    if (!body) return refuse(ERRORS.bodyTooLarge());
    const parsed = parseBody(contentType, body);
    if (!parsed.ok) return refuse(parsed.error);
    fields = parsed.fields;
  }

  // A post naming a direct upload's entry: the JavaScript embed put its files in Storage through
  // the uploads route's signed URLs, and they are judged here as a streamed post's are.
  const named = fields.filter(([name]) => name === SPECIAL_FIELDS.uploadsEntry);
  // Whether `files` are a direct upload's (their entry is the one the post names).
  let directFiles = false;
  if (named.length > 0) {
    if (files?.length) {
      await deps.removeFiles?.(files);
      return refuse(
        ERRORS.invalidBody(
          'Send files either in the post or through the uploads route, not both in one post.',
        ),
      );
    }
    const direct = deps.directUploads;
    if (!direct) return refuse(ERRORS.fileUpload());
    // A remembered form may predate its owner turning uploads on.
    if (!form.uploads?.enabled && !fresh) {
      const again = await readFormAgain(req, deps, form.id, corsOrigin);
      corsOrigin = again.corsOrigin;
      if (!again.ok) return refuse(again.error);
      form = again.form;
      fresh = true;
    }
    const namedEntry = named[0]![1].trim().toLowerCase();
    if (named.length > 1 || !isUuid(namedEntry)) return refuse(ERRORS.uploadsEntryUnknown());
    let read: DirectRead;
    try {
      read = await direct.read(form, namedEntry);
    } catch (err) {
      deps.log(`reading a direct upload failed: ${(err as Error).message}`);
      return refuse(ERRORS.storageFailed());
    }
    if (read.status === 'refused') return refuse(read.error);
    if (read.status === 'stored') {
      // Its post was stored already (an answer lost on the way): answered as the first time.
      const checked = validateSubmission(fields);
      return successResponse({
        id: namedEntry,
        json,
        corsOrigin,
        redirectTo:
          safeNext(checked.ok ? checked.submission.next : null, form.allowed_origin) ??
          safeRedirectUrl(form.redirect_url) ??
          (deps.siteUrl ? `${deps.siteUrl.replace(/\/+$/, '')}/thanks` : null),
      });
    }
    // The entry the files were uploaded under, counted when its URLs were handed out.
    entryId = namedEntry;
    files = read.files;
    directFiles = true;
    clientCounted = true;
  }

  // Whatever ends the post without its entry keeping them, its files' objects go before the answer.
  let filesKept = false;
  try {
    return await acceptPost();
  } finally {
    if (files?.length && !filesKept) {
      if (directFiles) await deps.directUploads?.remove(form, entryId, files);
      else await deps.removeFiles?.(files);
    }
  }

  async function acceptPost(): Promise<Response> {
    const checked = validateSubmission(fields);
    if (!checked.ok) return refuse(checked.error);
    const submission = checked.submission;
    const headerKey = req.headers.get(IDEMPOTENCY.header);
    if (headerKey !== null && !isIdempotencyKey(headerKey.trim()))
      return refuse(
        ERRORS.invalidBody(
          `The ${IDEMPOTENCY.header} header must be 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters.`,
        ),
      );
    // The header wins over the embed code's hidden field.
    const idempotencyKey = headerKey?.trim() || submission.idempotencyKey;

    const receivedAt = deps.now();
    let result: AcceptResult;
    // The provider whose token this post passed (checked once, again only if the form changes it).
    let captchaPassed: CaptchaProvider | null = null;
    // The notification composed for the form the post was stored against.
    let composed: Notification | null = null;
    try {
      for (let tries = 1; ; tries++) {
        // Before storing, against the form as it is stored with (form_changed comes back here).
        const provider = form.captcha_provider ?? null;
        if (provider && captchaPassed !== provider) {
          if (!clientCounted && deps.beginCaptchaPost) {
            // Counted first: a client spends its own allowance, not the provider's patience.
            const begun = await deps.beginCaptchaPost({ formId: form.id, ipHash, idempotencyKey });
            if (begun.status === 'rate_limited')
              return refuse(ERRORS.rateLimited(begun.retryAfter));
            if (begun.status === 'form_not_found') return refuse(ERRORS.formNotFound());
            if (begun.status === 'repeated') {
              result = {
                status: 'accepted',
                entryId: begun.entryId,
                deliveryId: null,
                repeated: true,
              };
              break;
            }
            clientCounted = true;
          }
          const verdict: CaptchaVerdict = deps.checkCaptcha
            ? await deps.checkCaptcha({
                formId: form.id,
                provider,
                fields,
                remoteIp: ip,
                allowedOrigin: form.allowed_origin,
              })
            : { ok: false, kind: 'unavailable', detail: 'no CAPTCHA check configured' };
          if (!verdict.ok) {
            // A remembered form may predate its owner turning CAPTCHA off or changing provider
            // (posts without the old widget's token would be refused for a minute): refuse only
            // on a fresh read. The post stays counted, so it is not counted again if stored.
            if (!fresh) {
              fresh = true;
              const current = await deps.loadForm(form.id, { fresh: true });
              if (!current) return refuse(ERRORS.formNotFound());
              if ((current.captcha_provider ?? null) !== provider) {
                form = current;
                if (!originAllowed(req.headers, form.allowed_origin)) {
                  corsOrigin = null;
                  return refuse(ERRORS.originNotAllowed());
                }
                corsOrigin = originOf(form.allowed_origin);
                continue;
              }
            }
            return refuse(captchaError(verdict));
          }
          captchaPassed = provider;
        }
        const notification = submission.isSpam
          ? null
          : composeNotification({
              formName: form.name,
              targetEmail: form.target_email,
              entryId,
              receivedAt,
              fields: submission.ordered,
              subject: submission.subject,
              replyTo: submission.replyTo,
              siteUrl: deps.siteUrl,
              timeZone: form.time_zone ?? null,
              files: files ?? undefined,
            });
        composed = notification;
        result = await deps.accept({
          entryId,
          formId: form.id,
          form,
          ipHash,
          name: submission.name,
          email: submission.email,
          message: submission.message,
          data: submission.data,
          fieldOrder: submission.ordered.map(([name]) => name),
          source: submission.source,
          isSpam: submission.isSpam,
          notification,
          idempotencyKey,
          clientCounted,
          // Spam keeps no files.
          files: submission.isSpam ? null : files,
        });
        if (result.status !== 'form_changed') break;
        // Edited since it was read: the post is judged again against the form as it is now.
        form = result.form;
        fresh = true;
        if (!originAllowed(req.headers, form.allowed_origin)) {
          corsOrigin = null;
          return refuse(ERRORS.originNotAllowed());
        }
        corsOrigin = originOf(form.allowed_origin);
        if (tries >= MAX_STORE_TRIES)
          throw new Error('the form kept changing while storing a post');
      }
    } catch (err) {
      deps.log(`storing a submission failed: ${(err as Error).message}`);
      return refuse(ERRORS.storageFailed());
    }
    if (result.status === 'rate_limited') return refuse(ERRORS.rateLimited(result.retryAfter));
    if (result.status === 'quota_exceeded') return refuse(ERRORS.quotaExceeded(result.retryAfter));
    if (result.status === 'form_not_found') return refuse(ERRORS.formNotFound());
    if (result.status === 'storage_full') return refuse(ERRORS.storageFull());
    if (result.status === 'uploads_off') return refuse(ERRORS.fileUpload());
    filesKept = !submission.isSpam && !result.repeated;
    // Stored but not e-mailed while the target waits for its confirmation: kept for the owner.
    if (result.notificationSkipped === 'unverified' && composed && deps.holdNotification)
      await deps.background(deps.holdNotification(result.entryId, composed));

    // Started first so that it runs alongside the e-mail rather than after it; skipped when storage
    // says the entry queued none (one call and transaction less per post on forms without webhooks)
    // and for a repeat, which queued nothing.
    const webhooksNow =
      result.webhooksQueued === false || result.repeated
        ? undefined
        : deps.sendWebhooksNow?.(result.entryId);
    // The notification and the autoresponse go out in the same batch; either one starts it.
    const mailId = result.deliveryId ?? result.autoresponseId ?? null;
    if (mailId) await deps.background(deps.sendNow(mailId));
    if (webhooksNow) await deps.background(webhooksNow);

    return successResponse({
      id: result.entryId,
      json,
      corsOrigin,
      // A valid `_next` wins, then the form's own thank-you page, then the site's (if known).
      redirectTo:
        safeNext(submission.next, form.allowed_origin) ??
        safeRedirectUrl(form.redirect_url) ??
        (deps.siteUrl ? `${deps.siteUrl.replace(/\/+$/, '')}/thanks` : null),
    });
  }
}

/**
 * `POST /forms/{formId}/uploads` with `{ files: [{ name, size, field? }] }`: checked against the
 * form's limits and counted against the client's allowance like a post, then answered with the
 * entry the files go under and one signed upload URL per file (uploads/direct.ts).
 */
async function handleUploadsRoute(
  req: Request,
  deps: FormsDeps,
  seenForm: FormRecord,
  seenFresh: boolean,
  seenCorsOrigin: string | null,
): Promise<Response> {
  let form = seenForm;
  let corsOrigin = seenCorsOrigin;
  const refuse = (err: EndpointError) => errorResponse(err, { json: true, corsOrigin });
  const direct = deps.directUploads;
  // Read afresh: a remembered form may predate its owner turning uploads on or off, and URLs
  // handed out for a form that takes no files would be uploads refused only at the post.
  if (direct && !seenFresh) {
    const again = await readFormAgain(req, deps, form.id, corsOrigin);
    corsOrigin = again.corsOrigin;
    if (!again.ok) return refuse(again.error);
    form = again.form;
  }
  const settings = form.uploads;
  if (!direct || !settings?.enabled) {
    await req.body?.cancel().catch(() => undefined);
    return refuse(ERRORS.fileUpload());
  }
  if (bodyKind(req.headers.get('content-type')) !== 'json') {
    await req.body?.cancel().catch(() => undefined);
    return refuse(ERRORS.unsupportedType());
  }
  let body: unknown;
  try {
    const bytes = await readLimited(req, LIMITS.maxBodyBytes);
    if (!bytes) return refuse(ERRORS.bodyTooLarge());
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return refuse(ERRORS.invalidBody('The request body is not JSON.'));
  }

  // Counted like a post before anything is recorded or signed; the post that follows is not
  // counted again. Announcements refused for their files still spend the allowance.
  const ipHash = deps.hashIp(rateLimitKey(clientIp(req.headers, deps.clientIpPolicy)));
  if (deps.beginCaptchaPost) {
    let begun: BeginCaptchaResult;
    try {
      begun = await deps.beginCaptchaPost({ formId: form.id, ipHash, idempotencyKey: null });
    } catch (err) {
      deps.log(`counting a direct upload failed: ${(err as Error).message}`);
      return refuse(ERRORS.storageFailed());
    }
    if (begun.status === 'rate_limited') return refuse(ERRORS.rateLimited(begun.retryAfter));
    if (begun.status === 'form_not_found') return refuse(ERRORS.formNotFound());
  }
  const announced = readAnnouncement(body, settings);
  if (!announced.ok) return refuse(announced.error);

  let began: Awaited<ReturnType<NonNullable<FormsDeps['directUploads']>['begin']>>;
  try {
    began = await direct.begin(form, deps.newId(), announced.files);
  } catch (err) {
    deps.log(`handing out upload URLs failed: ${(err as Error).message}`);
    return refuse(ERRORS.storageFailed());
  }
  if (!began.ok) return refuse(began.error);
  return Response.json(
    { ok: true, ...began.signed },
    { status: 200, headers: { ...corsHeaders(corsOrigin), 'Cache-Control': 'no-store' } },
  );
}

async function handleDeliver(req: Request, deps: FormsDeps): Promise<Response> {
  const refuse = (err: EndpointError) => errorResponse(err, { json: true, corsOrigin: null });
  if (req.method !== 'POST') return refuse(ERRORS.methodNotAllowed());
  if (!deps.isServiceRole(req.headers.get('authorization'))) return refuse(ERRORS.unauthorized());
  await req.body?.cancel().catch(() => undefined);
  try {
    const report = await deps.deliverDue();
    return Response.json({ ok: true, ...report }, { headers: corsHeaders(null) });
  } catch (err) {
    deps.log(`delivery run failed: ${(err as Error).message}`);
    return refuse(ERRORS.storageFailed());
  }
}
