// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DELIVERY } from '../limits.ts';
import { createMailStore, type RpcClient } from './store.ts';

function clientAnswering(data: unknown) {
  const calls: [string, Record<string, unknown>][] = [];
  const client: RpcClient = {
    rpc: async (name, args) => {
      calls.push([name, args]);
      return { data, error: null };
    },
  };
  return { client, calls };
}

const row = {
  id: 'd1',
  lease: 'l1',
  attempts: 1,
  recipient: 'visitor@example.com',
  subject: 'Booked',
  reply_to: null,
  text_body: 't',
  html_body: 'h',
  from_name: null,
};

describe('the mail store', () => {
  it('claims with the lease and attempt cap, keeping a booking’s calendar columns', async () => {
    const { client, calls } = clientAnswering([
      { ...row, calendar: 'BEGIN:VCALENDAR', calendar_method: 'REQUEST' },
      { ...row, id: 'd2', calendar: null, calendar_method: null },
      { ...row, id: 'd3' },
    ]);
    const jobs = await createMailStore(client).claim({ limit: 5, leaseSeconds: 60 });
    expect(calls).toEqual([
      [
        'claim_email_deliveries',
        { p_id: null, p_limit: 5, p_lease_seconds: 60, p_max_attempts: DELIVERY.maxAttempts },
      ],
    ]);
    expect(jobs.map((j) => [j.id, j.calendar, j.calendar_method])).toEqual([
      ['d1', 'BEGIN:VCALENDAR', 'REQUEST'],
      ['d2', null, null],
      ['d3', null, null],
    ]);
    expect(jobs[0]).toMatchObject({ recipient: 'visitor@example.com', lease: 'l1' });
  });

  it('answers an empty claim with no jobs and a failed one with an error', async () => {
    expect(
      await createMailStore(clientAnswering(null).client).claim({ limit: 1, leaseSeconds: 1 }),
    ).toEqual([]);
    const failing: RpcClient = {
      rpc: async () => ({ data: null, error: { message: 'connection refused' } }),
    };
    await expect(createMailStore(failing).claim({ limit: 1, leaseSeconds: 1 })).rejects.toThrow(
      'claim_email_deliveries: connection refused',
    );
  });
});
