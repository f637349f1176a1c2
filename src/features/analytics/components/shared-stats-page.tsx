// /share/analytics/<token>: a site's stats for anyone holding its public share link, read-only
// and without signing in. The same view as the owner's (range, filters, chart, top lists, visitors
// now) read through the token; no snippet, no site settings. An unknown or revoked token, or
// a revocation while the page is open, shows that the link no longer works. Never indexed.
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { LinkGone } from '../../../components/link-gone';
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
  if (!isShareToken(token)) return <ShareGone />;
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

  if (site.isError && isShareGone(site.error)) return <ShareGone />;
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

function ShareGone() {
  return (
    <LinkGone
      title="This link no longer works"
      pageTitle="Link no longer works"
      action={
        <Button asChild colorPalette="teal">
          <RouterLink to={paths.home}>Back to the home page</RouterLink>
        </Button>
      }
    >
      Its owner may have revoked it or replaced it with a new one. Ask them for the current link.
    </LinkGone>
  );
}
