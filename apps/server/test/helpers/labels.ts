import { expect } from 'vitest';
import { ACTIVITY, ROBOT, simulatedAgent } from './engine.js';
import { createRobot } from './robots.js';
import type { Tenants } from './tenants.js';
import type { TestApp } from './test-app.js';
import { createAgent, createVm } from './vms.js';

const NODE = '/api/rota/node/api/v1';

/** What the labels tests set up, for the app `t` and the tenants `c`. */
export function labelFixtures(t: () => TestApp, c: () => Tenants) {
  /** A VM of its own (runs of one test never reach another test's agents) and a robot. */
  async function setting(name: string, required_labels: string[] = []) {
    const vm = await createVm(c().admin, `${name} VM`);
    const robot = await createRobot(c().admin, `${name} robot`);
    if (required_labels.length > 0) {
      const res = await c().admin.put(`${ROBOT}/update`, { id: robot, required_labels });
      expect(res.status, JSON.stringify(res.body)).toBe(204);
    }
    return { vm, robot };
  }

  async function agentOn(vm: number, name: string, labels?: string[]) {
    const { rota_nodes_id, token } = await createAgent(c().admin, name, vm);
    if (labels) await setAgentLabels(rota_nodes_id, labels);
    return { id: rota_nodes_id, token, agent: simulatedAgent(t().app, token) };
  }

  async function setAgentLabels(id: number, labels: string[]) {
    const res = await c().admin.put(`${NODE}/update`, { id, labels });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
  }

  async function showAgent(id: number) {
    const res = await c().admin.post(`${NODE}/show`, { id });
    expect(res.status).toBe(200);
    return res.body.data as { labels: string[]; effective_labels: string[] };
  }

  async function execution(id: number) {
    const res = await c().admin.post(`${ACTIVITY}/show`, { id });
    expect(res.status).toBe(200);
    return res.body.data as {
      status: string;
      labels: string[];
      pending_reason: string | null;
      missing_labels: string[];
    };
  }

  return { setting, agentOn, setAgentLabels, showAgent, execution };
}
