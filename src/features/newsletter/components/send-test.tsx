// "Send a test to yourself": the campaign, as its subscribers will get it, to the owner's own
// sign-in address. Told in a toast either way; a refusal (the hourly or daily limit, a lost
// session) also stays in words under the buttons until the next try. `beforeSend` lets the
// composer save unsaved edits first, so the test is what the owner sees.
import { useState } from 'react';
import { Button, Text } from '@chakra-ui/react';
import { MailIcon } from 'lucide-react';
import { notify } from '../../../components/toaster';
import { CampaignTestError, useSendCampaignTest } from '../api/send-campaign-test';

export interface CampaignTest {
  send: () => Promise<void>;
  pending: boolean;
  error: string | null;
}

export function useCampaignTest(
  campaignId: string,
  beforeSend?: () => Promise<boolean>,
): CampaignTest {
  const mutation = useSendCampaignTest();
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    setError(null);
    if (beforeSend) {
      setPreparing(true);
      try {
        if (!(await beforeSend())) return;
      } finally {
        setPreparing(false);
      }
    }
    try {
      const { recipient } = await mutation.mutateAsync(campaignId);
      notify(
        'success',
        `Test sent to ${recipient}`,
        'It is the campaign as your subscribers will get it, its subject starting with [Test].',
      );
    } catch (caught) {
      const message =
        caught instanceof CampaignTestError
          ? caught.message
          : 'The test could not be sent just now. Please try again in a moment.';
      setError(message);
      notify('error', 'Test not sent', message);
    }
  }

  return { send, pending: preparing || mutation.isPending, error };
}

export function SendTestButton({
  test,
  disabled = false,
  size,
}: {
  test: CampaignTest;
  disabled?: boolean;
  size?: 'sm' | 'md';
}) {
  return (
    <Button
      variant="outline"
      size={size}
      loading={test.pending}
      loadingText="Sending test…"
      disabled={disabled}
      onClick={() => void test.send()}
    >
      <MailIcon aria-hidden /> Send a test to yourself
    </Button>
  );
}

/** The last refusal, in words, where the owner looks after pressing the button. */
export function SendTestError({ test }: { test: CampaignTest }) {
  if (!test.error) return null;
  return (
    <Text role="alert" fontSize="sm" color="fg.error">
      {test.error}
    </Text>
  );
}
