/**
 * A server's live heap, from a heap snapshot it writes on a signal (`--heapsnapshot-signal`):
 * V8 collects garbage in full before it writes one, so the snapshot's objects are what is live,
 * a figure that does not move with when the last collection ran (RSS does, by tens of MB).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** The Node flags that make a server write a snapshot into `dir` on SIGUSR2. */
export function heapSnapshotFlags(dir: string): string[] {
  return ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`];
}

/** Signals `pid` and waits for its snapshot in `dir`; answers the live heap's bytes. */
export async function liveHeapBytes(pid: number, dir: string): Promise<number> {
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 120_000;
  let file: string | undefined;
  let size = -1;
  // The server writes the file while it is stopped; it is whole once its size holds for 1 s.
  for (;;) {
    if (Date.now() > deadline) throw new Error('no heap snapshot within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    file ??= readdirSync(dir).find((name) => name.endsWith('.heapsnapshot'));
    if (!file) continue;
    const now = statSync(path.join(dir, file)).size;
    if (now > 0 && now === size) break;
    size = now;
  }
  const at = path.join(dir, file);
  const snapshot = JSON.parse(readFileSync(at, 'utf8')) as {
    snapshot: { meta: { node_fields: string[] } };
    nodes: number[];
  };
  rmSync(at);
  const fields = snapshot.snapshot.meta.node_fields;
  const selfSize = fields.indexOf('self_size');
  let bytes = 0;
  for (let i = selfSize; i < snapshot.nodes.length; i += fields.length) bytes += snapshot.nodes[i]!;
  return bytes;
}
