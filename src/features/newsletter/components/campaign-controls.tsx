// What can be done with a campaign once it has left the draft: unschedule a scheduled one (back
// to a draft), pause and resume its sending, or cancel it (its unsent messages are never sent).
// Each is asked first, and told in a toast; a refusal stays in the dialog.
import { useState } from 'react';
import { Button, Flex } from '@chakra-ui/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toaster';
import { useControlCampaign } from '../api/control-campaign';
import { describeCampaignError } from '../newsletter-errors';
import type { Campaign, CampaignAction, CampaignStatus } from '../newsletter-types';

interface ActionText {
  button: string;
  title: string;
  description: string;
  confirm: string;
  done: string;
  doneDetail: string;
  verb: string;
}

const ACTIONS: Record<CampaignAction, ActionText> = {
  unschedule: {
    button: 'Unschedule',
    title: 'Unschedule this campaign?',
    description: 'It goes back to being a draft: nothing is sent, and you can edit it again.',
    confirm: 'Unschedule',
    done: 'Campaign unscheduled',
    doneDetail: 'It is a draft again.',
    verb: 'unschedule the campaign',
  },
  pause: {
    button: 'Pause',
    title: 'Pause sending?',
    description:
      'No more messages go out until you resume. Messages already on their way may still arrive.',
    confirm: 'Pause sending',
    done: 'Sending paused',
    doneDetail: 'Resume whenever you are ready.',
    verb: 'pause the campaign',
  },
  resume: {
    button: 'Resume',
    title: 'Resume sending?',
    description: 'The recipients who have not had it yet get it now.',
    confirm: 'Resume sending',
    done: 'Sending resumed',
    doneDetail: 'The rest of the recipients get it now.',
    verb: 'resume the campaign',
  },
  cancel: {
    button: 'Cancel campaign',
    title: 'Cancel this campaign?',
    description:
      'Recipients who have not had it yet never get it. What was sent stays sent. This cannot be undone.',
    confirm: 'Cancel campaign',
    done: 'Campaign cancelled',
    doneDetail: 'No more messages of it are sent.',
    verb: 'cancel the campaign',
  },
};

const ALLOWED: Partial<Record<CampaignStatus, CampaignAction[]>> = {
  scheduled: ['unschedule', 'cancel'],
  sending: ['pause', 'cancel'],
  paused: ['resume', 'cancel'],
};

export function CampaignControls({ campaign }: { campaign: Campaign }) {
  const control = useControlCampaign();
  const [asking, setAsking] = useState<CampaignAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const actions = ALLOWED[campaign.status] ?? [];
  if (actions.length === 0 && asking === null) return null;
  const text = asking ? ACTIONS[asking] : null;

  async function confirm() {
    if (!asking) return;
    const action = ACTIONS[asking];
    setError(null);
    try {
      await control.mutateAsync({ campaignId: campaign.id, action: asking });
      notify('success', action.done, action.doneDetail);
      setAsking(null);
    } catch (caught) {
      setError(describeCampaignError(caught, action.verb));
    }
  }

  return (
    <Flex gap="2" wrap="wrap">
      {actions.map((action) => (
        <Button
          key={action}
          size="sm"
          variant="outline"
          colorPalette={action === 'cancel' ? 'red' : undefined}
          onClick={() => {
            setError(null);
            setAsking(action);
          }}
        >
          {ACTIONS[action].button}
        </Button>
      ))}
      <ConfirmDialog
        open={asking !== null}
        title={text?.title ?? ''}
        description={text?.description ?? ''}
        confirmLabel={text?.confirm ?? ''}
        pending={control.isPending}
        error={error}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(null)}
      />
    </Flex>
  );
}
