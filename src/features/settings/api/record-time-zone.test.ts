import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTestQueryClient } from '../../../components/testing/render';
import { browserTimeZone, useRecordTimeZone } from './record-time-zone';

// A profiles table of one row, read with select().eq().maybeSingle(), written with update().eq().
const profile = vi.hoisted(() => ({
  time_zone: null as string | null,
  updates: [] as Record<string, unknown>[],
  refuse: null as string | null,
}));

vi.mock('../../../lib/supabase', () => ({
  supabase: {
    from: (table: string) => {
      if (table !== 'profiles') throw new Error(`unexpected table ${table}`);
      return {
        select: () => ({
          eq: () => ({
            maybeSingle: async () => ({ data: { time_zone: profile.time_zone }, error: null }),
          }),
        }),
        update: (values: Record<string, unknown>) => ({
          eq: async () => {
            profile.updates.push(values);
            if (profile.refuse) return { error: { message: profile.refuse, code: '22023' } };
            profile.time_zone = String(values.time_zone);
            return { error: null };
          },
        }),
      };
    },
  },
}));

function zoneIs(zone: string) {
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
    ...new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).resolvedOptions(),
    timeZone: zone,
  });
}

function renderRecord(userId: string | undefined = 'user-1') {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client }, children);
  return renderHook(({ id }) => useRecordTimeZone(id), { wrapper, initialProps: { id: userId } });
}

beforeEach(() => {
  profile.time_zone = null;
  profile.updates = [];
  profile.refuse = null;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('recording the owner’s time zone', () => {
  it('stores the browser’s zone when the profile has none or another', async () => {
    zoneIs('Europe/Berlin');
    renderRecord();
    await waitFor(() => expect(profile.updates).toEqual([{ time_zone: 'Europe/Berlin' }]));

    zoneIs('America/New_York');
    renderRecord();
    await waitFor(() => expect(profile.time_zone).toBe('America/New_York'));
  });

  it('writes nothing when the zone is already stored, or when nobody is signed in', async () => {
    zoneIs('Asia/Tokyo');
    profile.time_zone = 'Asia/Tokyo';
    renderRecord();
    renderRecord(undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(profile.updates).toEqual([]);
  });

  it('asks once when the database refuses the zone, and never sends one of the wrong shape', async () => {
    zoneIs('Mars/Olympus_Mons');
    profile.refuse = 'Unknown time zone "Mars/Olympus_Mons".';
    const { rerender } = renderRecord();
    await waitFor(() => expect(profile.updates).toHaveLength(1));
    rerender({ id: 'user-1' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(profile.updates).toHaveLength(1);

    zoneIs('Not a zone; drop table');
    expect(browserTimeZone()).toBeNull();
  });
});
