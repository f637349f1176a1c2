// `POST /newsletter/campaigns/:campaignId/test`: a test of an owner's campaign, rendered as its
// subscribers will get it, mailed to the owner's own sign-in address. The caller is the signed-in
// owner (their access token, which supabase-js's functions.invoke sends); the address is the one
// Auth has for them, never one the request names, so the route cannot mail anybody else. The
// database counts the tests per account in the action ledger (campaign_send_test(): 10 an hour,
// 30 a day), where deleting campaigns gives nothing back.
//
// Answers (JSON): 202 {ok, recipient}; 401 unauthorized; 404 not_found (not the caller's campaign);
// 422 no_address; 429 rate_limited with Retry-After; 503 storage_failed with Retry-After.
import { CAMPAIGNS } from '../_shared/limits.ts';
import { composeCampaignMail } from '../_shared/outbox/campaigns.ts';
import { functionRoute, matchRoute } from '../_shared/route.ts';
import { isUuid } from '../_shared/uuid.ts';

const ROUTE = functionRoute('newsletter', '/campaigns/:campaign([^/]+)/test');

/** The campaign id a path names for a test, or null when it is not this route. */
export function campaignTestRouteOf(pathname: string): string | null {
  const groups = matchRoute(ROUTE, pathname);
  return groups ? (groups.campaign ?? '') : null;
}

/** A campaign as its test needs it, with its list's sender settings. */
export interface TestCampaign {
  id: string;
  subject: string;
  bodyMarkdown: string;
  listId: string;
  listName: string;
  fromName: string | null;
  replyTo: string | null;
}

export type TestQueued =
  | { status: 'ok'; recipient: string }
  | { status: 'not_found' }
  | { status: 'no_address' }
  | { status: 'rate_limited'; retryAfter: number };

export interface CampaignTestDeps {
  /** The signed-in user an access token names (Auth checks it), or null when it names none. */
  userOf(accessToken: string): Promise<{ id: string } | null>;
  /** The campaign, when it is this user's. */
  loadCampaign(userId: string, campaignId: string): Promise<TestCampaign | null>;
  /** campaign_send_test(): counts the test and queues it to the user's own address. */
  queueTest(input: {
    userId: string;
    campaignId: string;
    subject: string;
    text: string;
    html: string;
  }): Promise<TestQueued>;
  /** The campaign sender's Markdown renderer (campaign-markdown.ts). */
  renderMarkdown(markdown: string): string;
  /** The site, whose unsubscribe page the subscribers' copies link to. */
  siteUrl: string | null;
  /** Sends the queued e-mail after the answer; never throws. */
  deliverSoon(): void;
  log(message: string): void;
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
};

const RETRY_AFTER_OUTAGE = 30;

/** Longest access token read; a longer Authorization header is refused unread. */
const MAX_AUTHORIZATION_LENGTH = 4096;

function answer(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return Response.json(body, {
    status,
    headers: { ...CORS, 'Cache-Control': 'no-store', ...headers },
  });
}

const refuse = (status: number, code: string, error: string, headers?: Record<string, string>) =>
  answer(status, { ok: false, code, error }, headers);

/** What the test's reader is told above the campaign: the copy's links are not theirs to use. */
const TEST_NOTE =
  'This is a test of your campaign, sent only to you. In each subscriber’s copy the Unsubscribe ' +
  'link below is their own.';

/** The test mail: the subscribers' mail (composeCampaignMail) with a note and a marked subject. */
export function composeCampaignTest(
  campaign: TestCampaign,
  renderMarkdown: (markdown: string) => string,
  siteUrl: string | null,
): { subject: string; text: string; html: string } {
  const page = siteUrl ? new URL('/newsletter/unsubscribe', siteUrl).href : 'about:blank';
  const mail = composeCampaignMail(
    {
      campaign_id: campaign.id,
      subscriber_id: 'test',
      lease: '',
      attempts: 0,
      user_id: '',
      list_id: campaign.listId,
      recipient: '',
      recipient_name: null,
      subject: campaign.subject,
      body_markdown: campaign.bodyMarkdown,
      list_name: campaign.listName,
      from_name: campaign.fromName,
      reply_to: campaign.replyTo,
    },
    renderMarkdown(campaign.bodyMarkdown),
    { oneClick: page, page },
    '',
    '',
  );
  // At most 200 characters (the campaign's check) and the mark: within what the database takes.
  const subject = `[Test] ${campaign.subject.trim() || '(no subject)'}`;
  return {
    subject,
    text: `${TEST_NOTE}\n\n${mail.text}`,
    html: mail.html.replace(
      /<body([^>]*)>/,
      `<body$1><p style="font-size:13px;color:#555;border:1px dashed #bbb;padding:.5em">${TEST_NOTE}</p>`,
    ),
  };
}

export async function handleCampaignTest(
  req: Request,
  campaignId: string,
  deps: CampaignTestDeps,
): Promise<Response> {
  if (req.method === 'OPTIONS')
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
        'Access-Control-Max-Age': '86400',
      },
    });
  if (req.method !== 'POST')
    return refuse(405, 'method_not_allowed', 'Use POST.', { Allow: 'POST, OPTIONS' });
  // Nothing in the body is used.
  await req.body?.cancel().catch(() => undefined);

  const authorization = req.headers.get('authorization') ?? '';
  const token =
    authorization.length <= MAX_AUTHORIZATION_LENGTH
      ? /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization)?.[1]
      : undefined;
  const unauthorized = () =>
    refuse(401, 'unauthorized', 'Sign in to send yourself a test.', {
      'WWW-Authenticate': 'Bearer',
    });
  if (!token) return unauthorized();
  const notFound = () => refuse(404, 'not_found', 'This campaign no longer exists.');
  if (!isUuid(campaignId)) return notFound();

  try {
    const user = await deps.userOf(token);
    if (!user) return unauthorized();
    const campaign = await deps.loadCampaign(user.id, campaignId.toLowerCase());
    if (!campaign) return notFound();
    const mail = composeCampaignTest(campaign, deps.renderMarkdown, deps.siteUrl);
    const queued = await deps.queueTest({ userId: user.id, campaignId: campaign.id, ...mail });
    switch (queued.status) {
      case 'ok':
        deps.deliverSoon();
        return answer(202, { ok: true, recipient: queued.recipient });
      case 'not_found':
        return notFound();
      case 'no_address':
        return refuse(
          422,
          'no_address',
          'Your account has no e-mail address a test can be sent to.',
        );
      case 'rate_limited':
        return refuse(
          429,
          'rate_limited',
          `You can send yourself ${CAMPAIGNS.testsPerHour} tests an hour and ${CAMPAIGNS.testsPerDay} a day. Try again later.`,
          { 'Retry-After': String(Math.max(1, Math.ceil(queued.retryAfter))) },
        );
    }
  } catch (err) {
    deps.log(`sending a campaign test failed: ${(err as Error).message}`);
    return refuse(
      503,
      'storage_failed',
      'The test could not be sent. Please try again in a moment.',
      {
        'Retry-After': String(RETRY_AFTER_OUTAGE),
      },
    );
  }
}
