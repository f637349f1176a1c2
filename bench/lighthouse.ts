// Benchmark (not a test): Lighthouse on the public site's production build, mobile and desktop,
// for `/`, `/pricing`, `/blog` and `/docs`. Targets (docs/PERFORMANCE.md, "Public site"): mobile
// performance ≥ 95, CLS < 0.05, accessibility and SEO 100, and ≤ 150 KB of gzipped JavaScript
// loaded by `/` (the bundle budget test checks the last one in CI).
//
// Starts a seeded local stack on free ports (the blog reads its posts from it), builds the site
// against it and serves the build with `vite preview`, as a static host would. Lighthouse (from
// npm) drives Debian's Chromium (CHROME_PATH, default /usr/bin/chromium); each page and form
// factor runs RUNS times (LH_RUNS) and the run with the median performance score is reported.
// Baseline from the same run: a static page with no JavaScript served by the same server, i.e.
// what this machine and Lighthouse's throttling give a page that has nothing to run.
// "JS (gzip)" is every script the page downloaded, gzipped from the build folder.
//
//   npm run bench:lighthouse          (a few minutes)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { freePorts, startStack } from '../local-stack/stack.ts';
import { serveSite } from '../tests/e2e/site-server.ts';
import {
  entryJs,
  gzipSizes,
  HOME_JS_BUDGET_BYTES,
  HOME_JS_TARGET_BYTES,
  kb,
} from '../scripts/bundle-size.ts';
import { machineSummary, writeSection } from './report.ts';

const RUNS = Number(process.env.LH_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = ['/', '/pricing', '/blog', '/docs'];
const BASELINE = '/lighthouse-baseline.html';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const BASELINE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="description" content="A static page with no JavaScript, for comparison." />
    <title>Baseline</title>
  </head>
  <body>
    <main><h1>Baseline</h1><p>A static page with no JavaScript, served by the same server.</p></main>
  </body>
</html>
`;

interface Result {
  scores: Record<(typeof CATEGORIES)[number], number>;
  tbtMs: number;
  lcpMs: number;
  cls: number;
  jsGzipBytes: number;
}

type FormFactor = 'mobile' | 'desktop';

let lighthouseVersion = '';

interface NetworkItem {
  url: string;
  resourceType?: string;
}

async function audit(
  url: string,
  port: number,
  formFactor: FormFactor,
  distDir: string,
  origin: string,
): Promise<Result> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  };
  // No config is Lighthouse's default: a mid-range phone on slow 4G (simulated throttling).
  const config = formFactor === 'desktop' ? (desktopConfig as Config) : undefined;
  const result = await lighthouse(url, flags, config);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}.`);
  const { lhr } = result;
  lighthouseVersion = lhr.lighthouseVersion;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const score = (name: (typeof CATEGORIES)[number]) =>
    Math.round((lhr.categories[name]?.score ?? 0) * 100);
  const numeric = (name: string) => lhr.audits[name]?.numericValue ?? NaN;
  const requests = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] })?.items ??
    []) as NetworkItem[];
  const scripts = requests
    .filter((r) => r.resourceType === 'Script' && r.url.startsWith(origin))
    .map((r) => new URL(r.url).pathname.replace(/^\//, ''));
  const js = await gzipSizes(distDir, [...new Set(scripts)]);
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    tbtMs: numeric('total-blocking-time'),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    jsGzipBytes: js.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}

/** The run with the median performance score (ties: the lower TBT). */
function median(results: Result[]): Result {
  const sorted = [...results].sort(
    (a, b) => a.scores.performance - b.scores.performance || b.tbtMs - a.tbtMs,
  );
  return sorted[Math.floor(sorted.length / 2)];
}

function row(page: string, formFactor: FormFactor, r: Result): string {
  const s = r.scores;
  return `| ${page} | ${formFactor} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.seo} | ${Math.round(r.tbtMs)} ms | ${(r.lcpMs / 1000).toFixed(2)} s | ${r.cls.toFixed(3)} | ${kb(r.jsGzipBytes)} |`;
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-lighthouse-'));
  const distDir = path.join(dataDir, 'dist');
  const [api, db, mailWeb, smtp] = await freePorts(4);
  const stack = await startStack({
    dataDir: path.join(dataDir, 'stack'),
    ports: { api, db, mailWeb, smtp },
  });
  let site: Awaited<ReturnType<typeof serveSite>> | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    site = await serveSite(stack.settings.apiUrl, stack.settings.anonKey, { outDir: distDir });
    await writeFile(path.join(distDir, BASELINE.slice(1)), BASELINE_HTML);
    const home = await entryJs(distDir);
    chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const lines = [
      '| page | device | performance | accessibility | best practices | SEO | TBT | LCP | CLS | JS (gzip) |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    const failures: string[] = [];
    for (const page of [...PAGES, BASELINE]) {
      for (const formFactor of ['mobile', 'desktop'] as const) {
        const results: Result[] = [];
        for (let i = 0; i < RUNS; i++) {
          results.push(await audit(site.url + page, chrome.port, formFactor, distDir, site.url));
        }
        const r = median(results);
        const label = page === BASELINE ? 'baseline: static page, no JS' : `\`${page}\``;
        lines.push(row(label, formFactor, r));
        console.log(lines.at(-1));
        if (page === BASELINE) continue;
        if (formFactor === 'mobile' && r.scores.performance < 95)
          failures.push(`${page} mobile performance ${r.scores.performance} < 95`);
        if (r.cls >= 0.05) failures.push(`${page} ${formFactor} CLS ${r.cls.toFixed(3)} ≥ 0.05`);
        if (r.scores.accessibility < 100)
          failures.push(`${page} ${formFactor} accessibility < 100`);
        if (r.scores.seo < 100) failures.push(`${page} ${formFactor} SEO < 100`);
      }
    }
    if (home.totalBytes > HOME_JS_TARGET_BYTES) {
      failures.push(`/ JavaScript ${kb(home.totalBytes)} > ${kb(HOME_JS_TARGET_BYTES)}`);
    }
    const homeLine = `JavaScript loaded by \`/\` (entry, its static imports and the start-up chunk src/main.tsx imports, from the build manifest): **${kb(home.totalBytes)}** gzipped in ${home.files.length} files; target ${kb(HOME_JS_TARGET_BYTES)}, CI ceiling ${kb(HOME_JS_BUDGET_BYTES)} (tests/build/bundle-budget.test.ts).`;
    console.log(homeLine);
    await writeSection(
      'lighthouse',
      'Public site: Lighthouse and bundle size',
      machineSummary(),
      [
        ...lines,
        '',
        homeLine,
        '',
        failures.length ? `Missed: ${failures.join('; ')}.` : 'Every target met.',
      ],
      [
        `Lighthouse ${lighthouseVersion} with Chromium, default mobile (simulated slow 4G, 4× CPU slowdown) and desktop configs; median of ${RUNS} runs by performance score.`,
        `Load average (1 min) at the end: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores (TBT is measured on the real main thread, so other work on the machine inflates it; the baseline row is from the same run).`,
      ],
    );
  } finally {
    await chrome?.kill();
    await site?.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
