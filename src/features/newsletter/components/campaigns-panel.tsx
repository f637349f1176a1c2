// The Campaigns tab: every campaign with its list, status and counts, updating live while they
// send, and a new draft to one of the owner's lists.
import { useId, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  Box,
  Button,
  EmptyState,
  Field,
  Flex,
  Heading,
  Link,
  NativeSelect,
  Skeleton,
  Stack,
  Text,
  VStack,
} from '@chakra-ui/react';
import { PlusIcon, SendIcon } from 'lucide-react';
import { SettingLoadError } from '../../../components/setting-states';
import { notify } from '../../../components/toaster';
import { paths } from '../../../config/paths';
import { visibleText } from '../../../lib/visible-text';
import { useCreateCampaign } from '../api/create-campaign';
import { useCampaigns } from '../api/get-campaigns';
import { useLists } from '../api/get-lists';
import { describeCampaignError } from '../newsletter-errors';
import type { Campaign } from '../newsletter-types';
import { CampaignCounts, CampaignStatusBadge, SendingProgress } from './campaign-status';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function CampaignsPanel() {
  const listSelectId = useId();
  const navigate = useNavigate();
  const campaigns = useCampaigns();
  const lists = useLists();
  const create = useCreateCampaign();
  const [listId, setListId] = useState('');

  const listNames = new Map((lists.data ?? []).map((list) => [list.id, list.name]));
  const target = listId || lists.data?.[0]?.id || '';

  async function newCampaign() {
    if (!target) return;
    try {
      const campaign = await create.mutateAsync(target);
      navigate(paths.dashboardNewsletterCampaign(campaign.id));
    } catch (error) {
      notify(
        'error',
        'Could not start a campaign',
        describeCampaignError(error, 'create the campaign'),
      );
    }
  }

  if (campaigns.isPending || lists.isPending)
    return (
      <Box role="status" aria-label="Loading your campaigns">
        <Skeleton height="32" borderRadius="xl" />
      </Box>
    );
  if (campaigns.isError || lists.isError)
    return (
      <SettingLoadError
        title="Your campaigns could not be loaded."
        onRetry={() => void Promise.all([campaigns.refetch(), lists.refetch()])}
      />
    );

  return (
    <Stack gap="5">
      {lists.data.length === 0 ? (
        <Text color="fg.muted">Create a list first: a campaign goes to a list's subscribers.</Text>
      ) : (
        <Flex gap="3" align="flex-end" wrap="wrap">
          {lists.data.length > 1 && (
            <Field.Root flex="0 1 20rem">
              <Field.Label htmlFor={listSelectId}>To list</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field
                  id={listSelectId}
                  value={target}
                  onChange={(event) => setListId(event.target.value)}
                >
                  {lists.data.map((list) => (
                    <option key={list.id} value={list.id}>
                      {visibleText(list.name)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          )}
          <Button
            colorPalette="teal"
            size="sm"
            loading={create.isPending}
            onClick={() => void newCampaign()}
          >
            <PlusIcon aria-hidden /> New campaign
          </Button>
        </Flex>
      )}
      {campaigns.data.length === 0 ? (
        <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="xl">
          <EmptyState.Content>
            <EmptyState.Indicator aria-hidden="true">
              <SendIcon />
            </EmptyState.Indicator>
            <VStack textAlign="center">
              <EmptyState.Title>No campaigns yet</EmptyState.Title>
              <EmptyState.Description>
                Write an update in Markdown and send it to a list's confirmed subscribers, now or
                later.
              </EmptyState.Description>
            </VStack>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label="Campaigns">
          {campaigns.data.map((campaign) => (
            <CampaignItem
              key={campaign.id}
              campaign={campaign}
              listName={listNames.get(campaign.list_id)}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function whenText(campaign: Campaign): string {
  const at = (iso: string) => dateFormat.format(new Date(iso));
  if (campaign.status === 'scheduled' && campaign.scheduled_at)
    return `Scheduled for ${at(campaign.scheduled_at)}`;
  if (campaign.finished_at && (campaign.status === 'sent' || campaign.status === 'cancelled'))
    return `${campaign.status === 'sent' ? 'Finished' : 'Cancelled'} ${at(campaign.finished_at)}`;
  if (campaign.started_at) return `Started ${at(campaign.started_at)}`;
  return `Last edited ${at(campaign.updated_at)}`;
}

function CampaignItem({ campaign, listName }: { campaign: Campaign; listName?: string }) {
  const headingId = useId();
  const subject = campaign.subject.trim() ? visibleText(campaign.subject) : '(No subject)';
  const showProgress = campaign.status === 'sending' || campaign.status === 'paused';
  return (
    <Box as="li" borderWidth="1px" borderRadius="xl" p="4" aria-labelledby={headingId}>
      <Stack gap="3">
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Stack gap="1" minW="0">
            <Heading as="h3" size="md" id={headingId} overflowWrap="anywhere">
              <Link asChild color="teal.700">
                <RouterLink to={paths.dashboardNewsletterCampaign(campaign.id)}>
                  {subject}
                </RouterLink>
              </Link>
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {listName ? `To ${visibleText(listName)} · ` : ''}
              {whenText(campaign)}
            </Text>
          </Stack>
          <CampaignStatusBadge status={campaign.status} />
        </Flex>
        {campaign.status !== 'draft' && campaign.status !== 'scheduled' && (
          <CampaignCounts campaign={campaign} label={`Counts of ${subject}`} />
        )}
        {showProgress && <SendingProgress campaign={campaign} label={`Sending ${subject}`} />}
      </Stack>
    </Box>
  );
}
