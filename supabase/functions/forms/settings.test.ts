// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MIN_PROXY_SECRET_LENGTH } from '../_shared/client-ip.ts';
import { LIMITS } from '../_shared/limits.ts';
import {
  clientIpPolicyFromEnv,
  publicUrlFromEnv,
  siteUrlFromEnv,
  submissionLimitsFromEnv,
} from './settings.ts';

function read(values: Record<string, string>) {
  const warnings: string[] = [];
  const env = (name: string) => values[name];
  return { env, warn: (m: string) => void warnings.push(m), warnings };
}

describe('publicUrlFromEnv', () => {
  it('is SUPABASE_URL, silently, when SUPABASE_PUBLIC_URL is unset', () => {
    const { env, warn, warnings } = read({ SUPABASE_URL: 'https://abc.supabase.co/' });
    expect(publicUrlFromEnv(env, warn)).toBe('https://abc.supabase.co');
    expect(warnings).toEqual([]);
  });

  it('is SUPABASE_PUBLIC_URL when it is an http(s) address', () => {
    const { env, warn, warnings } = read({
      SUPABASE_URL: 'http://kong:8000',
      SUPABASE_PUBLIC_URL: ' https://api.example.com/ ',
    });
    expect(publicUrlFromEnv(env, warn)).toBe('https://api.example.com');
    expect(warnings).toEqual([]);
  });

  it('ignores, with a warning, a SUPABASE_PUBLIC_URL that is not an http(s) address', () => {
    for (const value of ['javascript:alert(1)', 'not a url', 'https://api.example.com/?x=1']) {
      const { env, warn, warnings } = read({
        SUPABASE_URL: 'http://kong:8000',
        SUPABASE_PUBLIC_URL: value,
      });
      expect(publicUrlFromEnv(env, warn)).toBe('http://kong:8000');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/SUPABASE_PUBLIC_URL/);
    }
  });
});

describe('siteUrlFromEnv', () => {
  it('is null, with a warning, when SITE_URL is unset or not an http(s) URL', () => {
    for (const value of ['', '  ', 'javascript:alert(1)', 'not a url']) {
      const { env, warn, warnings } = read({ SITE_URL: value });
      expect(siteUrlFromEnv(env, warn)).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/SITE_URL/);
      expect(warnings[0]).toMatch(/Thank you/);
    }
  });

  it('is the configured address, silently, when set', () => {
    const { env, warn, warnings } = read({
      SITE_URL: 'https://forms.example.com',
      SUPABASE_URL: 'https://abc.supabase.co',
    });
    expect(siteUrlFromEnv(env, warn)).toBe('https://forms.example.com');
    expect(warnings).toEqual([]);
  });

  it('warns when a deployed function would send visitors to a local address', () => {
    const deployed = read({
      SITE_URL: 'http://127.0.0.1:5173',
      SUPABASE_URL: 'https://abc.supabase.co',
    });
    expect(siteUrlFromEnv(deployed.env, deployed.warn)).toBe('http://127.0.0.1:5173');
    expect(deployed.warnings[0]).toMatch(/only works on your machine/);

    const local = read({
      SITE_URL: 'http://127.0.0.1:5173',
      SUPABASE_URL: 'http://127.0.0.1:54321',
    });
    expect(siteUrlFromEnv(local.env, local.warn)).toBe('http://127.0.0.1:5173');
    expect(local.warnings).toEqual([]);
  });
});

describe('clientIpPolicyFromEnv', () => {
  it('trusts no proxy without FORMS_PROXY_SECRET', () => {
    const { env, warn, warnings } = read({});
    expect(clientIpPolicyFromEnv(env, warn)).toEqual({ proxySecret: null });
    expect(warnings).toEqual([]);
  });

  it('takes a long enough secret', () => {
    const secret = 's'.repeat(MIN_PROXY_SECRET_LENGTH);
    const { env, warn, warnings } = read({ FORMS_PROXY_SECRET: ` ${secret} ` });
    expect(clientIpPolicyFromEnv(env, warn)).toEqual({ proxySecret: secret });
    expect(warnings).toEqual([]);
  });

  it('ignores a short secret and says so', () => {
    const { env, warn, warnings } = read({ FORMS_PROXY_SECRET: 'hunter2' });
    expect(clientIpPolicyFromEnv(env, warn)).toEqual({ proxySecret: null });
    expect(warnings[0]).toMatch(/shorter than 32 characters/);
  });

  it('warns that the retired hop and header settings no longer count', () => {
    const { env, warn, warnings } = read({
      FORMS_TRUSTED_PROXY_HOPS: '2',
      FORMS_CLIENT_IP_HEADER: 'x-real-ip',
    });
    expect(clientIpPolicyFromEnv(env, warn)).toEqual({ proxySecret: null });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^FORMS_TRUSTED_PROXY_HOPS is no longer read/);
    expect(warnings[1]).toMatch(/^FORMS_CLIENT_IP_HEADER is no longer read/);
  });
});

describe('submissionLimitsFromEnv', () => {
  const kept = {
    perMinute: LIMITS.ratePerMinute,
    perDay: LIMITS.ratePerDay,
    formPerMinute: LIMITS.formRatePerMinute,
    accountPerHour: LIMITS.notificationsPerHour,
    accountPerDay: LIMITS.notificationsPerDay,
  };

  it('keeps the limits, silently, when FORMS_RATE_LIMITS is unset or anything but off', () => {
    for (const value of [undefined, '', 'on', 'OFF', 'false', '0', 'no', 'of']) {
      const { env, warn, warnings } = read(value === undefined ? {} : { FORMS_RATE_LIMITS: value });
      expect(submissionLimitsFromEnv(env, warn), String(value)).toEqual(kept);
      expect(warnings).toEqual([]);
    }
  });

  it('lifts every cap far above any benchmark, with a loud warning, when it is off', () => {
    const { env, warn, warnings } = read({ FORMS_RATE_LIMITS: 'off' });
    const limits = submissionLimitsFromEnv(env, warn);
    for (const value of Object.values(limits)) expect(value).toBeGreaterThanOrEqual(1_000_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/RATE LIMITS ARE LIFTED/);
    expect(warnings[0]).toMatch(/never set it in production/);
  });
});
