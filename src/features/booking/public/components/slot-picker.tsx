// Picking a time: the month calendar in the visitor's zone over booking_slots, and the picked
// day's free slots as buttons. The booking page and the manage page's Reschedule both use it.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Grid, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { SettingLoadError } from '../../../../components/setting-states';
import { useBookingSlots } from '../api/get-booking-slots';
import {
  addMonths,
  groupSlotsByDay,
  lastBookableDay,
  monthOf,
  monthRange,
  slotLabels,
} from '../slot-days';
import { dayOf, formatDay, type DayKey } from '../zoned-time';
import { MonthCalendar } from './month-calendar';

export interface SlotPickerProps {
  slug: string;
  /** The visitor's zone: days and times are shown in it. */
  zone: string;
  maxDaysAhead: number;
  onPick: (start: string) => void;
  /** A start to leave out (the booking being moved). */
  exclude?: string;
}

export function SlotPicker({ slug, zone, maxDaysAhead, onPick, exclude }: SlotPickerProps) {
  // Read once per mount (the parents key the picker by zone): a picker left open over midnight
  // keeps its calendar.
  const [today] = useState(() => dayOf(Date.now(), zone));
  const firstMonth = monthOf(today);
  const lastMonth = monthOf(lastBookableDay(today, maxDaysAhead));
  const [month, setMonth] = useState(firstMonth);
  const [day, setDay] = useState<DayKey | null>(null);
  const shownMonth = month < firstMonth ? firstMonth : month > lastMonth ? lastMonth : month;

  const range = useMemo(() => monthRange(shownMonth, today, zone), [shownMonth, today, zone]);
  const slots = useBookingSlots(slug, range);
  // The previous month's slots stay while the next loads (placeholder): never group those.
  const current = slots.isPlaceholderData ? undefined : slots.data;
  const days = useMemo(
    () =>
      groupSlotsByDay(
        (current ?? []).filter((s) => !sameInstant(s, exclude)),
        zone,
      ),
    [current, exclude, zone],
  );
  const available = useMemo(() => new Set(days.keys()), [days]);
  const loading = slots.isPending || slots.isPlaceholderData;
  const daySlots = day ? (days.get(day) ?? []) : [];
  const labels = slotLabels(daySlots, zone);
  const timesRef = useRef<HTMLDivElement>(null);
  // On a phone the times sit under the calendar: bring them into view once a day is picked.
  useEffect(() => {
    if (day) timesRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [day]);
  const showMonth = (next: string) => {
    setMonth(next);
    setDay(null);
  };

  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 14rem' }} gap="6">
      <Stack gap="3">
        <MonthCalendar
          month={shownMonth}
          firstMonth={firstMonth}
          lastMonth={lastMonth}
          onMonthChange={showMonth}
          available={available}
          selected={day}
          onSelect={setDay}
          today={today}
          loading={loading}
        />
        <Box minH="6" aria-live="polite">
          {slots.isError ? (
            <SettingLoadError
              title={
                (slots.error as { code?: string } | null)?.code === 'PT429'
                  ? 'This booking page is busy. Try again in a minute.'
                  : 'The free times could not be loaded.'
              }
              onRetry={() => void slots.refetch()}
            />
          ) : loading ? (
            <Text textStyle="sm" color="fg.muted" role="status">
              Looking for free times…
            </Text>
          ) : available.size === 0 ? (
            <Stack direction="row" align="center" gap="3" flexWrap="wrap">
              <Text textStyle="sm" color="fg.muted">
                No free times this month.
              </Text>
              {shownMonth < lastMonth && (
                <Button
                  size="sm"
                  variant="outline"
                  colorPalette="teal"
                  onClick={() => showMonth(addMonths(shownMonth, 1))}
                >
                  Show next month
                </Button>
              )}
            </Stack>
          ) : null}
        </Box>
      </Stack>
      <Box aria-live="polite" ref={timesRef} scrollMarginBottom="4">
        {day && !loading ? (
          <Stack gap="3">
            <Heading as="h3" size="sm">
              {formatDay(day)}
            </Heading>
            {daySlots.length === 0 ? (
              <Text textStyle="sm" color="fg.muted">
                No free times left on this day. Pick another day.
              </Text>
            ) : (
              <SimpleGrid
                columns={{ base: 2, sm: 3, md: 1 }}
                gap="2"
                aria-label={`Free times on ${formatDay(day)}`}
                role="group"
              >
                {daySlots.map((start, i) => (
                  <Button
                    key={start}
                    variant="outline"
                    colorPalette="teal"
                    onClick={() => onPick(start)}
                  >
                    {labels[i]}
                  </Button>
                ))}
              </SimpleGrid>
            )}
          </Stack>
        ) : (
          !loading &&
          available.size > 0 && (
            <Text textStyle="sm" color="fg.muted">
              Pick a day to see its free times.
            </Text>
          )
        )}
      </Box>
    </Grid>
  );
}

function sameInstant(a: string, b: string | undefined): boolean {
  return b !== undefined && Date.parse(a) === Date.parse(b);
}
