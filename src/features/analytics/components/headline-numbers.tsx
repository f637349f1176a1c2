// The headline numbers of the range, each with its change against the equally long period just
// before: an arrow and a percentage for the eye, a sentence for screen readers. A lower bounce
// rate is the good direction, so its colours are the other way round.
import { Box, SimpleGrid, Text, VisuallyHidden } from '@chakra-ui/react';
import type { StatsTotals } from '../api/get-stats';
import { change, formatCount, formatRate } from '../stats-format';

const METRICS: { key: keyof StatsTotals; label: string }[] = [
  { key: 'visitors', label: 'Visitors' },
  { key: 'visits', label: 'Visits' },
  { key: 'pageviews', label: 'Page views' },
  { key: 'bounce_rate', label: 'Bounce rate' },
  { key: 'events', label: 'Events' },
];

export function HeadlineNumbers({
  totals,
  previous,
}: {
  totals: StatsTotals;
  previous: StatsTotals;
}) {
  return (
    <SimpleGrid as="dl" columns={{ base: 2, md: 5 }} gap="3" aria-label="Totals">
      {METRICS.map(({ key, label }) => {
        const rate = key === 'bounce_rate';
        const delta = change(totals[key], previous[key], rate ? 'rate' : 'count');
        const good = rate ? delta.direction === 'down' : delta.direction === 'up';
        const bad = rate ? delta.direction === 'up' : delta.direction === 'down';
        return (
          <Box key={key} borderWidth="1px" borderRadius="md" p="3" minW="0">
            <Text as="dt" fontSize="sm" color="fg.muted">
              {label}
            </Text>
            <Box as="dd" m="0">
              <Text fontSize="2xl" fontWeight="semibold" lineHeight="short">
                {rate ? formatRate(totals[key]) : formatCount(totals[key])}
              </Text>
              <Text
                fontSize="sm"
                color={good ? 'green.700' : bad ? 'red.700' : 'fg.muted'}
                data-testid={`change-${key}`}
              >
                <span aria-hidden="true">{delta.text}</span>
                <VisuallyHidden>{delta.label}</VisuallyHidden>
              </Text>
            </Box>
          </Box>
        );
      })}
    </SimpleGrid>
  );
}
