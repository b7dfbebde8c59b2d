import { expect, test, type APIRequestContext } from '@playwright/test';
import { tarGz } from '../apps/server/test/helpers/archives';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * "Work queues that start their robots": a robot with a queue scheduling and a real
 * agent. Tasks created in the console start runs by themselves (no Run now, no interval); the
 * robot takes the tasks through the robot API and finishes them; Activity shows the runs.
 */

const ROBOT = 'Robô da fila';
const TASKS = ['Pedido 1', 'Pedido 2', 'Pedido 3'];

/** The robot: takes due tasks through the robot API until none is left, finishing each. */
const MAIN_JS = `
const base = process.env.ROTA_API_URL + '/rota/run/api/v1';
const headers = {
  authorization: 'Bearer ' + process.env.ROTA_EXECUTION_TOKEN,
  'content-type': 'application/json',
};
async function call(path, body) {
  const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(path + ' answered ' + res.status + ': ' + (await res.text()));
  return res.json();
}
(async () => {
  for (;;) {
    const { data: task } = await call('/task/next', {});
    if (!task) break;
    console.log('took ' + task.label);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await call('/task/finish', { id: task.rota_tasks_id, status: 'success' });
    console.log('finished ' + task.label);
  }
  console.log('queue empty');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

let agent: AgentProcess | undefined;

test.afterAll(async () => {
  if (agent) await stopAgent(agent);
  agent = undefined;
});

/** POST through the HTTP API as the signed-in user; answers the body's `data`. */
async function post<T>(
  request: APIRequestContext,
  token: string,
  url: string,
  data: unknown,
): Promise<T> {
  const res = await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), `${url}: ${await res.text()}`).toBeLessThan(300);
  return ((await res.json()) as { data: T }).data;
}

test('tasks created in the console start the robot of a queue scheduling, and get done', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, USERS.admin);
  const token = await sessionToken(page);
  const api = page.request;

  // Set-up through the HTTP API: a robot with a current package, a VM, an agent, and a queue
  // scheduling of at most two runs at once on that VM.
  const robot = await post<{ rota_robots_id: number }>(
    api,
    token,
    '/api/rota/robot/api/v1/create',
    {
      name: ROBOT,
      executor: 'node main.js',
    },
  );
  const uploaded = await api.post('/api/rota/robot/version/api/v1/create', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      rota_robots_id: String(robot.rota_robots_id),
      version: '1.0.0',
      file: {
        name: 'fila.tar.gz',
        mimeType: 'application/gzip',
        buffer: tarGz([{ name: 'main.js', data: MAIN_JS }]),
      },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const version = ((await uploaded.json()) as { data: { rota_robot_versions_id: number } }).data;
  const current = await api.put('/api/rota/robot/version/api/v1/update', {
    headers: { authorization: `Bearer ${token}` },
    data: { id: version.rota_robot_versions_id, current: true },
  });
  expect(current.status()).toBe(204);
  const vm = await post<{ rota_vms_id: number }>(api, token, '/api/rota/vm/api/v1/create', {
    name: 'VM-fila',
    hostname: 'vm-fila.corp.local',
  });
  const created = await post<{ token: string }>(api, token, '/api/rota/node/api/v1/create', {
    name: 'agente-fila',
    rota_vms_id: vm.rota_vms_id,
  });
  await post(api, token, '/api/rota/scheduling/api/v1/create', {
    name: 'Fila de pedidos',
    rota_robots_id: robot.rota_robots_id,
    trigger_type: 'queue',
    min_pending: 1,
    max_concurrent: 2,
    timeout_minutes: 5,
    vms: [vm.rota_vms_id],
  });
  // Tasks created in the console, from the robot's tasks tab, before any agent runs.
  await page.goto(`/robot/${robot.rota_robots_id}?tab=tasks`);
  await expect(page.getByRole('heading', { name: ROBOT })).toBeVisible();
  for (const label of TASKS) {
    await page.getByRole('button', { name: 'Nova tarefa' }).first().click();
    const form = page.getByRole('dialog');
    await form.getByRole('textbox', { name: 'Rótulo', exact: true }).fill(label);
    await form.getByLabel(/^Data de expiração/).fill('01/01/2031 10:00');
    await form.getByRole('button', { name: 'Criar tarefa' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }

  // Runs were queued by themselves; Activity says why they wait and where to fix it.
  await page.goto(`/activity?rota_robots_id=${robot.rota_robots_id}`);
  const table = page.getByRole('table', { name: 'Execuções' });
  const waiting = table.getByText('Aguardando: nenhuma das suas VMs tem agente ativo.').first();
  await expect(waiting).toBeVisible();
  await expect(table.getByRole('link', { name: 'Ver os agentes' }).first()).toHaveAttribute(
    'href',
    '/node',
  );

  agent = await startAgent(created.token, ['--concurrency', '2']);
  const running = agent;

  try {
    // The agent takes the runs, the robot the tasks: the runs end in success, live.
    const live = { timeout: 60_000 };
    await expect(table.getByText('Sucesso', { exact: true }).first()).toBeVisible(live);
    await expect(table.getByText('Fila de pedidos').first()).toBeVisible();

    // Every task is done.
    await page.goto(`/robot/${robot.rota_robots_id}?tab=tasks`);
    for (const label of TASKS) {
      const row = page.getByRole('row').filter({ hasText: label });
      await expect(row.getByText('Sucesso', { exact: true })).toBeVisible(live);
    }
    // The runs were started by the queue trigger (a scheduling's runs), none is left waiting.
    const runs = await post<{ trigger: string; status: string }[]>(
      api,
      token,
      '/api/rota/activity/api/v1/index',
      { rota_robots_id: robot.rota_robots_id },
    );
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.every((run) => run.trigger === 'schedule')).toBe(true);
    await expect
      .poll(async () => {
        const now = await post<{ status: string }[]>(
          api,
          token,
          '/api/rota/activity/api/v1/index',
          {
            rota_robots_id: robot.rota_robots_id,
          },
        );
        return now.filter((run) => run.status === 'queued' || run.status === 'processing').length;
      }, live)
      .toBe(0);
    expect(running.output()).toContain('as agent "agente-fila"');
  } finally {
    await testInfo.attach('agent output', { body: running.output(), contentType: 'text/plain' });
  }
});
