import { expect, test, type Page } from '@playwright/test';
import { robotPackage } from '../apps/server/test/helpers/robot-package';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * "Evidence of a run": a robot on a real agent uploads a PNG and a CSV through the
 * robot API; the execution's Evidence tab lists both and shows the PNG as a thumbnail.
 */

let agent: AgentProcess | undefined;

test.afterAll(async () => {
  if (agent) await stopAgent(agent);
  agent = undefined;
});

async function call(page: Page, method: 'post' | 'put', url: string, data: unknown) {
  const res = await page.request[method](url, {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data,
  });
  expect(res.ok(), `${url} answered ${res.status()}`).toBe(true);
  return res.status() === 204
    ? { data: {} }
    : ((await res.json()) as { data: Record<string, unknown> });
}

test('a robot uploads a PNG; the Evidence tab shows its thumbnail', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, USERS.admin);

  // A robot with a package whose `evidence` mode uploads screen.png and a CSV.
  const robot = await call(page, 'post', '/api/rota/robot/api/v1/create', {
    name: 'Robô de evidências',
    executor: 'node main.js evidence',
  });
  const robotId = robot.data.rota_robots_id as number;
  const upload = await page.request.post('/api/rota/robot/version/api/v1/create', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    multipart: {
      rota_robots_id: String(robotId),
      version: '1.0.0',
      file: { name: 'evidence.tar.gz', mimeType: 'application/gzip', buffer: robotPackage() },
    },
  });
  expect(upload.status()).toBe(201);
  const version = ((await upload.json()) as { data: { rota_robot_versions_id: number } }).data;
  await call(page, 'put', '/api/rota/robot/version/api/v1/update', {
    id: version.rota_robot_versions_id,
    current: true,
  });
  const vm = await call(page, 'post', '/api/rota/vm/api/v1/create', {
    name: 'VM-evidencias',
    hostname: 'vm-evidencias.corp.local',
  });
  const created = await call(page, 'post', '/api/rota/node/api/v1/create', {
    name: 'agent-evidencias',
    rota_vms_id: vm.data.rota_vms_id,
  });
  agent = await startAgent(created.data.token as string);
  const run = await call(page, 'post', '/api/rota/robot/api/v1/run', { id: robotId });
  const id = run.data.execution_id as number;

  await page.goto(`/activity/${id}`);
  await expect(page.getByRole('heading', { name: `Execução #${id}` })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByText('Sucesso', { exact: true }).first()).toBeVisible({
    timeout: 30_000,
  });

  await page.getByRole('tab', { name: 'Evidências' }).click();
  await expect(page).toHaveURL(new RegExp(`/activity/${id}\\?tab=evidence$`));
  const list = page.getByRole('list', { name: 'Arquivos de evidência' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText('Report of run.csv')).toBeVisible();
  const thumbnail = list.getByRole('img', { name: 'screen.png' });
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveAttribute('src', /^blob:/);
  // The image really decoded (an object URL of the bytes fetched with the session).
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1);

  // At 360 px the cards stack and nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(360);
  // The logs tab at 360 px: its search finds the robot's lines on the server.
  await page.getByRole('tab', { name: 'Logs' }).click();
  await page.getByRole('textbox', { name: 'Buscar no log' }).fill('UPLOADED');
  const found = page.getByRole('log', { name: 'Buscar no log' });
  await expect(found.getByText('uploaded screen.png', { exact: true })).toBeVisible();
  await expect(found.getByText(/^robot start/)).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('tab', { name: 'Evidências' }).click();

  // The download is an attachment with the artifact's name.
  const download = page.waitForEvent('download');
  await list.getByRole('button', { name: 'Baixar Report of run.csv' }).click();
  expect((await download).suggestedFilename()).toBe('Report of run.csv');
});
