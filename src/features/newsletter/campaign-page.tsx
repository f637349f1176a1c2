// /dashboard/newsletter/campaigns/:id: a campaign. A draft opens in the composer; a scheduled,
// sending, paused, cancelled or sent one shows its status, counts (live while it sends), the
// controls its status allows and what it says; until it has finished, a test of it can still go
// to the owner's own address.
import { useId } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Box, Container, Flex, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { ArrowLeftIcon } from 'lucide-react';
import { Markdown } from '../../components/markdown';
import { SettingLoadError, SettingLoading } from '../../components/setting-states';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { visibleText } from '../../lib/visible-text';
import { useCampaign } from './api/get-campaign';
import { useLists } from './api/get-lists';
import { CampaignComposer } from './components/campaign-composer';
import { CampaignControls } from './components/campaign-controls';
import { CampaignCounts, CampaignStatusBadge, SendingProgress } from './components/campaign-status';
import { SendTestButton, SendTestError, useCampaignTest } from './components/send-test';
import type { Campaign, NewsletterList } from './newsletter-types';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' });

export function CampaignPage() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Link asChild color="fg.muted" fontSize="sm" mb="4">
        <RouterLink to={`${paths.dashboardNewsletter}?tab=campaigns`}>
          <ArrowLeftIcon aria-hidden size="14" /> Your campaigns
        </RouterLink>
      </Link>
      <CampaignView key={id} id={id} />
    </Container>
  );
}

function CampaignView({ id }: { id: string }) {
  const campaign = useCampaign(id);
  const lists = useLists();
  const title = campaign.data?.subject.trim() ? campaign.data.subject : 'Campaign';
  useDocumentTitle(campaign.data?.status === 'draft' ? `Draft: ${title}` : title);

  if (campaign.isPending || lists.isPending)
    return <SettingLoading>Loading the campaign…</SettingLoading>;
  if (campaign.isError || lists.isError)
    return (
      <SettingLoadError
        title="The campaign could not be loaded."
        onRetry={() => void Promise.all([campaign.refetch(), lists.refetch()])}
      />
    );
  if (!campaign.data)
    return (
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          Campaign not found
        </Heading>
        <Text color="fg.muted">It may have been deleted, or the link is not complete.</Text>
      </Stack>
    );

  const data = campaign.data;
  const list = lists.data.find((row) => row.id === data.list_id);
  return (
    <Stack gap="5">
      <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
        <Stack gap="1" minW="0">
          <Heading as="h1" size="2xl" letterSpacing="-0.02em" overflowWrap="anywhere">
            {data.status === 'draft'
              ? data.subject.trim()
                ? `Draft: ${visibleText(data.subject)}`
                : 'New campaign'
              : visibleText(data.subject)}
          </Heading>
          <Text color="fg.muted">
            {list ? `To ${visibleText(list.name)}` : 'To a list that no longer exists'}
          </Text>
        </Stack>
        <CampaignStatusBadge status={data.status} />
      </Flex>
      {data.status === 'draft' ? (
        <CampaignComposer campaign={data} lists={lists.data} />
      ) : (
        <CampaignOverview campaign={data} list={list} />
      )}
    </Stack>
  );
}

function statusLine(campaign: Campaign): string {
  const at = (iso: string) => dateFormat.format(new Date(iso));
  switch (campaign.status) {
    case 'scheduled':
      return campaign.scheduled_at ? `Scheduled for ${at(campaign.scheduled_at)}.` : 'Scheduled.';
    case 'sending':
      return 'Sending now. The counts follow as messages go out.';
    case 'paused':
      return 'Paused: no more messages go out until you resume.';
    case 'cancelled':
      return campaign.finished_at ? `Cancelled ${at(campaign.finished_at)}.` : 'Cancelled.';
    case 'sent':
      return campaign.finished_at ? `Sent; finished ${at(campaign.finished_at)}.` : 'Sent.';
    default:
      return '';
  }
}

function CampaignOverview({ campaign, list }: { campaign: Campaign; list?: NewsletterList }) {
  // The campaign's own sender name, else its list's.
  const sender = campaign.from_name ?? list?.from_name;
  const messageId = useId();
  const showCounts = campaign.status !== 'scheduled';
  const showProgress = campaign.status === 'sending' || campaign.status === 'paused';
  const testable =
    campaign.status === 'scheduled' ||
    campaign.status === 'sending' ||
    campaign.status === 'paused';
  const test = useCampaignTest(campaign.id);
  return (
    <Stack gap="5">
      <Box borderWidth="1px" borderRadius="xl" p={{ base: '4', md: '5' }}>
        <Stack gap="4">
          <Text role="status">{statusLine(campaign)}</Text>
          {showCounts && <CampaignCounts campaign={campaign} label="Campaign counts" />}
          {showProgress && <SendingProgress campaign={campaign} label="Sending progress" />}
          <Flex gap="2" wrap="wrap" align="center">
            <CampaignControls campaign={campaign} />
            {testable && <SendTestButton test={test} size="sm" />}
          </Flex>
          <SendTestError test={test} />
        </Stack>
      </Box>
      <Box
        as="section"
        aria-labelledby={messageId}
        borderWidth="1px"
        borderRadius="xl"
        p={{ base: '4', md: '5' }}
        minW="0"
      >
        <Heading as="h2" size="md" id={messageId} mb="1">
          Message
        </Heading>
        <Text fontSize="sm" color="fg.muted" mb="3">
          {sender ? `From ${visibleText(sender)} · ` : ''}Subject: {visibleText(campaign.subject)}
        </Text>
        <Markdown content={campaign.body_markdown} />
      </Box>
    </Stack>
  );
}
