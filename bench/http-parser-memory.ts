/**
 * What one HTTP parser costs in native memory on the running Node (the agent fleet's memory): Node's
 * HTTP server gives every open connection a parser of its own and keeps it while the connection
 * stays open, so at 20,000 agents this cost is paid 20,000 times. Reads RSS around creating
 * BENCH_PARSERS (10,000) parsers, then around initializing them as the server does.
 *
 *   node --expose-internals --expose-gc --import tsx bench/http-parser-memory.ts
 *
 * `--expose-internals` is needed: the parser is Node's internal binding, not a public API.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const COUNT = Number(process.env.BENCH_PARSERS ?? 10_000);
const require = createRequire(import.meta.url);
const { internalBinding } = require('internal/test/binding') as {
  internalBinding: (name: 'http_parser') => {
    HTTPParser: { new (): { initialize: (...args: unknown[]) => void }; REQUEST: number };
  };
};
const { HTTPParser } = internalBinding('http_parser');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const rssKb = () =>
  Number(/Rss:\s+(\d+)/.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))![1]);

gc();
const start = rssKb();
const parsers = Array.from({ length: COUNT }, () => new HTTPParser());
gc();
const created = rssKb();
for (const parser of parsers) parser.initialize(HTTPParser.REQUEST, {}, 0, 0);
const initialized = rssKb();
console.log(
  JSON.stringify({
    node: process.version,
    parsers: COUNT,
    kbEachCreated: Number(((created - start) / COUNT).toFixed(2)),
    kbEachInitialized: Number(((initialized - created) / COUNT).toFixed(2)),
  }),
);
