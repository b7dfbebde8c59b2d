/**
 * Child processes of bench/scale.ts: a TypeScript file run by this same Node with tsx, whose stdout
 * speaks one JSON object a line. Other lines go to stderr untouched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface JsonChild {
  process: ChildProcess;
  pid: number;
  /** The next JSON line; rejects if the process ends first. */
  next: () => Promise<Record<string, unknown>>;
  /** Every JSON line seen so far. */
  lines: Record<string, unknown>[];
  /** Writes one line to its stdin. */
  send: (line: string) => void;
  exited: Promise<number | null>;
}

export function benchFile(name: string) {
  return fileURLToPath(new URL(name, import.meta.url));
}

export function spawnJson(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  /** Node's own flags (a heap setting, say), before the script. */
  nodeFlags: string[] = [],
): JsonChild {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines: Record<string, unknown>[] = [];
  const waiting: {
    resolve: (line: Record<string, unknown>) => void;
    reject: (error: Error) => void;
  }[] = [];
  let read = 0;
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      for (const waiter of waiting.splice(0))
        waiter.reject(new Error(`${script} ended (${code}) before its next line`));
      resolve(code);
    }),
  );
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      process.stderr.write(`${text}\n`);
      return;
    }
    if (typeof line !== 'object' || line === null) return;
    lines.push(line as Record<string, unknown>);
    const waiter = waiting.shift();
    if (waiter) {
      read += 1;
      waiter.resolve(line as Record<string, unknown>);
    }
  });
  return {
    process: child,
    pid: child.pid!,
    lines,
    next: () => {
      if (read < lines.length) return Promise.resolve(lines[read++]!);
      if (ended) return Promise.reject(new Error(`${script} has ended`));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    send: (line) => child.stdin!.write(`${line}\n`),
    exited,
  };
}
