// /book/manage?token=…: the link in a booking's confirmation e-mail. Opening it only reads the
// booking (mail scanners fetch links); only the Cancel and Reschedule buttons change anything,
// and either spends the link (a reschedule mails a new one).
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  Container,
  Heading,
  HStack,
  Icon,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClockIcon, CircleCheckIcon, CircleXIcon } from 'lucide-react';
import { PageMeta } from '../../../../components/page-meta';
import { SettingLoadError, SettingLoading } from '../../../../components/setting-states';
import { notify } from '../../../../components/toaster';
import { visibleText } from '../../../../lib/visible-text';
import { useCancelBooking, type CancelOutcome } from '../api/cancel-booking';
import { bookingPublicKeys, useBookingPage } from '../api/get-booking-page';
import { useManagedBooking } from '../api/get-managed-booking';
import { useRescheduleBooking, type RescheduleOutcome } from '../api/reschedule-booking';
import { isManageToken, type BookedBooking, type ManagedBooking } from '../booking-types';
import { formatWait } from '../function-answer';
import { browserZone, formatDate, formatSpan, formatTime, isKnownZone } from '../zoned-time';
import { BookingTimes } from './booking-times';
import { CancelDialog } from './cancel-dialog';
import { LinkGone } from '../../../../components/link-gone';
import { SlotPicker } from './slot-picker';
import { TimeZoneSelect } from './time-zone-select';

const USED_LINK = 'This link has already been used or no longer works.';

function UsedLink() {
  return (
    <LinkGone title={USED_LINK}>
      Each link in a booking e-mail works once: after a change, use the link in the newest e-mail
      about your booking, or contact the host.
    </LinkGone>
  );
}

export function BookingManagePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  if (!isManageToken(token)) return <UsedLink />;
  return <ManageBooking token={token} />;
}

/** Where the page stands after a button press (before one: 'view'). */
type Done =
  | { kind: 'view' }
  | { kind: 'cancelled' }
  | { kind: 'rescheduled'; booking: BookedBooking }
  | { kind: 'gone' };

function ManageBooking({ token }: { token: string }) {
  const booking = useManagedBooking(token);
  const [done, setDone] = useState<Done>({ kind: 'view' });

  if (booking.data === null || done.kind === 'gone') return <UsedLink />;
  return (
    <Container maxW="3xl" px={{ base: '3', sm: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <PageMeta title="Your booking" noindex />
      {booking.isPending ? (
        <SettingLoading>Loading your booking…</SettingLoading>
      ) : booking.isError ? (
        <SettingLoadError
          title="Your booking could not be loaded. Check your connection."
          onRetry={() => void booking.refetch()}
        />
      ) : (
        <Card.Root variant="outline">
          <Card.Body p={{ base: '4', md: '8' }}>
            {done.kind === 'cancelled' ? (
              <Outcome icon={CircleXIcon} palette="gray" title="Your booking is cancelled">
                <Text color="fg.muted">
                  The host has been told, and a cancellation for your calendar is on its way to you.
                  This link no longer works.
                </Text>
              </Outcome>
            ) : done.kind === 'rescheduled' ? (
              <Outcome icon={CircleCheckIcon} palette="green" title="Your booking is moved">
                <BookingTimes
                  start={done.booking.starts_at}
                  end={done.booking.ends_at}
                  visitorZone={done.booking.visitor_time_zone}
                  ownerZone={done.booking.time_zone}
                  location={done.booking.location}
                />
                <Text color="fg.muted">
                  An updated calendar invitation with a new link to manage the booking is on its way
                  to you and the host. This link no longer works.
                </Text>
              </Outcome>
            ) : (
              <Manage token={token} booking={booking.data} onDone={setDone} />
            )}
          </Card.Body>
        </Card.Root>
      )}
    </Container>
  );
}

function Outcome({
  icon,
  palette,
  title,
  children,
}: {
  icon: typeof CircleXIcon;
  palette: 'green' | 'gray';
  title: string;
  children: React.ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The pressed button is gone: take the visitor (and a screen reader) to the outcome.
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack gap="4">
      <HStack gap="3">
        <Icon as={icon} boxSize="7" color={`${palette}.600`} aria-hidden />
        <Heading as="h1" size="xl" ref={heading} tabIndex={-1} outline="none">
          {title}
        </Heading>
      </HStack>
      {children}
    </Stack>
  );
}

function Manage({
  token,
  booking,
  onDone,
}: {
  token: string;
  booking: ManagedBooking;
  onDone: (done: Done) => void;
}) {
  const [zone, setZone] = useState(() =>
    isKnownZone(booking.visitor_time_zone) ? booking.visitor_time_zone : browserZone(),
  );
  const [mode, setMode] = useState<'view' | 'reschedule'>('view');
  const cancelled = booking.status === 'cancelled';
  const [past] = useState(() => Date.parse(booking.starts_at) <= Date.now());
  const name = visibleText(booking.booking_form_name);

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Text textStyle="sm" color="fg.muted">
          Your booking
        </Text>
        <Heading as="h1" size={{ base: 'xl', md: '2xl' }} overflowWrap="anywhere">
          {name}
        </Heading>
      </Stack>
      <BookingTimes
        start={booking.starts_at}
        end={booking.ends_at}
        visitorZone={zone}
        ownerZone={booking.time_zone}
        location={booking.location}
      />
      {cancelled ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Title>This booking was cancelled. There is nothing more to do here.</Alert.Title>
        </Alert.Root>
      ) : past ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Title>
            This booking has already started, so it can no longer be changed.
          </Alert.Title>
        </Alert.Root>
      ) : mode === 'view' ? (
        <Actions token={token} onDone={onDone} onReschedule={() => setMode('reschedule')} />
      ) : (
        <Reschedule
          token={token}
          booking={booking}
          zone={zone}
          onZone={setZone}
          onDone={onDone}
          onClose={() => setMode('view')}
        />
      )}
    </Stack>
  );
}

const CANCEL_PROBLEMS: Record<Exclude<CancelOutcome['kind'], 'cancelled' | 'gone'>, string> = {
  already_cancelled: 'This booking was already cancelled.',
  past: 'This booking has already started, so it can no longer be cancelled.',
  unavailable: 'The booking is not cancelled yet: the service could not be reached. Try again.',
};

function Actions({
  token,
  onDone,
  onReschedule,
}: {
  token: string;
  onDone: (done: Done) => void;
  onReschedule: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const cancel = useCancelBooking();

  const confirm = () => {
    setProblem(null);
    cancel.mutate(
      { token, reason },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'cancelled') {
            setAsking(false);
            notify('success', 'Booking cancelled');
            onDone({ kind: 'cancelled' });
          } else if (outcome.kind === 'gone') {
            setAsking(false);
            onDone({ kind: 'gone' });
          } else setProblem(CANCEL_PROBLEMS[outcome.kind]);
        },
        onError: () => setProblem(CANCEL_PROBLEMS.unavailable),
      },
    );
  };

  return (
    <Stack gap="4">
      <Text color="fg.muted">Need a different time, or can’t make it?</Text>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
        <Button colorPalette="teal" onClick={onReschedule}>
          <CalendarClockIcon aria-hidden />
          Reschedule
        </Button>
        <Button variant="outline" colorPalette="red" onClick={() => setAsking(true)}>
          Cancel booking
        </Button>
      </Stack>
      <CancelDialog
        open={asking}
        reason={reason}
        onReason={setReason}
        pending={cancel.isPending}
        error={problem}
        onConfirm={confirm}
        onClose={() => {
          setAsking(false);
          setProblem(null);
        }}
      />
    </Stack>
  );
}

interface RescheduleProblem {
  title: string;
  next?: string[];
}

function rescheduleProblem(
  outcome: Exclude<RescheduleOutcome, { kind: 'rescheduled' | 'gone' }>,
): RescheduleProblem {
  switch (outcome.kind) {
    case 'slot_taken':
      return {
        title: outcome.next.length
          ? 'Someone just booked this time. These times are still free:'
          : 'Someone just booked this time. Pick another one.',
        next: outcome.next,
      };
    case 'invalid':
      return { title: outcome.message || 'This time cannot be booked. Pick another one.' };
    case 'past':
      return { title: 'This booking has already started, so it can no longer be moved.' };
    case 'already_cancelled':
      return { title: 'This booking was cancelled, so it can no longer be moved.' };
    case 'rate_limited':
      return {
        title: outcome.retryAfter
          ? `Too many requests. Try again in ${formatWait(outcome.retryAfter)}.`
          : 'Too many requests. Try again later.',
      };
    case 'unavailable':
      return {
        title: 'The booking is not moved yet: the service could not be reached. Try again.',
      };
  }
}

function Reschedule({
  token,
  booking,
  zone,
  onZone,
  onDone,
  onClose,
}: {
  token: string;
  booking: ManagedBooking;
  zone: string;
  onZone: (zone: string) => void;
  onDone: (done: Done) => void;
  onClose: () => void;
}) {
  const [start, setStart] = useState<string | null>(null);
  const [problem, setProblem] = useState<RescheduleProblem | null>(null);
  const reschedule = useRescheduleBooking();
  const queryClient = useQueryClient();
  // The form's horizon bounds the calendar; until it is known (or if the form is gone), a year.
  const page = useBookingPage(booking.slug);
  const maxDaysAhead = page.data?.max_days_ahead ?? 365;
  const heading = useRef<HTMLHeadingElement>(null);
  const picking = start === null;
  useEffect(() => heading.current?.focus(), [picking]);

  const move = (to: string) => {
    setProblem(null);
    reschedule.mutate(
      { token, start: to },
      {
        onSuccess: (outcome) => {
          void queryClient.invalidateQueries({ queryKey: bookingPublicKeys.allSlots });
          if (outcome.kind === 'rescheduled') {
            notify('success', 'Booking moved');
            onDone({ kind: 'rescheduled', booking: outcome.booking });
          } else if (outcome.kind === 'gone') onDone({ kind: 'gone' });
          else setProblem(rescheduleProblem(outcome));
        },
        onError: () => setProblem(rescheduleProblem({ kind: 'unavailable' })),
      },
    );
  };

  const end = start
    ? new Date(Date.parse(start) + booking.duration_minutes * 60_000).toISOString()
    : null;

  return (
    <Stack gap="5">
      <Heading as="h2" size="lg" ref={heading} tabIndex={-1} outline="none">
        {start ? 'Move to this time?' : 'Pick a new time'}
      </Heading>
      {start && end ? (
        <Stack gap="4">
          <Box borderWidth="1px" rounded="lg" p="4" bg="bg.subtle">
            <Text fontWeight="semibold">{formatSpan(start, end, zone)}</Text>
          </Box>
          {problem && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Content gap="2">
                <Alert.Title>{problem.title}</Alert.Title>
                {problem.next && problem.next.length > 0 && (
                  <Wrap gap="2" role="group" aria-label="Free times">
                    {problem.next.map((next) => (
                      <Button
                        key={next}
                        size="sm"
                        variant="outline"
                        colorPalette="teal"
                        bg="bg"
                        onClick={() => {
                          setStart(next);
                          setProblem(null);
                        }}
                      >
                        {`${formatDate(next, zone)}, ${formatTime(next, zone)}`}
                      </Button>
                    ))}
                  </Wrap>
                )}
              </Alert.Content>
            </Alert.Root>
          )}
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
            <Button
              colorPalette="teal"
              loading={reschedule.isPending}
              loadingText="Moving…"
              onClick={() => move(start)}
            >
              Move my booking
            </Button>
            <Button
              variant="ghost"
              disabled={reschedule.isPending}
              onClick={() => {
                setStart(null);
                setProblem(null);
              }}
            >
              Pick another time
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Stack gap="5">
          <TimeZoneSelect zone={zone} onChange={onZone} />
          <SlotPicker
            key={zone}
            slug={booking.slug}
            zone={zone}
            maxDaysAhead={maxDaysAhead}
            exclude={booking.starts_at}
            onPick={setStart}
          />
          <Box>
            <Button variant="ghost" onClick={onClose}>
              Keep the current time
            </Button>
          </Box>
        </Stack>
      )}
    </Stack>
  );
}
