/**
 * Where a console page's first load spends the main thread: loads one signed-in page
 * in Debian's Chromium with the CPU slowed down 4× (Lighthouse's mobile figure), records a CPU
 * profile from navigation until the page is idle, and prints self time by source module (through
 * the build's source maps) and by function, with each load's first and largest contentful paint
 * and how long the main thread was busy.
 *
 *   (cd apps/web && npx vite build --sourcemap --outDir /tmp/webmap --emptyOutDir)
 *   BENCH_WEB_ROOT=/tmp/webmap node --import tsx bench/profile-page.ts /dashboard
 *
 * Without source maps the figures are by chunk and minified name. BENCH_RUNS (3) profiles are
 * summed; BENCH_TOP (25) rows are printed per table.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import puppeteer from 'puppeteer-core';
import { SESSION_COOKIE } from '@rota/contract';
import { serveConsole } from './console-server.js';

const PAGE = process.argv[2] ?? '/dashboard';
const PORT = Number(process.env.BENCH_PORT ?? 3167);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TOP = Number(process.env.BENCH_TOP ?? 25);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 4000);
const WEB_ROOT =
  process.env.BENCH_WEB_ROOT ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url));

const server = await serveConsole({ port: PORT, webRoot: WEB_ROOT });
const { origin, token } = server;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

type Node = {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const maps = new Map<string, TraceMap | null>();
function mapOf(url: string): TraceMap | null {
  if (!maps.has(url)) {
    const file = path.join(WEB_ROOT, new URL(url).pathname + '.map');
    maps.set(url, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null);
  }
  return maps.get(url)!;
}

/**
 * BENCH_TASKS=1: also each main-thread task over 50 ms (between idle samples) of the last load,
 * with the console's own functions on its stacks by inclusive time: which components rendered.
 */
const TASKS = process.env.BENCH_TASKS === '1';
type Task = {
  start: number;
  ms: number;
  frames: Map<string, number>;
  modules: Map<string, number>;
};
let tasks: Task[] = [];

/**
 * BENCH_CALLERS=<function>: also the stacks (source-mapped, innermost first) under which that
 * function ran, by self time: who calls a hot library function.
 */
const CALLERS = process.env.BENCH_CALLERS;
const byStack = new Map<string, number>();

/** First and largest contentful paint of each load (ms from navigation, CPU slowed 4×). */
const paints: { fcp: number; lcp: number }[] = [];
const byModule = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
const add = (table: Map<string, number>, key: string, ms: number) =>
  table.set(key, (table.get(key) ?? 0) + ms);

try {
  await browser.setCookie({ name: SESSION_COOKIE, value: token, domain: '127.0.0.1', path: '/' });
  for (let run = 1; run <= RUNS; run++) {
    const tab = await browser.newPage();
    const cdp = await tab.createCDPSession();
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    // The live stream keeps a request open: the page counts as settled a few seconds after load.
    await tab.goto(`${origin}${PAGE}`, { waitUntil: 'load' });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    paints.push(
      await tab.evaluate(
        () =>
          new Promise<{ fcp: number; lcp: number }>((resolve) => {
            const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
            // The observer replays buffered entries: the last one is the final candidate.
            new PerformanceObserver((list) => {
              resolve({ fcp, lcp: list.getEntries().at(-1)?.startTime ?? NaN });
            }).observe({ type: 'largest-contentful-paint', buffered: true });
            setTimeout(() => resolve({ fcp, lcp: NaN }), 1000);
          }),
      ),
    );
    await tab.close();

    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parents.set(child, node.id);
    tasks = [];
    let current: Task | null = null;
    let clock = 0;
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const frame = nodes.get(id)!.callFrame;
      total += ms;
      clock += ms;
      if (TASKS) {
        if (frame.functionName === '(idle)') current = null;
        else {
          if (!current)
            tasks.push((current = { start: clock, ms: 0, frames: new Map(), modules: new Map() }));
          current.ms += ms;
          const seen = new Set<string>();
          for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
            const f = nodes.get(at)!.callFrame;
            if (!f.url.startsWith('http')) continue;
            const map = mapOf(f.url);
            const o = map
              ? originalPositionFor(map, { line: f.lineNumber + 1, column: f.columnNumber })
              : null;
            if (!o?.source?.includes('apps/web/src')) continue;
            const key = `${o.name ?? f.functionName} (${o.source.replace(/.*apps\/web\/src\//, '')})`;
            if (seen.has(key)) continue;
            seen.add(key);
            add(current.frames, key, ms);
          }
        }
      }
      const task: Task | null = current;
      if (!frame.url.startsWith('http')) {
        add(byModule, frame.functionName || '(native)', ms);
        if (task) add(task.modules, frame.functionName || '(native)', ms);
        return;
      }
      const map = mapOf(frame.url);
      const original = map
        ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber })
        : null;
      const source = (original?.source ?? path.basename(new URL(frame.url).pathname))
        .replace(/^.*node_modules\//, '')
        .replace(/^(\.\.\/)+/, '');
      const module = source.startsWith('@')
        ? source.split('/').slice(0, 2).join('/')
        : source.includes('src/')
          ? source
          : source.split('/')[0]!;
      add(byModule, module, ms);
      if (task) add(task.modules, module, ms);
      add(byFunction, `${original?.name ?? frame.functionName} (${source}:${original?.line})`, ms);
      if (CALLERS && (original?.name ?? frame.functionName) === CALLERS) {
        const stack: string[] = [];
        for (
          let at = parents.get(id);
          at !== undefined && stack.length < 10;
          at = parents.get(at)
        ) {
          const f = nodes.get(at)!.callFrame;
          if (!f.url.startsWith('http')) continue;
          const o = mapOf(f.url)
            ? originalPositionFor(mapOf(f.url)!, { line: f.lineNumber + 1, column: f.columnNumber })
            : null;
          const where = (o?.source ?? f.url)
            .replace(/^.*node_modules\//, '')
            .replace(/^(\.\.\/)+/, '');
          stack.push(`${o?.name ?? f.functionName} (${where}:${o?.line})`);
        }
        add(byStack, stack.join('\n            ← '), ms);
      }
    });
  }
} finally {
  await browser.close();
  await server.close();
}

const print = (title: string, table: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, ms] of [...table].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${(ms / RUNS).toFixed(1).padStart(8)} ms  ${key}`);
};
console.log(`${PAGE}: ${(total / RUNS).toFixed(0)} ms sampled per load (4× CPU slowdown)`);
const busy = total - (byModule.get('(idle)') ?? 0);
console.log(
  `main thread busy ${(busy / RUNS).toFixed(0)} ms per load; FCP ${paints.map((p) => p.fcp.toFixed(0)).join(' / ')} ms, LCP ${paints.map((p) => p.lcp.toFixed(0)).join(' / ')} ms`,
);
print('self time by module (per load)', byModule);
print('self time by function (per load)', byFunction);
if (CALLERS) print(`stacks under ${CALLERS} (per load)`, byStack);
if (TASKS) {
  console.log(
    '\ntasks over 50 ms in the last load (start ms, length ms, console functions inclusive)',
  );
  for (const task of tasks.filter((t) => t.ms > 50)) {
    console.log(`${task.start.toFixed(0).padStart(6)} ${task.ms.toFixed(0).padStart(5)}`);
    const modules = [...task.modules].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(
      `${' '.repeat(14)}self: ${modules.map(([m, ms]) => `${m} ${ms.toFixed(0)}`).join(', ')}`,
    );
    for (const [key, ms] of [...task.frames].sort((a, b) => b[1] - a[1]).slice(0, 8))
      console.log(`${' '.repeat(14)}${ms.toFixed(0).padStart(5)}  ${key}`);
  }
}
