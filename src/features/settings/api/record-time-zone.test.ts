import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTestQueryClient } from '../../../components/testing/render';
import {
  failRequests,
  pgError,
  sentTo,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { browserTimeZone, useRecordTimeZone } from './record-time-zone';

// The profile of the signed-in user, in the tests' database; the hook reads its time_zone and
// writes the browser's.
const profile = () => supabaseDb.rows('profiles')[0];
const updates = () => sentTo('patch', 'profiles');

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
  supabaseDb.seed({ profiles: [{ id: 'user-1', time_zone: null }] });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('recording the owner’s time zone', () => {
  it('stores the browser’s zone when the profile has none or another', async () => {
    zoneIs('Europe/Berlin');
    renderRecord();
    await waitFor(() => expect(updates()).toEqual([{ time_zone: 'Europe/Berlin' }]));

    zoneIs('America/New_York');
    renderRecord();
    await waitFor(() => expect(profile().time_zone).toBe('America/New_York'));
  });

  it('writes nothing when the zone is already stored, or when nobody is signed in', async () => {
    zoneIs('Asia/Tokyo');
    profile().time_zone = 'Asia/Tokyo';
    renderRecord();
    renderRecord(undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates()).toEqual([]);
  });

  it('asks once when the database refuses the zone, and never sends one of the wrong shape', async () => {
    zoneIs('Mars/Olympus_Mons');
    failRequests('patch', 'profiles', pgError('22023', 'Unknown time zone "Mars/Olympus_Mons".'));
    const { rerender } = renderRecord();
    await waitFor(() => expect(updates()).toHaveLength(1));
    rerender({ id: 'user-1' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates()).toHaveLength(1);

    zoneIs('Not a zone; drop table');
    expect(browserTimeZone()).toBeNull();
  });
});
