// Records the owner's time zone (profiles.time_zone) from the signed-in browser, so that the form
// endpoint's notifications state times in the owner's own local time. Read once per sign-in and
// written only when the browser's zone differs from the stored one; a zone the database does not
// know (it checks pg_timezone_names) is simply not recorded, and the mails keep saying UTC.
import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';

/** The shape profiles_time_zone_format allows: an IANA name such as `Europe/Berlin`. */
const timeZoneSchema = yup
  .string()
  .defined()
  .max(64)
  .matches(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/);

/** The browser's IANA time zone, or null when it reports none of that shape. */
export function browserTimeZone(): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return timeZoneSchema.isValidSync(zone) ? zone : null;
  } catch {
    return null;
  }
}

const timeZoneKeys = {
  stored: (userId: string) => ['profile', 'time-zone', userId] as const,
};

async function getStoredTimeZone(userId: string): Promise<string | null> {
  const { data, error } = await supabase
    .from('profiles')
    .select('time_zone')
    .eq('id', userId)
    .maybeSingle();
  if (error) throw error;
  return (data as { time_zone: string | null } | null)?.time_zone ?? null;
}

async function saveTimeZone(input: { userId: string; timeZone: string }): Promise<void> {
  const timeZone = timeZoneSchema.validateSync(input.timeZone);
  const { error } = await supabase
    .from('profiles')
    .update({ time_zone: timeZone })
    .eq('id', input.userId);
  if (error) throw error;
}

/** Keeps profiles.time_zone in step with the signed-in browser's zone (one write at most). */
export function useRecordTimeZone(userId: string | undefined): void {
  const zone = browserTimeZone();
  const client = useQueryClient();
  const stored = useQuery({
    queryKey: timeZoneKeys.stored(userId ?? ''),
    queryFn: () => getStoredTimeZone(userId ?? ''),
    enabled: Boolean(userId && zone),
    staleTime: Infinity,
    retry: false,
  });
  const save = useMutation({
    mutationFn: saveTimeZone,
    onSuccess: (_void, input) =>
      client.setQueryData(timeZoneKeys.stored(input.userId), input.timeZone),
  });
  const tried = useRef<string | null>(null);
  const { mutate } = save;
  useEffect(() => {
    if (!userId || !zone || !stored.isSuccess || stored.data === zone) return;
    // Once per user and zone: a refusal (an unknown zone) is not asked again and again.
    const attempt = `${userId} ${zone}`;
    if (tried.current === attempt) return;
    tried.current = attempt;
    mutate({ userId, timeZone: zone });
  }, [userId, zone, stored.isSuccess, stored.data, mutate]);
}
