// @vitest-environment node
// Bot detection and the fields kept of a user agent, over parse results shaped as bowser 2.15.1
// gives them (tests/endpoint/analytics-collect.test.ts runs the real bowser inside the function).
import { describe, expect, it } from 'vitest';
import { agentFields, isBot, type ParsedAgent } from './user-agent.ts';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CUBOT_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; CUBOT_X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

/** A parser that answers a browser for every agent, as bowser does for ordinary browsers. */
const browserParse = (result: ParsedAgent) => () => result;
const desktopChrome = browserParse({
  browser: { name: 'Chrome' },
  os: { name: 'Windows' },
  platform: { type: 'desktop' },
});

describe('bots', () => {
  it.each([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['Bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
    [
      'headless Chrome',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    ],
    ['curl', 'curl/8.5.0'],
    ['wget', 'Wget/1.21.4'],
    ['python-requests', 'python-requests/2.32.3'],
    ['Go', 'Go-http-client/2.0'],
    ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
    ['a crawler', 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)'],
    ['a spider', 'Baiduspider+(+http://www.baidu.com/search/spider.htm)'],
    ['a link preview', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
    ['Lighthouse', `${CHROME_WINDOWS} Chrome-Lighthouse`],
    ['GPTBot', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2'],
  ])('%s is a bot', (_, ua) => {
    expect(isBot(ua, desktopChrome)).toBe(true);
  });

  it('an empty or tiny user agent is a bot', () => {
    expect(isBot('', desktopChrome)).toBe(true);
    expect(isBot('   ', desktopChrome)).toBe(true);
    expect(isBot('Mozilla', desktopChrome)).toBe(true);
  });

  it("bowser's platform type `bot` is a bot, and so is an agent it cannot parse", () => {
    expect(
      isBot('Mozilla/5.0 (compatible; SomeNewCrawlr)', browserParse({ platform: { type: 'bot' } })),
    ).toBe(true);
    expect(
      isBot(CHROME_WINDOWS, () => {
        throw new Error("UserAgent parameter can't be empty");
      }),
    ).toBe(true);
  });

  it('browsers are not bots, a Cubot phone included', () => {
    expect(isBot(CHROME_WINDOWS, desktopChrome)).toBe(false);
    expect(isBot(SAFARI_IPHONE, browserParse({ platform: { type: 'mobile' } }))).toBe(false);
    expect(isBot(CUBOT_ANDROID, browserParse({ platform: { type: 'mobile' } }))).toBe(false);
  });
});

describe('what is kept of a user agent', () => {
  it('the browser, the system and the device class', () => {
    expect(agentFields(CHROME_WINDOWS, desktopChrome)).toEqual({
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
    });
    expect(
      agentFields(
        SAFARI_IPHONE,
        browserParse({
          browser: { name: 'Safari' },
          os: { name: 'iOS' },
          platform: { type: 'mobile' },
        }),
      ),
    ).toEqual({ browser: 'Safari', os: 'iOS', device: 'mobile' });
  });

  it('no class for a TV or an unknown platform, nothing when parsing fails', () => {
    expect(
      agentFields('x'.repeat(20), browserParse({ platform: { type: 'tv' } })).device,
    ).toBeNull();
    expect(agentFields('x'.repeat(20), browserParse({}))).toEqual({
      browser: null,
      os: null,
      device: null,
    });
    expect(
      agentFields('x'.repeat(20), () => {
        throw new Error('no');
      }),
    ).toEqual({ browser: null, os: null, device: null });
  });

  it('cuts long names', () => {
    expect(
      agentFields(CHROME_WINDOWS, browserParse({ browser: { name: 'B'.repeat(80) } })).browser,
    ).toHaveLength(50);
  });
});
