// A campaign's status as a badge, its counts, and while it sends a progress bar (sent and failed
// of its recipients).
import { Badge, Box, DataList, Text } from '@chakra-ui/react';
import type { Campaign, CampaignStatus } from '../newsletter-types';

const CAMPAIGN_STATUS_TEXT: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  sent: 'Sent',
};

const PALETTE: Record<CampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  sending: 'teal',
  paused: 'yellow',
  cancelled: 'red',
  sent: 'green',
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge colorPalette={PALETTE[status]} variant="subtle">
      {CAMPAIGN_STATUS_TEXT[status]}
    </Badge>
  );
}

const COUNTS = [
  ['recipients', 'Recipients'],
  ['sent', 'Sent'],
  ['failed', 'Failed'],
  ['bounced', 'Bounced'],
  ['unsubscribed', 'Unsubscribed'],
] as const;

export function CampaignCounts({ campaign, label }: { campaign: Campaign; label: string }) {
  return (
    <DataList.Root
      orientation="vertical"
      size="sm"
      role="group"
      aria-label={label}
      flexDirection="row"
      flexWrap="wrap"
      gap={{ base: '3', md: '5' }}
    >
      {COUNTS.map(([key, text]) => (
        <DataList.Item key={key}>
          <DataList.ItemLabel>{text}</DataList.ItemLabel>
          <DataList.ItemValue fontWeight="semibold">{campaign[key]}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

/** Sent and failed of the recipients, as a whole percentage (0 with no recipients). */
function sendingProgress(campaign: Pick<Campaign, 'sent' | 'failed' | 'recipients'>) {
  if (campaign.recipients <= 0) return 0;
  return Math.min(100, Math.round(((campaign.sent + campaign.failed) / campaign.recipients) * 100));
}

export function SendingProgress({ campaign, label }: { campaign: Campaign; label: string }) {
  const done = campaign.sent + campaign.failed;
  const percent = sendingProgress(campaign);
  return (
    <Box>
      <Box
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={campaign.recipients}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${campaign.recipients} processed`}
        h="2"
        borderRadius="full"
        bg="bg.emphasized"
        overflow="hidden"
      >
        <Box
          h="full"
          w={`${percent}%`}
          bg={campaign.status === 'paused' ? 'yellow.500' : 'teal.500'}
          transition="width 0.4s"
        />
      </Box>
      <Text fontSize="xs" color="fg.muted" mt="1">
        {done} of {campaign.recipients} processed ({percent}%)
      </Text>
    </Box>
  );
}
