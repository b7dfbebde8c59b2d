import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAgent } from '../../server/test/helpers/engine.js';
import { createRobot } from '../../server/test/helpers/robots.js';
import { createAgent, createVm } from '../../server/test/helpers/vms.js';
import { rotaOn, serve, type Served } from './helpers/server.js';

/** Robots, runs and their logs from scripts, against the real server over HTTP. */

let s: Served;
let agent: ReturnType<typeof simulatedAgent>;
let robotId: number;

beforeAll(async () => {
  s = await serve();
  robotId = await createRobot(s.admin, 'Invoice Bot');
  await createRobot(s.admin, 'Invoice Bot Two');
  const vm = await createVm(s.admin, 'CLI VM');
  agent = simulatedAgent(s.t.app, (await createAgent(s.admin, 'CLI Agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
afterAll(() => s?.close());

/** The agent takes the next queued run (its claim waits for one to be queued). */
async function claimNext() {
  for (;;) {
    const run = await agent.claim(5);
    if (run) return run;
  }
}

describe('rota robots list', () => {
  it('prints an aligned table of the client’s robots, and their JSON with --json', async () => {
    const plain = await rotaOn(s, ['robots', 'list']);
    expect(plain.code, plain.stderr).toBe(0);
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+ACTIVE\s+VERSION\s+EXECUTOR$/);
    expect(lines.find((l) => l.includes('Invoice Bot '))).toMatch(
      new RegExp(`^${robotId}\\s+Invoice Bot\\s+yes\\s+-\\s+node main.js$`),
    );
    // Columns line up: every row's NAME starts where the header's does.
    const column = lines[0]!.indexOf('NAME');
    for (const line of lines.slice(1)) expect(line[column - 1]).toBe(' ');
    const json = await rotaOn(s, ['robots', 'list', '--json']);
    expect(json.code).toBe(0);
    const robots = JSON.parse(json.stdout) as { name: string }[];
    expect(robots.map((r) => r.name).sort()).toEqual(['Invoice Bot', 'Invoice Bot Two']);
  });
});

describe('rota run', () => {
  it('queues a run by exact name and prints its id; an unknown robot exits 3', async () => {
    const started = await rotaOn(s, ['run', 'Invoice Bot']);
    expect(started.code, started.stderr).toBe(0);
    const id = Number(started.stdout.trim());
    const shown = await rotaOn(s, ['runs', 'show', String(id), '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ execution_id: id, rota_robots_id: robotId });
    const run = await claimNext();
    expect(run.execution_id).toBe(id);
    await agent.finish(run.execution_id, run.attempt, 'success', 0);

    const unknown = await rotaOn(s, ['run', 'Invoice']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('No robot named "Invoice"');
    expect((await rotaOn(s, ['run', '999999'])).code).toBe(3);
  });

  it('--wait exits 0 when the run succeeds, after queueing --task-data in the robot’s queue', async () => {
    const waiting = rotaOn(s, [
      'run',
      String(robotId),
      '--wait',
      '--interval',
      '0.05',
      '--task-data',
      '{"invoice":42}',
    ]);
    const run = await claimNext();
    await agent.logs(run.execution_id, run.attempt, ['reading invoice 42', 'done']);
    await agent.finish(run.execution_id, run.attempt, 'success', 0);
    const done = await waiting;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe(`${run.execution_id} success\n`);

    const tasks = await rotaOn(s, ['tasks', 'list', '--robot', 'Invoice Bot', '--json']);
    expect(JSON.parse(tasks.stdout)).toEqual([
      expect.objectContaining({ rota_robots_id: robotId, data: { invoice: 42 } }),
    ]);
    const logs = await rotaOn(s, ['runs', 'logs', String(run.execution_id)]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(/ stdout reading invoice 42\n.* stdout done\n$/);
  });

  it('--wait exits 1 when the run fails, and when --timeout passes with the run still queued', async () => {
    const waiting = rotaOn(s, ['run', 'Invoice Bot', '--wait', '--interval', '0.05', '--json']);
    const run = await claimNext();
    await agent.finish(run.execution_id, run.attempt, 'application_error', 3, 'crashed');
    const failed = await waiting;
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'application_error' });
    expect(failed.stderr).toContain(`run ${run.execution_id} ended application_error`);

    const timedOut = await rotaOn(s, ['run', 'Invoice Bot', '--wait', '--timeout', '0']);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toMatch(/run \d+ is still queued after the --timeout/);

    const before = await rotaOn(s, ['runs', 'list', '--json', '--limit', '100']);
    const mistyped = await rotaOn(s, ['run', 'Invoice Bot', '--wait', '--timeout', 'soon']);
    expect(mistyped.code).toBe(2);
    expect(mistyped.stderr).toContain('--timeout must be a number of seconds');
    const after = await rotaOn(s, ['runs', 'list', '--json', '--limit', '100']);
    expect(JSON.parse(after.stdout)).toHaveLength(JSON.parse(before.stdout).length);
  });
});

describe('rota runs', () => {
  it('lists, filters and stops runs; a stopped queued run is cancelled', async () => {
    const started = await rotaOn(s, ['run', 'Invoice Bot Two']);
    const id = Number(started.stdout.trim());
    const queued = await rotaOn(s, ['runs', 'list', '--status', 'queued', '--json']);
    expect(queued.code).toBe(0);
    expect(
      (JSON.parse(queued.stdout) as { execution_id: number }[]).map((r) => r.execution_id),
    ).toContain(id);
    const table = await rotaOn(s, ['runs', 'list', '--robot', 'Invoice Bot Two']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+ROBOT\s+STATUS\s+QUEUED\s+ENDED\s+AGENT$/);
    expect(table.stdout).toMatch(new RegExp(`\\n${id}\\s+Invoice Bot Two\\s+queued\\s`));

    const stopped = await rotaOn(s, ['runs', 'stop', String(id)]);
    expect(stopped.code, stopped.stderr).toBe(0);
    const shown = await rotaOn(s, ['runs', 'show', String(id)]);
    expect(shown.stdout).toMatch(/\nstatus\s+cancelled\n/);
  });

  it('answers 3 for a run that does not exist and 2 for a bad id or status', async () => {
    expect((await rotaOn(s, ['runs', 'show', '999999'])).code).toBe(3);
    expect((await rotaOn(s, ['runs', 'logs', '999999'])).code).toBe(3);
    expect((await rotaOn(s, ['runs', 'stop', '999999'])).code).toBe(3);
    const bad = await rotaOn(s, ['runs', 'show', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ID must be a positive whole number');
    const status = await rotaOn(s, ['runs', 'list', '--status', 'done']);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/\n {2}status: /);
  });
});
