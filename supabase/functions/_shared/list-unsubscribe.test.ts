// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  linkSecretFromEnv,
  listUnsubscribeUrl,
  signUnsubscribe,
  unsubscribePageUrl,
  verifyUnsubscribe,
} from './list-unsubscribe.ts';

const S = '7d6c5b4a-3928-4716-a5b4-c3d2e1f00112';
const C = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
const OTHER = 'b1b2c3d4-e5f6-4789-8abc-def012345678';
const SECRET = 'derived:key-1';

describe('the signed one-click link', () => {
  it('verifies a link it signed, with or without a campaign', async () => {
    const link = await signUnsubscribe(S, C, SECRET);
    expect(link.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await verifyUnsubscribe(link, SECRET)).toEqual({ subscriberId: S, campaignId: C });
    const none = await signUnsubscribe(S, null, SECRET);
    expect(none.campaignId).toBe('-');
    expect(await verifyUnsubscribe(none, SECRET)).toEqual({ subscriberId: S, campaignId: null });
  });

  it('reads ids in either case as the same link', async () => {
    const link = await signUnsubscribe(S.toUpperCase(), C.toUpperCase(), SECRET);
    expect(link.subscriberId).toBe(S);
    const upper = { ...link, subscriberId: S.toUpperCase(), campaignId: C.toUpperCase() };
    expect(await verifyUnsubscribe(upper, SECRET)).toEqual({ subscriberId: S, campaignId: C });
  });

  it('refuses another campaign, subscriber, secret or a tampered signature', async () => {
    const link = await signUnsubscribe(S, C, SECRET);
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const tampered = [
      { ...link, campaignId: OTHER },
      { ...link, campaignId: '-' },
      { ...link, subscriberId: OTHER },
      { ...link, signature: flip(link.signature[0]!) + link.signature.slice(1) },
      { ...link, signature: link.signature.slice(0, -1) + flip(link.signature.at(-1)!) },
    ];
    for (const t of tampered) expect(await verifyUnsubscribe(t, SECRET)).toBeNull();
    expect(await verifyUnsubscribe(link, 'derived:key-2')).toBeNull();
  });

  it('refuses signatures of the wrong length or alphabet, and ids that are none', async () => {
    const link = await signUnsubscribe(S, C, SECRET);
    for (const signature of [
      '',
      link.signature.slice(0, 42),
      `${link.signature}A`,
      `${link.signature.slice(0, 42)}=`,
    ])
      expect(await verifyUnsubscribe({ ...link, signature }, SECRET)).toBeNull();
    expect(await verifyUnsubscribe({ ...link, subscriberId: 'x' }, SECRET)).toBeNull();
    expect(await verifyUnsubscribe({ ...link, campaignId: 'none' }, SECRET)).toBeNull();
    await expect(signUnsubscribe('x', null, SECRET)).rejects.toThrow();
  });

  it('builds the function’s URL and the site’s page for the sender', async () => {
    const link = await signUnsubscribe(S, C, SECRET);
    expect(await listUnsubscribeUrl('https://p.test/functions/v1/', S, C, SECRET)).toBe(
      `https://p.test/functions/v1/newsletter/u/${S}/${C}/${link.signature}`,
    );
    expect(await unsubscribePageUrl('https://site.test/', S, C, SECRET)).toBe(
      `https://site.test/newsletter/unsubscribe?u=${S}&c=${C}&sig=${link.signature}`,
    );
  });

  it('signs with NEWSLETTER_LINK_SECRET when set, else with the service-role key', () => {
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    expect(
      linkSecretFromEnv(env({ NEWSLETTER_LINK_SECRET: 'own', SUPABASE_SERVICE_ROLE_KEY: 'k' })),
    ).toBe('own');
    expect(linkSecretFromEnv(env({ SUPABASE_SERVICE_ROLE_KEY: 'k' }))).toBe('derived:k');
    expect(() => linkSecretFromEnv(env({}))).toThrow();
  });
});
