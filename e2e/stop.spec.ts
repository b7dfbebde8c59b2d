import { expect, test, type Page } from '@playwright/test';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * "Stop gracefully, then kill": a robot running on a real agent is stopped from its
 * execution page; it gets SIGTERM, ends on its own, and the page shows it end "stopped", live.
 */

/** Traps SIGTERM: says so and exits cleanly; until then it waits forever. */
const ROBOT_SOURCE =
  "process.on('SIGTERM', () => { console.log('robot got SIGTERM'); process.exit(0); }); console.log('robot ready'); setInterval(() => {}, 1000);";

let agent: AgentProcess | undefined;

test.afterAll(async () => {
  if (agent) await stopAgent(agent);
  agent = undefined;
});

async function post(page: Page, url: string, data: unknown) {
  const res = await page.request.post(url, {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data,
  });
  expect(res.ok(), `${url} answered ${res.status()}`).toBe(true);
  return (await res.json()) as { data: Record<string, unknown> };
}

test('stop a running robot from the execution page and watch it end', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, USERS.admin);

  // A robot installed on the VM (no package), a VM, a real agent, a run: set up through the API.
  const robot = await post(page, '/api/rota/robot/api/v1/create', {
    name: 'Robô que para',
    executor: `exec node -e "${ROBOT_SOURCE}"`,
  });
  const vm = await post(page, '/api/rota/vm/api/v1/create', {
    name: 'VM-parada',
    hostname: 'vm-parada.corp.local',
  });
  const created = await post(page, '/api/rota/node/api/v1/create', {
    name: 'agent-parada',
    rota_vms_id: vm.data.rota_vms_id,
  });
  agent = await startAgent(created.data.token as string);
  const run = await post(page, '/api/rota/robot/api/v1/run', { id: robot.data.rota_robots_id });
  const id = run.data.execution_id as number;

  await page.goto(`/activity/${id}?tab=logs`);
  await expect(page.getByRole('heading', { name: `Execução #${id}` })).toBeVisible();
  const live = { timeout: 30_000 };
  const log = page.getByRole('log', { name: 'Log da execução' });
  await expect(log.getByText('robot ready', { exact: true })).toBeVisible(live);
  const main = page.getByRole('main');
  await expect(main.getByText('Em processamento', { exact: true }).first()).toBeVisible();

  await page.getByRole('button', { name: 'Cancelar execução' }).click();
  await page.getByRole('menuitem', { name: 'Parar (30 s para terminar)' }).click();
  const dialog = page.getByRole('dialog', { name: `Parar a execução #${id} de “Robô que para”?` });
  await dialog.getByRole('button', { name: 'Parar', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  // The robot heard SIGTERM and ended on its own: cancelled, "stopped", without a reload.
  await expect(log.getByText('robot got SIGTERM', { exact: true })).toBeVisible(live);
  await expect(main.getByText('Cancelada', { exact: true }).first()).toBeVisible(live);
  await page.getByRole('tab', { name: 'Detalhes' }).click();
  // The agent's message, in the console's language.
  await expect(main.getByText('parada', { exact: true })).toBeVisible(live);
  await expect(page.getByRole('button', { name: 'Cancelar execução' })).toHaveCount(0);
});
