// @vitest-environment node
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  linkSecretFromEnv,
  listUnsubscribeUrl,
  parseUnsubscribeCode,
  signUnsubscribe,
  unsubscribeCode,
  unsubscribeMailtoFromEnv,
  unsubscribeMailtoOf,
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

  it('signs as links already sent were signed: HMAC(HMAC(secret, purpose), ids)', async () => {
    const key = createHmac('sha256', SECRET)
      .update('tinyback newsletter list-unsubscribe link v1')
      .digest();
    const expected = createHmac('sha256', key).update(`${S}.${C}`).digest('base64url');
    expect((await signUnsubscribe(S, C, SECRET)).signature).toBe(expected);
  });

  it('imports the key once per secret, however many links it signs', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const links = await Promise.all(
        Array.from({ length: 50 }, () => signUnsubscribe(S, C, 'derived:key-once')),
      );
      await Promise.all(links.map((link) => verifyUnsubscribe(link, 'derived:key-once')));
      // The secret's own key, then the link key derived from it.
      expect(importKey).toHaveBeenCalledTimes(2);
      expect(new Set(links.map((l) => l.signature)).size).toBe(1);
    } finally {
      importKey.mockRestore();
    }
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

describe('the mailto of List-Unsubscribe', () => {
  const env = (value: string | undefined) => (name: string) =>
    name === 'NEWSLETTER_UNSUBSCRIBE_MAILTO' ? value : undefined;

  it('takes a plain address from NEWSLETTER_UNSUBSCRIBE_MAILTO, and nothing when unset', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(unsubscribeMailtoFromEnv(env('unsubscribe@news.example.com'), warn)).toBe(
      'unsubscribe@news.example.com',
    );
    expect(unsubscribeMailtoFromEnv(env(' list+out@example.co.uk '), warn)).toBe(
      'list+out@example.co.uk',
    );
    expect(unsubscribeMailtoFromEnv(env(undefined), warn)).toBeNull();
    expect(unsubscribeMailtoFromEnv(env(''), warn)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('warns about anything else and leaves the mailto out', () => {
    for (const value of [
      'unsubscribe',
      'mailto:unsubscribe@example.com',
      'Unsubscribe <unsubscribe@example.com>',
      'a@b@example.com',
      'a,b@example.com',
      'a@example.com?cc=victim@example.org',
      'a@example.com\r\nBcc: victim@example.org',
      'a b@example.com',
      '.a@example.com',
      'a..b@example.com',
      'a@localhost',
      'a@-example.com',
      'a@example.com.',
      'a%40b@example.com',
      'ü@example.com',
      `${'a'.repeat(65)}@example.com`,
    ]) {
      const warnings: string[] = [];
      expect(unsubscribeMailtoFromEnv(env(value), (m) => warnings.push(m))).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/NEWSLETTER_UNSUBSCRIBE_MAILTO/);
    }
  });

  it('asks for the signed code in the subject, the one-click URL’s own path parts', async () => {
    const link = await signUnsubscribe(S, C, SECRET);
    const code = unsubscribeCode(link);
    expect(code).toBe(`${S}/${C}/${link.signature}`);
    expect(await listUnsubscribeUrl('https://p.test/functions/v1', S, C, SECRET)).toBe(
      `https://p.test/functions/v1/newsletter/u/${code}`,
    );
    const mailto = unsubscribeMailtoOf('unsubscribe@example.com', link);
    expect(mailto).toBe(
      `mailto:unsubscribe@example.com?subject=unsubscribe%20${S}%2F${C}%2F${link.signature}`,
    );
    // What the mail program puts in the subject names the code the operator acts on.
    expect(new URL(mailto).searchParams.get('subject')).toBe(`unsubscribe ${code}`);
  });

  it('reads a code (or the whole subject) back into a link the same check verifies', async () => {
    const link = await signUnsubscribe(S, C, SECRET);
    const code = unsubscribeCode(link);
    for (const text of [code, `unsubscribe ${code}`, `  Unsubscribe  ${code}\n`])
      expect(await verifyUnsubscribe(parseUnsubscribeCode(text)!, SECRET)).toEqual({
        subscriberId: S,
        campaignId: C,
      });
    const none = await signUnsubscribe(S, null, SECRET);
    expect(await verifyUnsubscribe(parseUnsubscribeCode(unsubscribeCode(none))!, SECRET)).toEqual({
      subscriberId: S,
      campaignId: null,
    });
    // A code someone made up has the shape but not our signature.
    const forged = parseUnsubscribeCode(`${OTHER}/${C}/${link.signature}`)!;
    expect(await verifyUnsubscribe(forged, SECRET)).toBeNull();
    for (const text of ['', 'unsubscribe', `${S}/${C}`, `${code}/x`, `re: ${code}`])
      expect(parseUnsubscribeCode(text)).toBeNull();
  });
});
