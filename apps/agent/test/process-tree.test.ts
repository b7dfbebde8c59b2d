import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killProcessTree, killProcessTreeNow } from '../src/process-tree.js';
import { tempDir } from './helpers/archives.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
const started: number[] = [];
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  // A failed test must not leave its tree running.
  for (const pid of started.splice(0)) killProcessTreeNow(pid);
  await rm(dir, { recursive: true, force: true });
});

/** A child that starts a grandchild appending to `file` every 100 ms, then waits forever. */
function startTree(file: string, ignoreTerm: boolean) {
  const grandchild = `
    const fs = require('node:fs');
    ${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''}
    setInterval(() => fs.appendFileSync(${JSON.stringify(file)}, 'x'), 100);
  `;
  const child = `
    const { spawn } = require('node:child_process');
    ${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''}
    const g = spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' });
    console.log(g.pid);
    setInterval(() => {}, 1000);
  `;
  const tree = spawn(process.execPath, ['-e', child], {
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'inherit'],
    windowsHide: true,
  });
  if (tree.pid !== undefined) started.push(tree.pid);
  return tree;
}

async function grandchildPid(child: ReturnType<typeof startTree>): Promise<number> {
  return new Promise((resolve) => {
    child.stdout?.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
}

/** Waits (a loaded machine may be slow to start node) until the grandchild writes. */
async function untilTicking(file: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await stat(file).catch(() => null))) {
    if (Date.now() > deadline) throw new Error('the grandchild never wrote');
    await sleep(50);
  }
}

async function growsAfter(file: string, ms: number): Promise<boolean> {
  const before = (await stat(file)).size;
  await sleep(ms);
  return (await stat(file)).size > before;
}

/** A zombie counts as gone: where PID 1 does not reap orphans (containers) they linger. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('killProcessTree', () => {
  it('ends the child and its grandchild', async () => {
    const file = path.join(dir, 'ticks.txt');
    const child = startTree(file, false);
    const grandchild = await grandchildPid(child);
    await untilTicking(file);
    expect(await growsAfter(file, 300)).toBe(true);

    await killProcessTree(child.pid as number, { graceMs: 1_000 });
    await sleep(150);
    expect(await growsAfter(file, 400)).toBe(false);
    expect(isAlive(grandchild)).toBe(false);
    expect(isAlive(child.pid as number)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')(
    'follows with SIGKILL when the tree ignores SIGTERM',
    async () => {
      const file = path.join(dir, 'ticks.txt');
      const child = startTree(file, true);
      const grandchild = await grandchildPid(child);
      await untilTicking(file);
      const started = Date.now();
      await killProcessTree(child.pid as number, { graceMs: 500 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      await sleep(150);
      expect(await growsAfter(file, 400)).toBe(false);
      expect(isAlive(grandchild)).toBe(false);
    },
  );
});
