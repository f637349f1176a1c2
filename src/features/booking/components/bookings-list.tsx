// The bookings of one form or of every form: Upcoming (soonest first, every one still to come)
// and Past (latest first, a page at a time), each exportable as CSV as shown. Realtime keeps both
// current (live-bindings.ts): a new booking or a cancellation appears without a reload.
import { useId, useState, type ReactNode } from 'react';
import {
  Badge,
  Box,
  Button,
  EmptyState,
  Flex,
  Heading,
  Stack,
  Tabs,
  VStack,
} from '@chakra-ui/react';
import { CalendarCheckIcon, DownloadIcon, HistoryIcon } from 'lucide-react';
import { SettingLoadError, SettingLoading } from '../../../components/setting-states';
import { notify } from '../../../components/toaster';
import { usePastBookings } from '../api/get-past-bookings';
import { useUpcomingBookings } from '../api/get-upcoming-bookings';
import type { BookingsWhen } from '../api/query-keys';
import { bookingsToCsv } from '../booking-csv';
import { dateStamp } from '../booking-time';
import { isUpcoming, type Booking } from '../bookings';
import { useNow } from '../use-now';
import { BookingItem, type BookingFormInfo } from './booking-item';
import { CancelBookingDialog } from './cancel-booking-dialog';
import { downloadText } from '../../../lib/download';

export interface BookingsListProps {
  /** One form's bookings; null: every form's. */
  formId: string | null;
  /** The owner's forms (names and time zones), by id. */
  forms: ReadonlyMap<string, BookingFormInfo>;
  /** The reader's time zone; the browser's unless a test says. */
  readerZone?: string;
}

export function BookingsList({ formId, forms, readerZone }: BookingsListProps) {
  const headingId = useId();
  const [tab, setTab] = useState<BookingsWhen>('upcoming');
  const [cancelling, setCancelling] = useState<{ booking: Booking; when: string } | null>(null);
  const now = useNow();
  const upcoming = useUpcomingBookings(formId);
  const upcomingRows = (upcoming.data ?? []).filter((booking) => isUpcoming(booking, now));
  const confirmedCount = upcomingRows.filter((booking) => booking.status === 'confirmed').length;

  const itemProps = {
    forms,
    showForm: formId === null,
    readerZone,
    now,
    onCancel: (booking: Booking, when: string) => setCancelling({ booking, when }),
  };

  return (
    <Box as="section" aria-labelledby={headingId} minW="0">
      <Heading as="h2" size="lg" id={headingId} mb="3">
        Bookings
      </Heading>
      <Tabs.Root
        value={tab}
        onValueChange={(details) => setTab(details.value as BookingsWhen)}
        variant="line"
        lazyMount
      >
        <Tabs.List>
          <Tabs.Trigger value="upcoming">
            Upcoming
            {upcoming.isSuccess && confirmedCount > 0 && (
              <Badge colorPalette="teal" variant="solid" size="sm">
                {confirmedCount}
              </Badge>
            )}
          </Tabs.Trigger>
          <Tabs.Trigger value="past">Past</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="upcoming" pt="4">
          {upcoming.isPending ? (
            <SettingLoading>Loading upcoming bookings…</SettingLoading>
          ) : upcoming.isError ? (
            <SettingLoadError
              title="Your bookings could not be loaded."
              onRetry={() => void upcoming.refetch()}
            />
          ) : (
            <Rows
              when="upcoming"
              rows={upcomingRows}
              {...itemProps}
              empty={
                <Empty
                  icon={<CalendarCheckIcon />}
                  title="No upcoming bookings"
                  description={
                    formId
                      ? 'When visitors book through this link, their bookings appear here.'
                      : 'When visitors book through your links, their bookings appear here.'
                  }
                />
              }
            />
          )}
        </Tabs.Content>
        <Tabs.Content value="past" pt="4">
          <PastTab formId={formId} {...itemProps} />
        </Tabs.Content>
      </Tabs.Root>
      <CancelBookingDialog
        booking={cancelling?.booking ?? null}
        when={cancelling?.when ?? ''}
        onClose={() => setCancelling(null)}
      />
    </Box>
  );
}

interface ItemProps {
  forms: ReadonlyMap<string, BookingFormInfo>;
  showForm: boolean;
  readerZone?: string;
  now: number;
  onCancel: (booking: Booking, when: string) => void;
}

function PastTab({ formId, ...itemProps }: ItemProps & { formId: string | null }) {
  const past = usePastBookings(formId);
  if (past.isPending) return <SettingLoading>Loading past bookings…</SettingLoading>;
  if (past.isError && !past.data)
    return (
      <SettingLoadError
        title="Your past bookings could not be loaded."
        onRetry={() => void past.refetch()}
      />
    );
  const rows = past.data.pages.flat();
  return (
    <Stack gap="3">
      <Rows
        when="past"
        rows={rows}
        {...itemProps}
        empty={
          <Empty
            icon={<HistoryIcon />}
            title="No past bookings"
            description="Bookings move here once their time is over."
          />
        }
      />
      {past.isFetchNextPageError && (
        <SettingLoadError
          title="More past bookings could not be loaded."
          onRetry={() => void past.fetchNextPage()}
        />
      )}
      {past.hasNextPage && !past.isFetchNextPageError && (
        <Button
          variant="outline"
          alignSelf="center"
          loading={past.isFetchingNextPage}
          onClick={() => void past.fetchNextPage()}
        >
          Show more
        </Button>
      )}
    </Stack>
  );
}

function Rows({
  when,
  rows,
  empty,
  forms,
  ...itemProps
}: ItemProps & { when: BookingsWhen; rows: Booking[]; empty: ReactNode }) {
  if (rows.length === 0) return <>{empty}</>;

  function exportCsv() {
    const csv = bookingsToCsv(rows, (id) => forms.get(id));
    downloadText(
      csv,
      `tinyback-bookings-${when}-${dateStamp(new Date())}.csv`,
      'text/csv;charset=utf-8',
    );
    notify(
      'success',
      'Export ready',
      rows.length === 1 ? '1 booking exported.' : `${rows.length} bookings exported.`,
    );
  }

  return (
    <Stack gap="3">
      <Flex justify="flex-end">
        <Button size="sm" variant="outline" onClick={exportCsv}>
          <DownloadIcon aria-hidden /> Export CSV
        </Button>
      </Flex>
      <Stack
        as="ul"
        gap="3"
        listStyleType="none"
        m="0"
        p="0"
        aria-label={`${when === 'upcoming' ? 'Upcoming' : 'Past'} bookings`}
      >
        {rows.map((booking) => (
          <BookingItem
            key={booking.id}
            booking={booking}
            form={forms.get(booking.booking_form_id)}
            {...itemProps}
          />
        ))}
      </Stack>
    </Stack>
  );
}

function Empty({
  icon,
  title,
  description,
}: {
  icon: ReactNode;
  title: string;
  description: string;
}) {
  return (
    <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="xl">
      <EmptyState.Content>
        <EmptyState.Indicator aria-hidden="true">{icon}</EmptyState.Indicator>
        <VStack textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          <EmptyState.Description>{description}</EmptyState.Description>
        </VStack>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}
