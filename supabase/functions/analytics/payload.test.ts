// @vitest-environment node
// The event payload's contract (the tracker, src/features/analytics/tracker/, sends it): what is
// refused, and what of a valid event is kept — the path and UTM parameters of the URL, the
// referrer's host, a screen class, a country from the time zone.
import { describe, expect, it } from 'vitest';
import { checkEvent, parsePayload, screenClass } from './payload.ts';

const SITE = '6f1c2d3e-4b5a-4c6d-8e7f-0123456789ab';
const valid = {
  s: SITE,
  n: 'pageview',
  u: 'https://example.com/',
  r: '',
  w: 1280,
  z: 'Europe/Berlin',
};

const accept = (data: unknown) => {
  const checked = checkEvent(data);
  if (!checked.ok) throw new Error(checked.error);
  return checked.event;
};
const refused = (data: unknown) => {
  const checked = checkEvent(data);
  return checked.ok ? null : checked.error;
};

describe('screen classes', () => {
  it('puts widths below 576, 992 and 1440 px into mobile, tablet and laptop', () => {
    expect(screenClass(0)).toBe('mobile');
    expect(screenClass(575)).toBe('mobile');
    expect(screenClass(576)).toBe('tablet');
    expect(screenClass(991)).toBe('tablet');
    expect(screenClass(992)).toBe('laptop');
    expect(screenClass(1439)).toBe('laptop');
    expect(screenClass(1440)).toBe('desktop');
    expect(screenClass(10_000)).toBe('desktop');
  });
});

describe('a valid event', () => {
  it('keeps the path and the three UTM parameters, and drops the rest of the query and the fragment', () => {
    const event = accept({
      ...valid,
      u: 'https://WWW.Example.com/pricing/plans?utm_source=news&utm_medium=email&utm_campaign=spring&token=secret&email=a@b.c#section-9',
    });
    expect(event).toEqual({
      siteId: SITE,
      name: 'pageview',
      host: 'www.example.com',
      path: '/pricing/plans',
      referrerHost: null,
      utmSource: 'news',
      utmMedium: 'email',
      utmCampaign: 'spring',
      screen: 'laptop',
      country: 'DE',
      props: null,
    });
    expect(JSON.stringify(event)).not.toMatch(/secret|a@b\.c|section-9/);
  });

  it("keeps only the referrer's host, and none from the page's own site", () => {
    expect(accept({ ...valid, r: 'https://news.ycombinator.com/item?id=1' }).referrerHost).toBe(
      'news.ycombinator.com',
    );
    expect(accept({ ...valid, r: 'https://example.com/blog' }).referrerHost).toBeNull();
    expect(accept({ ...valid, r: 'https://www.example.com/' }).referrerHost).toBeNull();
    expect(accept({ ...valid, r: 'android-app://com.slack' }).referrerHost).toBeNull();
    expect(accept({ ...valid, r: 'not a url' }).referrerHost).toBeNull();
    expect(accept({ ...valid, r: undefined }).referrerHost).toBeNull();
  });

  it('takes custom event names and props', () => {
    const event = accept({
      ...valid,
      n: 'Signup: step 2.b_x-y',
      p: { url: 'https://other.example/', form: 'contact' },
    });
    expect(event.name).toBe('Signup: step 2.b_x-y');
    expect(event.props).toEqual({ url: 'https://other.example/', form: 'contact' });
    expect(accept({ ...valid, p: {} }).props).toBeNull();
  });

  it('answers no country for unknown zones and no screen class without a width', () => {
    expect(accept({ ...valid, z: 'Mars/Olympus_Mons' }).country).toBeNull();
    expect(accept({ ...valid, z: 'UTC' }).country).toBeNull();
    expect(accept({ ...valid, w: undefined, z: undefined })).toMatchObject({
      screen: null,
      country: null,
    });
  });

  it('reads the text/plain body the tracker sends', () => {
    const checked = parsePayload(JSON.stringify(valid));
    expect(checked.ok).toBe(true);
  });
});

describe('refused payloads', () => {
  it.each([
    ['not JSON', '{s:'],
    ['an array', '[]'],
    ['a string', '"pageview"'],
  ])('%s', (_, body) => {
    expect(parsePayload(body).ok).toBe(false);
  });

  it.each([
    ['no site id', { ...valid, s: undefined }],
    ['a site id that is no UUID', { ...valid, s: 'site-1' }],
    ['no name', { ...valid, n: undefined }],
    ['an empty name', { ...valid, n: '  ' }],
    ['a name of 51 characters', { ...valid, n: 'x'.repeat(51) }],
    ['a name with other characters', { ...valid, n: 'sign<up>' }],
    ['no URL', { ...valid, u: undefined }],
    ['a relative URL', { ...valid, u: '/pricing' }],
    ['a javascript: URL', { ...valid, u: 'javascript:alert(1)' }],
    ['a URL over 2000 characters', { ...valid, u: `https://example.com/${'a'.repeat(2000)}` }],
    ['a referrer over 2000 characters', { ...valid, r: `https://a.example/${'a'.repeat(2000)}` }],
    ['a referrer that is no string', { ...valid, r: 5 }],
    ['a fractional width', { ...valid, w: 12.5 }],
    ['a negative width', { ...valid, w: -1 }],
    ['a width over 10000', { ...valid, w: 10_001 }],
    ['a width as text', { ...valid, w: '1280' }],
    ['a time zone over 64 characters', { ...valid, z: 'Z'.repeat(65) }],
    ['props as an array', { ...valid, p: ['a'] }],
    ['six props', { ...valid, p: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } }],
    ['a prop key over 40 characters', { ...valid, p: { ['k'.repeat(41)]: 'v' } }],
    ['a prop value over 200 characters', { ...valid, p: { k: 'v'.repeat(201) } }],
    ['a prop value that is no string', { ...valid, p: { k: 1 } }],
  ])('%s', (_, data) => {
    expect(refused(data)).toEqual(expect.any(String));
  });
});
