// What a user agent tells analytics: whether it is a bot (dropped before storage, and never told),
// and the browser, operating system and device class kept with an event. The parsing itself is
// bowser's (npm:bowser@2.15.1, MIT; index.ts passes its `Bowser.parse` in), so this module stays
// pure and is unit-tested under Node with parse results as bowser gives them.
import type { AgentFields, DeviceClass } from './model.ts';

/** The parts of bowser's parse result read here. */
export interface ParsedAgent {
  browser?: { name?: string };
  os?: { name?: string };
  platform?: { type?: string };
}

export type ParseAgent = (userAgent: string) => ParsedAgent;

/**
 * Crawlers, preview fetchers, monitors, HTTP libraries and automated browsers. Plausible drops the
 * same kinds (UAInspector's bots and "Headless Chrome"); a user agent naming any of these is not a
 * person reading the page.
 */
const BOT_PATTERN = new RegExp(
  [
    'bot\\b',
    'bot[/_;-]',
    'crawl',
    'spider',
    'slurp',
    'headless',
    'phantomjs',
    'selenium',
    'webdriver',
    'puppeteer',
    'playwright',
    'lighthouse',
    'pagespeed',
    'gtmetrix',
    'pingdom',
    'uptime',
    'monitor',
    'preview',
    'facebookexternalhit',
    'embedly',
    'bingpreview',
    'mediapartners',
    'feedfetcher',
    'scrapy',
    '^curl/',
    '^wget',
    'python-requests',
    'python-urllib',
    'aiohttp',
    'httpx',
    'go-http-client',
    '^java/',
    'okhttp',
    'libwww',
    '^perl',
    '^ruby',
    '^php',
    'node-fetch',
    '^node',
    '^axios',
    '^undici',
    'postmanruntime',
    'insomnia',
    'httpie',
    '^deno/',
    '^bun/',
  ].join('|'),
  'i',
);

/** Anything shorter cannot be a browser's user agent. */
const MIN_BROWSER_AGENT = 10;

/**
 * True for a bot: an empty or tiny user agent, one matching BOT_PATTERN, or one bowser calls a
 * bot (platform type `bot`). A parse that fails counts as a bot: browsers' user agents parse.
 */
export function isBot(userAgent: string, parse: ParseAgent): boolean {
  const ua = userAgent.trim();
  if (ua.length < MIN_BROWSER_AGENT) return true;
  // Cubot is a phone maker whose models' names end up in Android user agents.
  if (BOT_PATTERN.test(ua.replace(/cubot/gi, ''))) return true;
  try {
    return parse(ua).platform?.type === 'bot';
  } catch {
    return true;
  }
}

const DEVICES: Record<string, DeviceClass> = {
  desktop: 'desktop',
  mobile: 'mobile',
  tablet: 'tablet',
};

/** At most this many characters of a browser's or system's name are kept. */
const NAME_MAX = 50;

const nameOf = (value: string | undefined) => value?.trim().slice(0, NAME_MAX) || null;

/** Browser, OS and device class of a (non-bot) user agent; null for what bowser cannot tell. */
export function agentFields(userAgent: string, parse: ParseAgent): AgentFields {
  let parsed: ParsedAgent;
  try {
    parsed = parse(userAgent);
  } catch {
    return { browser: null, os: null, device: null };
  }
  return {
    browser: nameOf(parsed.browser?.name),
    os: nameOf(parsed.os?.name),
    // TVs and unknown platforms get no class rather than a guess.
    device: DEVICES[parsed.platform?.type ?? ''] ?? null,
  };
}
