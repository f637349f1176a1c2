// The stats of the selected site: the range, the active filters (removable chips), "visitors
// now", the headline numbers, the chart and the top lists. Range and filters are the URL's, so a
// view can be shared and reloaded. Skeletons while the first numbers load; the last numbers stay
// (dimmed) while a new range or filter loads; an error offers a retry. A site whose range and the
// period before it hold nothing shows its owner its snippet: most likely it is not installed yet.
// The same view serves a public share link, read through its token (no snippet there).
import { Box, Button, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { SettingLoadError } from '../../../components/setting-states';
import { visibleText } from '../../../lib/visible-text';
import { useStats, type SiteStats } from '../api/get-stats';
import type { AnalyticsSite } from '../api/get-sites';
import type { RangePreset, SelectedRange } from '../date-range';
import { isShareBusy, isShareGone, SHARED_MAX_RANGE_DAYS } from '../share-link';
import { FILTER_KEYS, FILTER_LABELS, type FilterKey, type StatsFilters } from '../stats-filters';
import { HeadlineNumbers } from './headline-numbers';
import { RangePicker } from './range-picker';
import { SnippetBox } from './snippet-box';
import { TimeSeriesChart } from './time-series-chart';
import { displayValue, TopList } from './top-list';
import { VisitorsNow } from './visitors-now';

const LIST_TITLES: Record<FilterKey, string> = {
  page: 'Top pages',
  entry_page: 'Entry pages',
  referrer: 'Referrers',
  utm_source: 'UTM sources',
  utm_medium: 'UTM media',
  utm_campaign: 'UTM campaigns',
  country: 'Countries',
  device: 'Devices',
  browser: 'Browsers',
  os: 'Operating systems',
  event: 'Custom events',
};

/** The owner's own site, or the site a public share link opens. */
type StatsOf =
  { site: AnalyticsSite; shareToken?: undefined } | { site?: undefined; shareToken: string };

export type SiteStatsProps = StatsOf & {
  range: SelectedRange;
  filters: StatsFilters;
  onPreset: (preset: Exclude<RangePreset, 'custom'>) => void;
  onCustom: (from: string, to: string) => void;
  onFilter: (key: FilterKey, value: string | null) => void;
};

/** Nothing counted in the range nor in the period before it, with no filter to blame. */
function hasNoData(stats: SiteStats, filtered: boolean): boolean {
  const { totals, previous } = stats;
  return !filtered && totals.pageviews + totals.events + previous.pageviews + previous.events === 0;
}

export function SiteStats({
  site,
  shareToken,
  range,
  filters,
  onPreset,
  onCustom,
  onFilter,
}: SiteStatsProps) {
  const source = site ? { siteId: site.id } : { token: shareToken };
  const stats = useStats(source, range, filters);
  const active = FILTER_KEYS.filter((key) => filters[key] !== undefined);
  const data = stats.data;

  return (
    <Stack gap="5">
      <HStack justify="space-between" align="end" flexWrap="wrap" gap="3">
        <RangePicker
          // A new range from the URL (back, a shared link) resets the custom inputs.
          key={`${range.preset}:${range.from}:${range.to}`}
          range={range}
          onPreset={onPreset}
          onCustom={onCustom}
          maxDays={site ? undefined : SHARED_MAX_RANGE_DAYS}
        />
        <VisitorsNow source={source} />
      </HStack>

      {active.length > 0 && (
        <HStack as="ul" aria-label="Filters" gap="2" flexWrap="wrap" listStyleType="none">
          {active.map((key) => (
            <li key={key}>
              <Button
                size="xs"
                variant="subtle"
                colorPalette="teal"
                aria-label={`Remove filter ${FILTER_LABELS[key]}: ${displayValue(key, filters[key]!)}`}
                onClick={() => onFilter(key, null)}
              >
                {FILTER_LABELS[key]}: {visibleText(displayValue(key, filters[key]!))}
                <span aria-hidden="true"> ×</span>
              </Button>
            </li>
          ))}
        </HStack>
      )}

      {stats.isPending ? (
        <Stack gap="4" role="status" aria-label="Loading the stats">
          <SimpleGrid columns={{ base: 2, md: 5 }} gap="3">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height="5.5rem" borderRadius="md" />
            ))}
          </SimpleGrid>
          <Skeleton height="280px" borderRadius="md" />
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            <Skeleton height="12rem" borderRadius="md" />
            <Skeleton height="12rem" borderRadius="md" />
          </SimpleGrid>
        </Stack>
      ) : stats.isError && isShareGone(stats.error) ? (
        <Text role="alert">This link no longer works. Its owner may have revoked it.</Text>
      ) : stats.isError && isShareBusy(stats.error) ? (
        <SettingLoadError
          title="This link has been used a lot in the last minute. Try again in a minute."
          onRetry={() => void stats.refetch()}
        />
      ) : stats.isError ? (
        <SettingLoadError
          title="The stats could not be loaded."
          onRetry={() => void stats.refetch()}
        />
      ) : !data ? (
        <Text role="alert">This site no longer exists, or it is not yours.</Text>
      ) : !site && hasNoData(data, active.length > 0) ? (
        <Text color="fg.muted">No visits counted in this period or the one before it.</Text>
      ) : site && hasNoData(data, active.length > 0) ? (
        <Stack gap="2">
          <Heading as="h2" size="md">
            No data yet — here is your snippet
          </Heading>
          <SnippetBox siteId={site.id} siteName={visibleText(site.name)} />
          <Text fontSize="sm" color="fg.muted">
            Page views appear here within seconds of the first visit.
          </Text>
        </Stack>
      ) : (
        <Stack
          gap="5"
          opacity={stats.isPlaceholderData ? 0.6 : 1}
          aria-busy={stats.isPlaceholderData}
        >
          <HeadlineNumbers totals={data.totals} previous={data.previous} />
          <TimeSeriesChart series={data.series} bucket={data.range.bucket} />
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            {FILTER_KEYS.map((key) => (
              <TopList
                key={key}
                filterKey={key}
                title={LIST_TITLES[key]}
                rows={data.top[key] ?? []}
                active={filters[key]}
                onFilter={onFilter}
              />
            ))}
          </SimpleGrid>
          <Box>
            <Text fontSize="sm" color="fg.muted">
              Choose any value in a list to see the numbers for it alone.
            </Text>
          </Box>
        </Stack>
      )}
    </Stack>
  );
}
