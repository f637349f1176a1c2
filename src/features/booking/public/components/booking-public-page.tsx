// /book/:slug: a booking form's public page, without sign-in. The visitor's zone is detected and
// can be changed; the month, the days and the times are all in it. Picking a time asks for the
// details; booking shows the confirmation in both zones. `?embed=1` (the iframe snippet) drops
// the page's own outer spacing; the app leaves out the site's header and footer.
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import {
  Box,
  Card,
  Container,
  Heading,
  HStack,
  Icon,
  Separator,
  Stack,
  Text,
} from '@chakra-ui/react';
import { CircleCheckIcon, ClockIcon, GlobeIcon, MapPinIcon } from 'lucide-react';
import { PageMeta } from '../../../../components/page-meta';
import { SettingLoadError, SettingLoading } from '../../../../components/setting-states';
import { visibleText } from '../../../../lib/visible-text';
import type { BookOutcome } from '../api/book';
import { useBookingPage } from '../api/get-booking-page';
import type { PublicBookingForm } from '../booking-types';
import { browserZone, zoneLabel } from '../zoned-time';
import { BookingDetailsForm } from './booking-details-form';
import { BookingTimes } from './booking-times';
import { LinkGone } from '../../../../components/link-gone';
import { SlotPicker } from './slot-picker';
import { TimeZoneSelect } from './time-zone-select';

/** Whether the page is shown inside another site's iframe (the embed snippet adds `embed=1`). */
function isEmbedded(params: URLSearchParams): boolean {
  return params.get('embed') === '1';
}

export function BookingPublicPage() {
  const { slug = '' } = useParams();
  const [params] = useSearchParams();
  const embedded = isEmbedded(params);
  const page = useBookingPage(slug);

  if (page.data === null)
    return (
      <LinkGone title="This booking link does not exist">
        Check the address, or ask the person who sent it for their current booking link.
      </LinkGone>
    );
  return (
    <Container
      maxW="4xl"
      px={{ base: '3', sm: '4', md: '6' }}
      py={embedded ? { base: '3', md: '4' } : { base: '6', md: '10' }}
    >
      {page.isPending ? (
        <>
          <PageMeta title="Book a time" noindex />
          <SettingLoading>Loading the booking page…</SettingLoading>
        </>
      ) : page.isError ? (
        <>
          <PageMeta title="Book a time" noindex />
          <SettingLoadError
            title="The booking page could not be loaded. Check your connection."
            onRetry={() => void page.refetch()}
          />
        </>
      ) : (
        <Booking form={page.data} />
      )}
    </Container>
  );
}

type Step =
  | { kind: 'pick' }
  | { kind: 'details'; start: string }
  | { kind: 'done'; outcome: Extract<BookOutcome, { kind: 'booked' }>; email: string };

function Booking({ form }: { form: PublicBookingForm }) {
  const [zone, setZone] = useState(browserZone);
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const name = visibleText(form.name);

  // Each step starts at its heading, for keyboard and screen reader users alike.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    stepHeading.current?.focus();
    stepHeading.current?.scrollIntoView?.({ block: 'nearest' });
  }, [step]);
  const go = (next: Step) => {
    moved.current = true;
    setStep(next);
  };

  return (
    <Card.Root variant="outline" overflow="hidden">
      <PageMeta
        title={step.kind === 'done' ? `Booked: ${name}` : `Book ${name}`}
        description={form.description || undefined}
        noindex
      />
      <Card.Body p={{ base: '4', md: '8' }}>
        <Stack gap="6">
          <Stack gap="2">
            <Heading as="h1" size={{ base: 'xl', md: '2xl' }} overflowWrap="anywhere">
              {name}
            </Heading>
            {form.description && (
              <Text color="fg.muted" whiteSpace="pre-line" overflowWrap="anywhere">
                {form.description}
              </Text>
            )}
            <Stack direction={{ base: 'column', sm: 'row' }} gap={{ base: '1', sm: '5' }} pt="1">
              <Fact icon={ClockIcon}>{formatDuration(form.duration_minutes)}</Fact>
              {form.location && <Fact icon={MapPinIcon}>{form.location}</Fact>}
              <Fact icon={GlobeIcon}>Times in {zoneLabel(zone)}</Fact>
            </Stack>
          </Stack>
          <Separator />
          {step.kind === 'pick' && (
            <Stack gap="5">
              <Heading as="h2" size="lg" ref={stepHeading} tabIndex={-1} outline="none">
                Pick a time
              </Heading>
              <TimeZoneSelect zone={zone} onChange={setZone} />
              <SlotPicker
                key={zone}
                slug={form.slug}
                zone={zone}
                maxDaysAhead={form.max_days_ahead}
                onPick={(start) => go({ kind: 'details', start })}
              />
            </Stack>
          )}
          {step.kind === 'details' && (
            <Stack gap="5" maxW="lg">
              <Heading as="h2" size="lg" ref={stepHeading} tabIndex={-1} outline="none">
                Your details
              </Heading>
              <BookingDetailsForm
                form={form}
                start={step.start}
                zone={zone}
                onStartChange={(start) => setStep({ kind: 'details', start })}
                onBack={() => go({ kind: 'pick' })}
                onBooked={(outcome, email) => go({ kind: 'done', outcome, email })}
              />
            </Stack>
          )}
          {step.kind === 'done' && (
            <Confirmation headingRef={stepHeading} outcome={step.outcome} email={step.email} />
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function Confirmation({
  headingRef,
  outcome,
  email,
}: {
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  outcome: Extract<BookOutcome, { kind: 'booked' }>;
  email: string;
}) {
  const { booking, visitorMailed } = outcome;
  return (
    <Stack gap="5">
      <HStack gap="3" align="center">
        <Icon as={CircleCheckIcon} boxSize="7" color="green.600" aria-hidden />
        <Heading as="h2" size="lg" ref={headingRef} tabIndex={-1} outline="none">
          You’re booked
        </Heading>
      </HStack>
      <BookingTimes
        start={booking.starts_at}
        end={booking.ends_at}
        visitorZone={booking.visitor_time_zone}
        ownerZone={booking.time_zone}
        location={booking.location}
      />
      <Box
        borderWidth="1px"
        rounded="md"
        p="4"
        bg={visitorMailed ? 'green.subtle' : 'orange.subtle'}
        role="status"
      >
        <Text overflowWrap="anywhere">
          {visitorMailed
            ? `A confirmation with a calendar invitation was sent to ${email}.`
            : 'We could not e-mail you a confirmation — keep this page.'}
        </Text>
        <Text textStyle="sm" color="fg.muted" mt="1">
          {visitorMailed
            ? 'It has a link to cancel or move the booking.'
            : 'Take a screenshot or note the time: without the e-mail there is no link to cancel or move the booking, so contact the host for changes.'}
        </Text>
      </Box>
    </Stack>
  );
}

function Fact({ icon, children }: { icon: typeof ClockIcon; children: React.ReactNode }) {
  return (
    <HStack gap="1.5" color="fg.muted" textStyle="sm" align="start">
      <Icon as={icon} boxSize="4" mt="0.5" flexShrink={0} aria-hidden />
      <Text overflowWrap="anywhere">{children}</Text>
    </HStack>
  );
}

function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [
    hours ? `${hours} hour${hours === 1 ? '' : 's'}` : '',
    rest ? `${rest} minute${rest === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.join(' ');
}
