import { describe, expect, it } from 'vitest';
import { unstorablePaths } from '../src/common.js';

describe('unstorablePaths', () => {
  it('finds NUL in strings and keys, in the order of the document', () => {
    const value = { a: 'ok', b: ['x\u0000', { 'k\u0000': 1, c: 'y\u0000' }], d: 'z\u0000' };
    expect(unstorablePaths(value, ['body'])).toEqual([
      ['body', 'b', 0],
      ['body', 'b', 1, 'k\uFFFD'],
      ['body', 'b', 1, 'c'],
      ['body', 'd'],
    ]);
  });

  it('walks a value nested far deeper than the call stack allows', () => {
    let value: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) value = i % 2 ? { a: value } : [value];
    const [found, ...rest] = unstorablePaths(value);
    expect(rest).toEqual([]);
    expect(found).toHaveLength(100_000);
  });
});
