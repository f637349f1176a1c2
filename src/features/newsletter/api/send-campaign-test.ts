// POST newsletter/campaigns/:id/test with the owner's session: the `newsletter` function sends the
// campaign, as its subscribers will get it (subject prefixed "[Test] "), to the owner's own
// sign-in address only, within CAMPAIGNS.testsPerHour and testsPerDay per account. Every refusal becomes a
// CampaignTestError with a sentence for the owner.
import { useMutation } from '@tanstack/react-query';
import { CAMPAIGNS } from '../../../../supabase/functions/_shared/limits';
import { supabase } from '../../../lib/supabase';

interface CampaignTestSent {
  /** The owner's sign-in address the test went to. */
  recipient: string;
}

export type CampaignTestProblem =
  'unauthorized' | 'not_found' | 'no_address' | 'rate_limited' | 'unavailable' | 'network';

export class CampaignTestError extends Error {
  constructor(
    readonly problem: CampaignTestProblem,
    message: string,
    /** Seconds from Retry-After, when the function gave one. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'CampaignTestError';
  }
}

interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}

/** supabase-js puts the function's Response in `context` for a non-2xx answer; else it had none. */
function responseOf(error: unknown): ResponseLike | null {
  const context = (error as { context?: unknown } | null)?.context as ResponseLike | undefined;
  return context && typeof context.status === 'number' && typeof context.json === 'function'
    ? context
    : null;
}

/** A wait in words: '45 minutes', 'an hour', '24 hours'. */
function inWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'an hour' : `${hours} hours`;
}

async function refusalOf(error: unknown): Promise<CampaignTestError> {
  const response = responseOf(error);
  if (!response)
    return new CampaignTestError(
      'network',
      'Could not reach tinyback to send the test. Check your connection and try again.',
    );
  let body: { code?: unknown; error?: unknown } = {};
  try {
    const parsed = await response.json();
    if (parsed && typeof parsed === 'object') body = parsed as typeof body;
  } catch {
    // Not JSON (a gateway's page): the status says enough.
  }
  const code = typeof body.code === 'string' ? body.code : '';
  const retryHeader = Number(response.headers.get('Retry-After'));
  const retryAfter = Number.isFinite(retryHeader) && retryHeader > 0 ? retryHeader : null;
  if (response.status === 401 || code === 'unauthorized')
    return new CampaignTestError(
      'unauthorized',
      'Your session has ended. Sign in again to send a test.',
    );
  if (response.status === 404 || code === 'not_found')
    return new CampaignTestError(
      'not_found',
      'This campaign no longer exists. Go back to your campaigns.',
    );
  if (code === 'no_address')
    return new CampaignTestError(
      'no_address',
      'Your account has no address a test can go to. Check your e-mail address in Settings.',
    );
  if (response.status === 429 || code === 'rate_limited')
    return new CampaignTestError(
      'rate_limited',
      typeof body.error === 'string' && body.error.trim()
        ? body.error
        : `You have sent as many tests as allowed (${CAMPAIGNS.testsPerHour} an hour, ${CAMPAIGNS.testsPerDay} a day). Try again${
            retryAfter ? ` in ${inWords(retryAfter)}` : ' later'
          }.`,
      retryAfter,
    );
  return new CampaignTestError(
    'unavailable',
    'The test could not be sent just now. Please try again in a moment.',
    retryAfter,
  );
}

async function sendCampaignTest(campaignId: string): Promise<CampaignTestSent> {
  const { data, error } = await supabase.functions.invoke<{ recipient?: unknown }>(
    `newsletter/campaigns/${encodeURIComponent(campaignId)}/test`,
    { body: {} },
  );
  if (error) throw await refusalOf(error);
  if (typeof data?.recipient !== 'string')
    throw new CampaignTestError(
      'unavailable',
      'The test could not be sent just now. Please try again in a moment.',
    );
  return { recipient: data.recipient };
}

export function useSendCampaignTest() {
  return useMutation({ mutationFn: sendCampaignTest });
}
