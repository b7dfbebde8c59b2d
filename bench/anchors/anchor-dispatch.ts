/**
 * Runs one anchor of bench/scale.ts's dispatch race (bench/anchors/pg-boss.ts or
 * graphile-worker.ts) in a fresh database: the anchor queues its jobs, then PostgreSQL's CPU is
 * read around its "go" … "done" while its connections are still open.
 */
import { benchFile, spawnJson } from '../child-json.js';
import { PostgresCpuMeter } from '../process-cpu.js';
import type { DispatchFigures } from '../rota-dispatch.js';
import { createScratchDatabase } from '../scratch-database.js';

export async function anchorDispatch(
  serverUrl: string,
  anchor: 'pg-boss' | 'graphile-worker',
  options: { runs: number; workers: number },
): Promise<DispatchFigures & { settings: string }> {
  const scratch = await createScratchDatabase(serverUrl, `rota_scale_${anchor.replace('-', '_')}`);
  const child = spawnJson(benchFile(`./anchors/${anchor}.ts`), [
    JSON.stringify({ url: scratch.url, runs: options.runs, workers: options.workers }),
  ]);
  try {
    const ready = (await child.next()) as { settings: string };
    const postgres = new PostgresCpuMeter(scratch.name);
    child.send('go');
    const done = (await child.next()) as { jobs: number; seconds: number; cpuMs: number };
    const postgresCpuMs = postgres.elapsedMs();
    child.send('exit');
    const code = await child.exited;
    if (code !== 0) throw new Error(`${anchor} ended with ${code}`);
    return {
      jobs: done.jobs,
      seconds: done.seconds,
      workerCpuMs: done.cpuMs,
      postgresCpuMs,
      agentsCpuMs: null,
      settings: ready.settings,
    };
  } finally {
    if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await child.exited;
    await scratch.drop();
  }
}
