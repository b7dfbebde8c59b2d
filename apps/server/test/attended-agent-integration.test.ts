import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY, runNow } from './helpers/engine.js';
import { ADMIN } from './helpers/test-app.js';
import {
  agentCommand,
  startServerWithRealAgent,
  until,
  type RealAgentServer,
} from './helpers/real-agent.js';

/**
 * An attended agent for real (apps/agent through tsx, `--attended --user`), and its user
 * starting a robot from the agent's command line with data for that run: the robot reads the
 * data as its task, and the run is marked attended. A run nobody started as attended stays
 * for the unattended agents.
 */
const ATTENDED = '/api/rota/attended/api/v1';
let server: RealAgentServer;

beforeAll(async () => {
  server = await startServerWithRealAgent({
    name: 'Attended',
    // The access in another case: accesses are kept lower-case.
    agentArgs: ['--attended', '--user', ADMIN.access.toUpperCase()],
  });
});
afterAll(async () => {
  await server?.close();
});

async function show(id: number) {
  const res = await server.admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as { status: string; attended_by: number | null; exit_code: number | null };
}

describe('an attended agent and rota-agent run', () => {
  it('runs the robot its user starts with --task-data, and never an unattended run', async () => {
    const { admin, workDir, base, token } = server;
    await until('the agent to say it is attended and active', async () => {
      const res = await admin.get(`${ATTENDED}/robots`);
      return res.body.data?.agents?.[0]?.connectivity === 'active';
    });

    // The robot takes its next task through the robot API and writes the task's data down.
    const script = path.join(workDir, 'attended-robot.mjs');
    const out = path.join(workDir, 'attended-task.json');
    await writeFile(
      script,
      `const api = process.env.ROTA_API_URL + '/rota/run/api/v1';
       const headers = { authorization: 'Bearer ' + process.env.ROTA_EXECUTION_TOKEN, 'content-type': 'application/json' };
       const next = await (await fetch(api + '/task/next', { method: 'POST', headers, body: '{}' })).json();
       (await import('node:fs')).writeFileSync(${JSON.stringify(out)}, JSON.stringify(next.data?.data ?? null));
       await fetch(api + '/task/finish', { method: 'POST', headers, body: JSON.stringify({ id: next.data.rota_tasks_id, status: 'success' }) });`,
    );
    const created = await admin.post('/api/rota/robot/api/v1/create', {
      name: 'Desk robot',
      executor: `node ${script}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const robot = created.body.data.rota_robots_id as number;
    const plain = await runNow(admin, { id: robot });

    const started = await agentCommand(
      ['run', 'desk robot', '--task-data', '{"invoice": "A-42"}', '--server', base],
      { ROTA_AGENT_TOKEN: token },
    );
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const id = Number(/#(\d+)/.exec(started.stdout)?.[1]);
    expect(started.stdout).toContain('Execution queued');

    await until('the attended run to succeed', async () => (await show(id)).status === 'success');
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({ invoice: 'A-42' });
    const me = await admin.post('/api/user/api/auth/v1/me', {});
    expect(me.status).toBe(200);
    expect((await show(id)).attended_by).toBe(me.body.users_id ?? me.body.data?.users_id);
    // The agent claimed after the plain run was queued, and took only its user's.
    expect((await show(plain)).status).toBe('queued');
  });

  it('says why it cannot start a robot: an unknown name, bad task data', async () => {
    const { base, token } = server;
    const unknown = await agentCommand(['run', 'no such robot', '--server', base], {
      ROTA_AGENT_TOKEN: token,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('robot: No robot of this client has this name');
    const bad = await agentCommand(['run', 'Desk robot', '--task-data', '[1]', '--server', base], {
      ROTA_AGENT_TOKEN: token,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--task-data must be a JSON object');
    const refused = await agentCommand(['run', 'Desk robot', '--server', base], {
      ROTA_AGENT_TOKEN: 'not-the-token',
    });
    expect(refused.code).toBe(3);
  });
});
