// /share/analytics/<token>: a site's stats for anyone holding its public share link, read-only
// and without signing in. The same view as the owner's (range, filters, chart, top lists, visitors
// now) read through the token; no snippet, no site settings. An unknown or revoked token, or
// a revocation while the page is open, shows that the link no longer works. Never indexed.
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { Button, Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { UnlinkIcon } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta';
import { SettingLoadError, SettingLoading } from '../../../components/setting-states';
import { paths } from '../../../config/paths';
import { visibleText } from '../../../lib/visible-text';
import { useSharedSite } from '../api/get-shared-site';
import { rangeFromParams, withCustomRange, withPreset, type RangePreset } from '../date-range';
import { isShareGone, isShareToken, SHARED_MAX_RANGE_DAYS } from '../share-link';
import { filtersFromParams, withFilter, type FilterKey } from '../stats-filters';
import { SiteStats } from './site-stats';

export function SharedStatsPage() {
  const { token } = useParams();
  if (!isShareToken(token)) return <LinkGone />;
  return <SharedStats token={token} />;
}

function SharedStats({ token }: { token: string }) {
  const site = useSharedSite(token);
  const [params, setParams] = useSearchParams();
  const range = rangeFromParams(params, new Date(), SHARED_MAX_RANGE_DAYS);
  const filters = filtersFromParams(params);

  function setPreset(preset: Exclude<RangePreset, 'custom'>) {
    setParams(withPreset(params, preset));
  }
  function setCustom(from: string, to: string) {
    setParams(withCustomRange(params, from, to));
  }
  function setFilter(key: FilterKey, value: string | null) {
    setParams(withFilter(params, key, value));
  }

  if (site.isError && isShareGone(site.error)) return <LinkGone />;
  const name = site.data ? visibleText(site.data.name) : undefined;
  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <PageMeta title={name ? `Stats of ${name}` : 'Shared stats'} noindex />
      <Stack gap="6">
        {site.isPending ? (
          <SettingLoading>Loading the stats…</SettingLoading>
        ) : site.isError ? (
          <SettingLoadError
            title="The stats could not be loaded."
            onRetry={() => void site.refetch()}
          />
        ) : (
          <>
            <Stack gap="1">
              <Heading as="h1" size="xl" overflowWrap="anywhere">
                {name}
              </Heading>
              <Text color="fg.muted" overflowWrap="anywhere">
                {site.data.domains.join(', ')} · shared stats, counted without cookies
              </Text>
            </Stack>
            <SiteStats
              shareToken={token}
              range={range}
              filters={filters}
              onPreset={setPreset}
              onCustom={setCustom}
              onFilter={setFilter}
            />
          </>
        )}
      </Stack>
    </Container>
  );
}

function LinkGone() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      <PageMeta title="Link no longer works" noindex />
      <Stack align="center" textAlign="center" gap="5">
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg="gray.50"
          color="gray.700"
          align="center"
          justify="center"
        >
          <Icon as={UnlinkIcon} boxSize="8" aria-hidden />
        </Flex>
        <Heading
          as="h1"
          size={{ base: '2xl', md: '3xl' }}
          ref={heading}
          tabIndex={-1}
          outline="none"
        >
          This link no longer works
        </Heading>
        <Text color="fg.muted">
          Its owner may have revoked it or replaced it with a new one. Ask them for the current
          link.
        </Text>
        <Button asChild colorPalette="teal">
          <RouterLink to={paths.home}>Back to the home page</RouterLink>
        </Button>
      </Stack>
    </Container>
  );
}
