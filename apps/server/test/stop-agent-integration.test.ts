import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY, executionOf, runNow } from './helpers/engine.js';
import { startServerWithRealAgent, until, type RealAgentServer } from './helpers/real-agent.js';

/**
 * "Stop gracefully, then kill" with a real agent (apps/agent, through tsx) and real
 * robot processes: SIGTERM first, the tree killed when the grace ends.
 */
let server: RealAgentServer;
let admin: RealAgentServer['admin'];

beforeAll(async () => {
  server = await startServerWithRealAgent({ name: 'Stop' });
  ({ admin } = server);
});

afterAll(async () => {
  await server?.close();
});

async function logLines(id: number) {
  const res = await admin.post(`${ACTIVITY}/logs`, { id, limit: 5000 });
  return (res.body.data as { line: string }[]).map((l) => l.line);
}

/** A robot installed on the VM (no package): `exec node -e <source>`, so SIGTERM reaches it. */
async function robotRunning(name: string, source: string) {
  const created = await admin.post('/api/rota/robot/api/v1/create', {
    name,
    executor: `exec node -e "${source}"`,
  });
  expect(created.status).toBe(201);
  const id = await runNow(admin, { id: created.body.data.rota_robots_id as number, retries: 2 });
  await until(`robot ${name} to be ready`, async () => (await logLines(id)).includes('ready'));
  return id;
}

const finalStatus = (id: number) =>
  until(`execution ${id} to end`, async () => {
    const e = await executionOf(admin, id);
    return ['queued', 'processing'].includes(e.status) ? undefined : e;
  });

describe('stop gracefully, then kill', () => {
  it('a robot that traps SIGTERM and exits cleanly ends "stopped"', async () => {
    const id = await robotRunning(
      'Stop trap',
      "process.on('SIGTERM', () => { console.log('got SIGTERM, cleaning up'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000);",
    );
    const res = await admin.post(`${ACTIVITY}/stop`, { id, grace_seconds: 120 });
    expect(res.status).toBe(202);
    expect(await finalStatus(id)).toMatchObject({
      status: 'cancelled',
      message: 'stopped',
      attempts: 1,
    });
    expect(await logLines(id)).toContain('got SIGTERM, cleaning up');
  });

  it('a robot that ignores SIGTERM is killed when its grace ends', async () => {
    const id = await robotRunning(
      'Stop ignore',
      "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('ready'); setInterval(() => {}, 1000);",
    );
    expect((await admin.post(`${ACTIVITY}/stop`, { id, grace_seconds: 1 })).status).toBe(202);
    expect(await finalStatus(id)).toMatchObject({
      status: 'cancelled',
      message: 'killed after 1 s',
      attempts: 1,
    });
    expect(await logLines(id)).toContain('ignoring SIGTERM');
  });

  it('cancel stays a kill now', async () => {
    const id = await robotRunning(
      'Stop cancel',
      "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('ready'); setInterval(() => {}, 1000);",
    );
    expect((await admin.post(`${ACTIVITY}/cancel`, { id })).status).toBe(202);
    expect(await finalStatus(id)).toMatchObject({ status: 'cancelled', message: 'cancelled' });
  });
});
