/**
 * Rota's side of bench/scale.ts's dispatch race: a fresh database with `runs` executions queued,
 * `instances` Rota servers (bench/rota-server.ts, one process each) and `workers` simulated agents
 * (bench/engine-agents.ts's throughput phase, used as it is) split evenly between the instances.
 * BENCH_AGENTS_SCRIPT names another agents script taking the same JSON job (say, an older copy of
 * engine-agents.ts, to compare two ways of claiming in one sitting). BENCH_ROTA_SETUP_SQL runs on
 * the seeded database before the servers start (to measure a schema change before writing its
 * migration: dropping an index or a constraint, say). The agents speak the agent stream (one
 * WebSocket each) as this version's agent does; BENCH_TRANSPORT=http makes every call over HTTP.
 */
import { sql } from 'drizzle-orm';
import { openPostgres } from '../apps/server/src/db/client.js';
import { benchFile, spawnJson, type JsonChild } from './child-json.js';
import { PostgresCpuMeter, processCpuMs } from './process-cpu.js';
import { startScriptNodeFlags } from './production-server.js';
import { createScratchDatabase } from './scratch-database.js';
import { seedFleet } from './seed-fleet.js';

export interface DispatchFigures {
  jobs: number;
  seconds: number;
  /** Server processes (the contender's own side). */
  workerCpuMs: number;
  postgresCpuMs: number;
  /** The simulated agents (load generator), when they said it. */
  agentsCpuMs: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function rotaDispatch(
  serverUrl: string,
  options: {
    instances: number;
    runs: number;
    workers: number;
    /** engine-agents' variant: runs an agent holds at once, or `classic` (claim, then finish). */
    variant: string;
  },
): Promise<DispatchFigures> {
  const scratch = await createScratchDatabase(serverUrl, 'rota_scale_rota');
  const database = await openPostgres(scratch.url, 2);
  const servers: JsonChild[] = [];
  try {
    const { db } = database;
    const rows = async <T>(statement: ReturnType<typeof sql>) =>
      ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
    const { clientId, tokens } = await seedFleet(database, {
      agents: options.workers,
      name: 'Bench',
    });
    const [robot] = await rows<{ id: number }>(
      sql`insert into rota_robots (rota_clients_id, name, executor) values (${clientId}, 'Bench robot', 'node main.js') returning rota_robots_id as id`,
    );
    await db.execute(
      sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
          select ${clientId}, ${robot!.id}, 'manual', 50, 300 from generate_series(1, ${options.runs})`,
    );
    if (process.env.BENCH_ROTA_SETUP_SQL)
      await db.execute(sql.raw(process.env.BENCH_ROTA_SETUP_SQL));
    await db.execute(sql`analyze`);

    for (let i = 0; i < options.instances; i++)
      // With the Node flags npm start gives the server (its young generation's size).
      servers.push(
        spawnJson(benchFile('./rota-server.ts'), [scratch.url], {}, startScriptNodeFlags()),
      );
    const addresses = await Promise.all(servers.map(async (s) => (await s.next()).address));

    const serverCpu = () => servers.reduce((sum, s) => sum + (processCpuMs(s.pid) ?? 0), 0);
    const serverStart = serverCpu();
    const postgres = new PostgresCpuMeter(scratch.name);

    // Agents split evenly; each agents process stops at its share, and whichever finishes first
    // leaves the rest of the queue to the other: a process that comes up short is stopped once
    // the database says every execution has ended.
    const agents = addresses.map((address, i) => {
      const mine = tokens.filter((_, t) => t % options.instances === i);
      const share =
        Math.floor(options.runs / options.instances) +
        (i < options.runs % options.instances ? 1 : 0);
      return spawnJson(process.env.BENCH_AGENTS_SCRIPT ?? benchFile('./engine-agents.ts'), [
        JSON.stringify({
          address,
          phase: 'throughput',
          tokens: mine,
          adminToken: '',
          robotId: robot!.id,
          seconds: 0,
          runs: share,
          slots: options.variant === 'classic' ? 1 : Number(options.variant),
          classic: options.variant === 'classic',
          // As this version's agent: on the stream, unless BENCH_TRANSPORT=http.
          stream: process.env.BENCH_TRANSPORT !== 'http',
        }),
      ]);
    });
    const open = async () =>
      Number(
        (
          await rows<{ open: string }>(
            sql`select count(*) as open from rota_executions where ended_at is null`,
          )
        )[0]!.open,
      );
    await Promise.race(agents.map((a) => a.exited));
    while ((await open()) > 0) {
      if (agents.every((a) => a.process.exitCode !== null)) break;
      await sleep(50);
    }
    const settled = Promise.all(agents.map((a) => a.exited));
    if ((await Promise.race([settled, sleep(1500).then(() => 'late')])) === 'late')
      for (const a of agents) if (a.process.exitCode === null) a.process.kill('SIGTERM');
    const codes = await settled;

    const postgresCpuMs = postgres.elapsedMs();
    const serverEnd = serverCpu();
    const [done] = await rows<{ jobs: string; open: string; seconds: string }>(
      sql`select count(*) filter (where ended_at is not null and status = 'success') as jobs,
                 count(*) filter (where ended_at is null) as open,
                 extract(epoch from max(ended_at) - min(started_at)) as seconds
            from rota_executions`,
    );
    if (Number(done!.open) > 0)
      throw new Error(`Rota: ${done!.open} executions still open (agents exited ${codes})`);
    const said = agents.map(
      (a) => a.lines.at(-1) as { clientCpuPercent?: number; seconds?: number },
    );
    const agentsCpuMs = said.every((s) => s?.clientCpuPercent !== undefined && s.seconds)
      ? said.reduce((sum, s) => sum + (s.clientCpuPercent! / 100) * s.seconds! * 1000, 0)
      : null;
    return {
      jobs: Number(done!.jobs),
      seconds: Number(done!.seconds),
      workerCpuMs: serverEnd - serverStart,
      postgresCpuMs,
      agentsCpuMs,
    };
  } finally {
    for (const s of servers) s.process.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await database.close();
    await scratch.drop();
  }
}
