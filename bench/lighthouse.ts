/**
 * Lighthouse on the built console: sign-in, dashboard and robots, mobile and desktop,
 * each run twice on a cold cache; prints performance and accessibility scores and LCP as a
 * Markdown table for docs/performance.md.
 *
 *   npm run build && node --import tsx bench/lighthouse.ts
 *
 * The app runs in this process on an in-memory PGlite with the seeded admin, serving
 * apps/web/dist (precompressed files included) on 127.0.0.1:$BENCH_PORT (3166). Chromium is
 * Debian's (/usr/bin/chromium, CHROME_PATH overrides). Signed-in pages get the session cookie the
 * console keeps (SESSION_COOKIE) set through puppeteer before Lighthouse loads them; Lighthouse
 * clears caches and storage between runs but not cookies. Mobile uses Lighthouse's default
 * (simulated slow 4G, 4× CPU slowdown, Moto G Power screen), desktop its desktop config.
 * BENCH_RUNS changes the run count, BENCH_PAGES the pages (comma-separated names), BENCH_FORMS
 * the form factors (mobile,desktop); BENCH_SAVE=<dir> keeps each run's full report (JSON).
 * BENCH_THROTTLING=devtools throttles the network and CPU for real while the page loads instead of
 * simulating them afterwards (Lighthouse's `throttlingMethod`): slower, but it shows whether a
 * change helps a real phone or only the simulation's model of one.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Page } from 'puppeteer-core';
import { SESSION_COOKIE } from '@rota/contract';
import { serveConsole } from './console-server.js';
import { SIGN_IN_PATH } from '../apps/web/src/lib/paths.js';

const PORT = Number(process.env.BENCH_PORT ?? 3166);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const WEB_ROOT =
  process.env.BENCH_WEB_ROOT ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const PAGES = [
  { name: 'sign-in', path: SIGN_IN_PATH, signedIn: false },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'robots', path: '/robot', signedIn: true },
].filter(
  (page) => !process.env.BENCH_PAGES || process.env.BENCH_PAGES.split(',').includes(page.name),
);
const FORM_FACTORS = [
  { name: 'mobile', config: undefined as Config | undefined },
  { name: 'desktop', config: desktopConfig as Config },
].filter(
  (form) => !process.env.BENCH_FORMS || process.env.BENCH_FORMS.split(',').includes(form.name),
);

const server = await serveConsole({ port: PORT, webRoot: WEB_ROOT });
const { origin, token, label } = server;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
const chromium = await browser.version();

/** One Lighthouse run; Chromium now and then loses a trace (NO_NAVSTART): that run is redone. */
async function measure(url: string, config: Config | undefined, tab: Page, attempt = 1) {
  const flags: Flags = {
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance', 'accessibility'],
    ...(process.env.BENCH_THROTTLING === 'devtools'
      ? { throttlingMethod: 'devtools' as const }
      : {}),
  };
  const lhr = (await lighthouse(url, flags, config, tab))?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (!lhr.runtimeError) return lhr;
  if (attempt >= 3) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  console.error(`${url}: ${lhr.runtimeError.code}, measuring again`);
  return measure(url, config, tab, attempt + 1);
}

type Row = { page: string; form: string; run: number; perf: number; a11y: number; lcp: number };
const rows: Row[] = [];

try {
  for (const form of FORM_FACTORS) {
    for (const page of PAGES) {
      for (let run = 1; run <= RUNS; run++) {
        const tab = await browser.newPage();
        const cookie = { name: SESSION_COOKIE, value: token, domain: '127.0.0.1', path: '/' };
        if (page.signedIn) await browser.setCookie(cookie);
        else await browser.deleteCookie(...(await browser.cookies()));
        const lhr = await measure(`${origin}${page.path}`, form.config, tab);
        await tab.close();
        if (process.env.BENCH_SAVE) {
          const file = `${process.env.BENCH_SAVE}/${form.name}-${page.name}-${run}.json`;
          writeFileSync(file, JSON.stringify(lhr));
        }
        // A page that redirected (signed-in page to sign-in, a renamed path to not-found) would
        // measure the wrong page.
        if (new URL(lhr.finalDisplayedUrl).pathname !== page.path)
          throw new Error(`${page.name} ended on ${lhr.finalDisplayedUrl}`);
        const row = {
          page: page.name,
          form: form.name,
          run,
          perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
          lcp: (lhr.audits['largest-contentful-paint']?.numericValue ?? NaN) / 1000,
        };
        rows.push(row);
        console.error(
          `${form.name} ${page.name} #${run}: performance ${row.perf}, accessibility ${row.a11y}, LCP ${row.lcp.toFixed(1)} s`,
        );
      }
    }
  }
} finally {
  await browser.disconnect();
  chrome.kill();
  await server.close();
}

const range = (values: number[], digits = 0) => {
  const low = Math.min(...values).toFixed(digits);
  const high = Math.max(...values).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
};
console.log(
  `\n${new Date().toISOString().slice(0, 10)}; ${os.cpus().length} × ${os.cpus()[0]?.model}; ` +
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ` +
    `Node ${process.version}; ${chromium}; ${label}; ` +
    `Lighthouse 12.8.2, ${RUNS} runs each\n`,
);
console.log('| page | form factor | performance | accessibility | LCP (s) |');
console.log('| ---- | ----------- | ----------- | ------------- | ------- |');
for (const form of FORM_FACTORS) {
  for (const page of PAGES) {
    const mine = rows.filter((row) => row.form === form.name && row.page === page.name);
    console.log(
      `| ${page.name} | ${form.name} | ${range(mine.map((r) => r.perf))} | ` +
        `${range(mine.map((r) => r.a11y))} | ${range(
          mine.map((r) => r.lcp),
          1,
        )} |`,
    );
  }
}
