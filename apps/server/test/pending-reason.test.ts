import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY, runNow } from './helpers/engine.js';
import { multipart } from './helpers/multipart.js';
import { robotPackage } from './helpers/robot-package.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

/**
 * "Why is it still queued?": a queued execution answers `pending_reason`, computed
 * when read, in the activity list and on the execution's page.
 */
type Caller = Tenants['admin'];

let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
});
afterAll(() => t.close());

async function robotWithVersion(as: Caller, name: string): Promise<number> {
  const robot = await createRobot(as, name);
  const form = multipart(
    { rota_robots_id: robot, version: '1.0.0' },
    { name: 'robot.tar.gz', data: robotPackage() },
  );
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/rota/robot/version/api/v1/create',
    payload: form.payload,
    headers: { 'content-type': form.contentType, authorization: as.authorization },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const version = JSON.parse(uploaded.body).data.rota_robot_versions_id as number;
  const current = await as.put('/api/rota/robot/version/api/v1/update', {
    id: version,
    current: true,
  });
  expect(current.status).toBe(204);
  return robot;
}

async function reasonOf(as: Caller, id: number) {
  const res = await as.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data.pending_reason as string | null;
}

async function listedReason(as: Caller, id: number) {
  const res = await as.post(`${ACTIVITY}/index`, { search: `#${id}` });
  expect(res.status).toBe(200);
  const row = (res.body.data as { execution_id: number; pending_reason: string | null }[]).find(
    (r) => r.execution_id === id,
  );
  return row!.pending_reason;
}

/** An active agent (seen now) on a new VM of the caller's client. */
async function activeAgentOn(as: Caller, name: string) {
  const vm = await createVm(as, `${name} VM`);
  const agent = await createAgent(as, `${name} agent`, vm);
  await setLastSeen(t.db, agent.rota_nodes_id, 0);
  return { vm, agent: agent.rota_nodes_id };
}

describe('pending_reason', () => {
  it('no_current_version: the robot has no current version', async () => {
    const robot = await createRobot(c.admin, 'Versionless robot');
    const { vm } = await activeAgentOn(c.admin, 'Versionless');
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect(await reasonOf(c.admin, id)).toBe('no_current_version');
    expect(await listedReason(c.admin, id)).toBe('no_current_version');
  });

  it("no_vm: no VM it may run on (the client has none; another client's do not count)", async () => {
    // Default has VMs and active agents by now; "Other" has none.
    await activeAgentOn(c.admin, 'Elsewhere');
    const robot = await robotWithVersion(c.other, 'Other robot');
    const id = await runNow(c.other, { id: robot });
    expect(await reasonOf(c.other, id)).toBe('no_vm');
    // An execution restricted to an empty set of VMs.
    const mine = await robotWithVersion(c.admin, 'Nowhere robot');
    const restricted = await runNow(c.admin, { id: mine });
    await t.db.execute(
      sql`update rota_executions set vm_ids = '{}' where rota_executions_id = ${restricted}`,
    );
    expect(await reasonOf(c.admin, restricted)).toBe('no_vm');
  });

  it("no_agent_active: none of its VMs has an active agent (another client's never count)", async () => {
    const robot = await robotWithVersion(c.admin, 'Unattended robot');
    const vm = await createVm(c.admin, 'Quiet VM');
    const quiet = await createAgent(c.admin, 'Quiet agent', vm);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect(await reasonOf(c.admin, id)).toBe('no_agent_active');
    await setLastSeen(t.db, quiet.rota_nodes_id, 3600);
    expect(await listedReason(c.admin, id)).toBe('no_agent_active');
    // "Other" gets a VM whose agent is not active: Default's active agents do not help it.
    const otherVm = await createVm(c.other, 'Other VM');
    await createAgent(c.other, 'Other agent', otherVm);
    const theirs = await runNow(c.other, { id: await robotWithVersion(c.other, 'Other robot 2') });
    expect(await reasonOf(c.other, theirs)).toBe('no_agent_active');
  });

  it('agents_busy: its VMs have active agents, all running something', async () => {
    const robot = await robotWithVersion(c.admin, 'Busy robot');
    const { vm, agent } = await activeAgentOn(c.admin, 'Busy');
    const running = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    await t.db.execute(
      sql`update rota_executions set status = 'processing', rota_nodes_id = ${agent},
                 rota_vms_id = ${vm}, started_at = now(), attempts = 1
           where rota_executions_id = ${running}`,
    );
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect(await reasonOf(c.admin, id)).toBe('agents_busy');
    expect(await listedReason(c.admin, id)).toBe('agents_busy');
    // Not queued: no reason.
    expect(await reasonOf(c.admin, running)).toBeNull();
  });

  it('waiting_priority, or null when it is next for a free agent', async () => {
    const robot = await robotWithVersion(c.admin, 'Ranked robot');
    const { vm } = await activeAgentOn(c.admin, 'Ranked');
    const low = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const high = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    await t.db.execute(
      sql`update rota_executions set priority = 90 where rota_executions_id = ${high}`,
    );
    expect(await reasonOf(c.admin, high)).toBeNull();
    expect(await reasonOf(c.admin, low)).toBe('waiting_priority');
    const page = await c.admin.post(`${ACTIVITY}/index`, { rota_robots_id: robot });
    const reasons = Object.fromEntries(
      (page.body.data as { execution_id: number; pending_reason: string | null }[]).map((r) => [
        r.execution_id,
        r.pending_reason,
      ]),
    );
    expect(reasons).toEqual({ [low]: 'waiting_priority', [high]: null });
    // A second free agent on the VM: both are about to be claimed.
    const second = await createAgent(c.admin, 'Ranked agent 2', vm);
    await setLastSeen(t.db, second.rota_nodes_id, 0);
    expect(await reasonOf(c.admin, low)).toBeNull();
  });

  it('finished executions answer null', async () => {
    const robot = await robotWithVersion(c.admin, 'Done robot');
    const id = await runNow(c.admin, { id: robot });
    await t.db.execute(
      sql`update rota_executions set status = 'cancelled', ended_at = now()
           where rota_executions_id = ${id}`,
    );
    expect(await reasonOf(c.admin, id)).toBeNull();
  });
});
