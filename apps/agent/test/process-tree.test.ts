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

/** Polls until `check` holds, with room for a loaded machine that is slow to start node. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const sizeOf = async (file: string) => (await stat(file).catch(() => null))?.size ?? 0;

/** Until the grandchild has written twice: it is running, and keeps on writing. */
async function untilTicking(file: string): Promise<void> {
  await until(async () => (await sizeOf(file)) >= 2, 'the grandchild to write');
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

    await killProcessTree(child.pid as number, { graceMs: 1_000 });
    await until(() => !isAlive(grandchild) && !isAlive(child.pid as number), 'the tree to end');
    // And, seen from what it did rather than from its pids: it writes no more.
    expect(await growsAfter(file, 400)).toBe(false);
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
      // The grace is real time the tree was given before SIGKILL.
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      // SIGKILL was sent as it returned; the tree ends a moment later.
      await until(() => !isAlive(grandchild) && !isAlive(child.pid as number), 'the tree to end');
      expect(await growsAfter(file, 400)).toBe(false);
    },
  );
});
