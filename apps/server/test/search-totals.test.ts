import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * A searched list counts its matches only when its page cannot tell (listTotal hands pageOf the
 * count): a page that ends the list gives the total as its offset plus its rows; a full page, or
 * one past the end, counts. Each list is searched on every side of that line, with another
 * client's matching rows that must never be counted.
 */
let t: TestApp;
let c: Tenants;
let robot: number;
let vm: number;

type Caller = Tenants['admin'];

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
  robot = await createRobot(c.admin, 'Totals robot');
  vm = await createVm(c.admin, 'Totals VM');
});
afterAll(() => t.close());

async function created(as: Caller, path: string, body: object) {
  const res = await as.post(`${path}/create`, body);
  expect(res.status).toBe(201);
}

/** Three matches of `needle` in the client, one in the other client, and a row that misses. */
const lists: {
  name: string;
  path: string;
  filter?: () => object;
  make: (as: Caller, label: string) => Promise<void>;
}[] = [
  {
    name: 'VMs',
    path: '/api/rota/vm/api/v1',
    make: async (as, label) => {
      await createVm(as, label);
    },
  },
  {
    name: 'agents',
    path: '/api/rota/node/api/v1',
    make: async (as, label) => {
      await createAgent(as, label, as === c.admin ? vm : await createVm(as, `${label} VM`));
    },
  },
  {
    name: 'parameters',
    path: '/api/rota/parameter/api/v1',
    make: (as, label) =>
      created(as, '/api/rota/parameter/api/v1', {
        name: label.toUpperCase().replaceAll(' ', '_'),
        value: 'v',
      }),
  },
  {
    name: 'robot fields',
    path: '/api/rota/robot/field/api/v1',
    make: async (as, label) =>
      created(as, '/api/rota/robot/field/api/v1', {
        rota_robots_id: as === c.admin ? robot : await createRobot(as, `${label} robot`),
        name: label.toLowerCase().replaceAll(' ', '_'),
        label,
        type: 'text',
        required: false,
      }),
  },
  {
    name: 'tasks',
    path: '/api/rota/task/api/v1',
    make: async (as, label) =>
      created(as, '/api/rota/task/api/v1', {
        rota_robots_id: as === c.admin ? robot : await createRobot(as, `${label} robot`),
        label,
        expiration_date: '2099-12-31',
      }),
  },
  {
    name: 'schedulings',
    path: '/api/rota/scheduling/api/v1',
    make: async (as, label) =>
      created(as, '/api/rota/scheduling/api/v1', {
        name: label,
        rota_robots_id: as === c.admin ? robot : await createRobot(as, `${label} robot`),
        interval_minutes: 15,
        timeout_minutes: 10,
      }),
  },
];

describe('search totals', () => {
  for (const list of lists) {
    it(`counts a search of ${list.name} on a full page, an ending page and past the end`, async () => {
      const needle = `Needle_${list.name.replaceAll(' ', '')}`;
      for (const n of [1, 2, 3]) await list.make(c.admin, `${needle}_${n}`);
      await list.make(c.admin, `Haystack ${list.name.replaceAll(' ', '')}`);
      await list.make(c.other, `${needle}_4`);

      const page = async (page: number, per_page: number) => {
        const res = await c.admin.post(`${list.path}/index`, { search: needle, page, per_page });
        expect(res.status).toBe(200);
        return { rows: (res.body.data as unknown[]).length, total: res.body.meta.total as number };
      };
      // Full (the count runs), ending exactly, ending short, past the end (the count runs).
      expect(await page(1, 2)).toEqual({ rows: 2, total: 3 });
      expect(await page(1, 3)).toEqual({ rows: 3, total: 3 });
      expect(await page(2, 2)).toEqual({ rows: 1, total: 3 });
      expect(await page(3, 2)).toEqual({ rows: 0, total: 3 });
      // The other client sees its own match only.
      const theirs = await c.other.post(`${list.path}/index`, { search: needle, per_page: 1 });
      expect(theirs.body.meta.total).toBe(1);
    });
  }
});
