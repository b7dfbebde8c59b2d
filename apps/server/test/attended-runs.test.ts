import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaExecutions } from '../src/db/schema/executions.js';
import { rotaNodes } from '../src/db/schema/agents.js';
import { openStream } from './helpers/agent-stream.js';
import { AGENT, runNow } from './helpers/engine.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { labelFixtures } from './helpers/labels.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * An attended agent (its hello names a user of its client) takes only the runs that user
 * started as attended runs; an unattended agent never takes an attended run.
 */
let t: TestApp;
let c: Tenants;
let origin: string;
let ana: { users_id: number; access: string };
let bruno: { users_id: number; access: string };

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const def = await findClient(t.db, 'Default');
  const profile = await createProfile(t.db, def.rota_clients_id, `Attended ${c.otherClientId}`, [
    'ROBOS.LIST',
    'ROBOS.UPDATE',
  ]);
  const member = async (access: string) => {
    const user = await createUser(t.db, {
      access,
      password: 'attended-password',
      memberships: [{ clientId: def.rota_clients_id, profileId: profile.profiles_id }],
    });
    return { users_id: user.users_id, access };
  };
  ana = await member(`ana${c.otherClientId}`);
  bruno = await member(`bruno${c.otherClientId}`);
});
afterAll(async () => {
  await t?.close();
});

const { setting, agentOn, execution } = labelFixtures(
  () => t,
  () => c,
);

async function hello(token: string, attended_user?: string) {
  return client(t.app, { token }).post(`${AGENT}/hello`, {
    hostname: 'attended.lan',
    version: 'test',
    os: 'linux test',
    ...(attended_user === undefined ? {} : { attended_user }),
  });
}

/** An agent on `vm` whose hello said it is attended by `access` (none: unattended). */
async function agentFor(vm: number, name: string, access?: string) {
  const made = await agentOn(vm, name);
  const res = await hello(made.token, access);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return made;
}

/** A run of `robot` on `vm`, attended by `userId` (none: an unattended run). */
async function queued(robot: number, vm: number, userId?: number) {
  const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
  if (userId !== undefined)
    await t.db
      .update(rotaExecutions)
      .set({ attended_by: userId })
      .where(eq(rotaExecutions.rota_executions_id, id));
  return id;
}

describe('the hello of an attended agent', () => {
  it('records the user it serves', async () => {
    const { vm } = await setting('Hello attended');
    const { id } = await agentFor(vm, 'Hello attended agent', ana.access.toUpperCase());
    const [row] = await t.db.select().from(rotaNodes).where(eq(rotaNodes.rota_nodes_id, id));
    expect(row!.attended_users_id).toBe(ana.users_id);
  });

  it('names an unknown user or one of another client: 400 with a field error, pt and en', async () => {
    const { vm } = await setting('Hello unknown');
    const { token } = await agentOn(vm, 'Hello unknown agent');
    const unknown = await hello(token, 'nobody-at-all');
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('attended_user');
    expect(JSON.stringify(unknown.body)).toContain("is a member of the agent's client");
    const foreign = await hello(token, `other${c.otherClientId}`);
    expect(foreign.status).toBe(400);
    const pt = await client(t.app, { token, lang: 'pt' }).post(`${AGENT}/hello`, {
      hostname: 'attended.lan',
      version: 'test',
      os: 'linux test',
      attended_user: 'nobody-at-all',
    });
    expect(pt.status).toBe(400);
    expect(JSON.stringify(pt.body)).toContain('é membro do cliente do agente');
  });
});

describe('claiming attended runs', () => {
  it('another user’s attended run is never claimed by an attended agent (HTTP)', async () => {
    const { vm, robot } = await setting('HTTP attended');
    const anas = await agentFor(vm, 'HTTP ana', ana.access);
    const brunos = await agentFor(vm, 'HTTP bruno', bruno.access);
    const id = await queued(robot, vm, bruno.users_id);

    expect(await anas.agent.claim()).toBeNull();
    expect(await anas.agent.claimBatch(5)).toEqual([]);
    expect((await execution(id)).status).toBe('queued');
    expect(await brunos.agent.claim()).toMatchObject({ execution_id: id, attempt: 1 });
  });

  it('an unattended agent never claims an attended run, an attended agent never an unattended one', async () => {
    const { vm, robot } = await setting('Mixed attended');
    const plain = await agentFor(vm, 'Mixed plain');
    const anas = await agentFor(vm, 'Mixed ana', ana.access);
    const attended = await queued(robot, vm, ana.users_id);
    const unattended = await queued(robot, vm);

    expect(await plain.agent.claimBatch(5)).toEqual([
      expect.objectContaining({ execution_id: unattended }),
    ]);
    expect(await anas.agent.claimBatch(5)).toEqual([
      expect.objectContaining({ execution_id: attended }),
    ]);
  });

  it('over the stream too: claim, claim-batch and finish with its next claim', async () => {
    const { vm, robot } = await setting('Stream attended');
    const anas = await agentFor(vm, 'Stream ana', ana.access);
    const brunos = await agentFor(vm, 'Stream bruno', bruno.access);
    const anaStream = await openStream(origin, anas.token);
    const brunoStream = await openStream(origin, brunos.token);
    try {
      const first = await queued(robot, vm, ana.users_id);
      const brunosRun = await queued(robot, vm, bruno.users_id);
      const claimed = await anaStream.call('claim', { wait_seconds: 0 });
      expect(claimed.body.data).toMatchObject({ execution_id: first, attempt: 1 });
      const batch = await anaStream.call('claim-batch', { wait_seconds: 0, max: 3 });
      expect(batch.body.data.runs).toEqual([]);

      // A result carrying the next claim passes over Bruno's run; Ana's next is hers.
      const finished = await anaStream.call('finish', {
        execution_id: first,
        attempt: 1,
        status: 'success',
        exit_code: 0,
        message: null,
        claim: { max: 1, wait_seconds: 0 },
      });
      expect(finished.status).toBe(200);
      expect(JSON.stringify(finished.body)).not.toContain(`"execution_id":${brunosRun}`);
      expect((await execution(brunosRun)).status).toBe('queued');

      const second = await queued(robot, vm, ana.users_id);
      const againClaim = await anaStream.call('claim', { wait_seconds: 0 });
      expect(againClaim.body.data).toMatchObject({ execution_id: second });
      const brunos2 = await brunoStream.call('claim', { wait_seconds: 0 });
      expect(brunos2.body.data).toMatchObject({ execution_id: brunosRun });
    } finally {
      anaStream.socket.close();
      brunoStream.socket.close();
    }
  });

  it('a hello that drops the attended user makes it unattended at once (the identity is read again)', async () => {
    const { vm, robot } = await setting('Drop attended');
    const made = await agentFor(vm, 'Drop ana', ana.access);
    const unattended = await queued(robot, vm);
    expect(await made.agent.claim()).toBeNull();
    expect((await hello(made.token)).status).toBe(200);
    expect(await made.agent.claim()).toMatchObject({ execution_id: unattended });
  });
});
