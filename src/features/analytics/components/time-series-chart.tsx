// Visitors and page views over the range, one point per hour (a single day) or per day, drawn by
// uPlot (about 22 KB gzipped, a canvas chart made for time series), which loads with this chart
// only: the dashboard's other pages never fetch it. The canvas is for the eye; the same figures
// are in a table for screen readers. Times are UTC, as the buckets are.
import { useEffect, useRef, useState } from 'react';
import { Box, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import type uPlot from 'uplot';
import type { SeriesPoint } from '../api/get-stats';
import { formatCount } from '../stats-format';

const HEIGHT = 240;
const COLORS = { visitors: '#0d9488', pageviews: '#6366f1' };

const hourFormat = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  timeZone: 'UTC',
});
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

function bucketLabel(t: string, bucket: 'hour' | 'day'): string {
  const date = new Date(t);
  return bucket === 'hour' ? `${hourFormat.format(date)} UTC` : dayFormat.format(date);
}

export interface TimeSeriesChartProps {
  series: readonly SeriesPoint[];
  bucket: 'hour' | 'day';
}

export function TimeSeriesChart({ series, bucket }: TimeSeriesChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (cancelled) return;
        const data: uPlot.AlignedData = [
          series.map((point) => Date.parse(point.t) / 1000),
          series.map((point) => point.visitors),
          series.map((point) => point.pageviews),
        ];
        chart = new UPlot(
          {
            width: Math.max(element.clientWidth, 280),
            height: HEIGHT,
            tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
            scales: { y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
            series: [
              {},
              {
                label: 'Visitors',
                stroke: COLORS.visitors,
                fill: 'rgba(13, 148, 136, 0.12)',
                width: 2,
              },
              { label: 'Page views', stroke: COLORS.pageviews, width: 2 },
            ],
            axes: [{}, { size: 48 }],
            cursor: { drag: { x: false, y: false } },
          },
          data,
          element,
        );
        observer = new ResizeObserver(() =>
          chart?.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT }),
        );
        observer.observe(element);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [series]);

  return (
    <Box as="figure" m="0" minW="0">
      <Box
        ref={box}
        aria-hidden="true"
        minH={`${HEIGHT + 40}px`}
        overflow="hidden"
        data-testid="time-series-chart"
      />
      {failed && (
        <Text fontSize="sm" color="fg.muted">
          The chart could not be drawn; the figures are in the lists below.
        </Text>
      )}
      <VisuallyHidden>
        <Table.Root>
          <Table.Caption>{`Visitors and page views per ${bucket}`}</Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{bucket === 'hour' ? 'Hour' : 'Day'}</Table.ColumnHeader>
              <Table.ColumnHeader>Visitors</Table.ColumnHeader>
              <Table.ColumnHeader>Page views</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {series.map((point) => (
              <Table.Row key={point.t}>
                <Table.Cell>{bucketLabel(point.t, bucket)}</Table.Cell>
                <Table.Cell>{formatCount(point.visitors)}</Table.Cell>
                <Table.Cell>{formatCount(point.pageviews)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </VisuallyHidden>
    </Box>
  );
}
