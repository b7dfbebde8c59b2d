import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS } from '../src/lib/heap-tuning.js';

describe('the heap policy main.ts sets', () => {
  // v8.setFlagsFromString ignores a flag it does not know: a Node whose V8 renamed one would
  // silently run with the defaults again. On the command line an unknown flag stops node.
  it('names flags this Node’s V8 knows', () => {
    const run = spawnSync(process.execPath, [...HEAP_FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('does not pass for a flag V8 does not know', () => {
    const run = spawnSync(process.execPath, ['--no-such-heap-flag', '-e', '0'], {
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
  });
});
