// The gateway's answer for the Supabase services the local stack does not run: a 501 that names
// the service, through supabase-js and plain HTTP, instead of a 404 that reads like a typo.
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import { describe, expect, inject, it } from 'vitest';

const stack = inject('stack');

describe('Supabase services the local stack does not run', () => {
  it('answers Storage through supabase-js with a 501 that names it', async () => {
    const supabase = createClient(stack.apiUrl, stack.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
    const { data, error } = await supabase.storage.from('avatars').list();
    expect(data).toBeNull();
    expect(error?.message).toBe(
      'Storage (/storage/v1) is not served by the local stack (see local-stack/README.md)',
    );
  });

  it('answers GraphQL, Realtime over HTTP, postgres-meta and Analytics with 501 JSON', async () => {
    for (const path of [
      '/graphql/v1',
      '/realtime/v1/api/broadcast',
      '/pg/tables',
      '/analytics/v1/query',
    ]) {
      const res = await fetch(`${stack.apiUrl}${path}`, {
        method: 'POST',
        headers: { apikey: stack.anonKey, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status, path).toBe(501);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error, path).toBe('not_implemented');
      expect(body.message, path).toContain('is not served by the local stack');
    }
  });

  it('still answers an unknown path with Kong’s 404', async () => {
    const res = await fetch(`${stack.apiUrl}/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no Route matched with those values' });
  });
});
