import { describe, expect, it } from 'vitest';
import { JsonDepthScan, MAX_JSON_DEPTH, nestsDeeperThan } from '../src/http/json-body.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('the JSON depth scan', () => {
  it('lets the limit through and refuses one level more, arrays and objects alike', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('counts depth, not brackets: siblings at the limit pass', () => {
    const wide = `[${Array.from({ length: 1000 }, () => nested(MAX_JSON_DEPTH - 1)).join(',')}]`;
    expect(nestsDeeperThan(wide)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ text: '['.repeat(5000) }))).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: `\\"${'{'.repeat(5000)}\\` }))).toBe(false);
    // A string ending in a backslash closes: the brackets after it count.
    expect(nestsDeeperThan(`["\\\\",${nested(MAX_JSON_DEPTH)}]`)).toBe(true);
  });

  it('reads a text fed in pieces as the whole, an escape split across two pieces included', () => {
    const text = `["${'\\"'.repeat(3)}${'['.repeat(200)}",${nested(MAX_JSON_DEPTH - 1)}]`;
    expect(nestsDeeperThan(text)).toBe(false);
    for (const size of [1, 2, 3, 7]) {
      const scan = new JsonDepthScan();
      let deep = false;
      for (let i = 0; i < text.length; i += size) deep ||= scan.feed(text.slice(i, i + size));
      expect(deep).toBe(false);
      // One more level at the end tips it, in bytes as in text.
      const bytes = Buffer.from(`[${text}]`);
      const byBytes = new JsonDepthScan();
      let tipped = false;
      for (let i = 0; i < bytes.length; i += size) {
        tipped ||= byBytes.feed(bytes.subarray(i, i + size));
      }
      expect(tipped).toBe(true);
    }
  });

  it('reads multi-byte characters as what they are not: quotes or brackets', () => {
    expect(nestsDeeperThan(JSON.stringify({ ['ação'.repeat(10)]: '「[」'.repeat(100) }))).toBe(
      false,
    );
    expect(new JsonDepthScan().feed(Buffer.from(JSON.stringify(['€'.repeat(100), '[['])))).toBe(
      false,
    );
  });
});
