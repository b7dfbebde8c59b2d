import { expect, test } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

test('a task at risk turns breached in the tasks list without a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, USERS.admin);

  // A robot whose tasks are at risk in their last minute, set in the robot form.
  await page.goto('/robot');
  await page.getByRole('button', { name: 'Novo robô' }).first().click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('textbox', { name: 'Nome do processo', exact: true }).fill('Robô com SLA');
  await drawer.getByRole('textbox', { name: 'Executor', exact: true }).fill('node main.js');
  await drawer.getByRole('textbox', { name: 'Em risco a menos de (minutos)' }).fill('1');
  await drawer.getByRole('button', { name: 'Criar robô' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const auth = { authorization: `Bearer ${await sessionToken(page)}` };
  const robots = await page.request.post('/api/rota/robot/api/v1/index', {
    headers: auth,
    data: { search: 'Robô com SLA' },
  });
  const robot = (
    (await robots.json()) as { data: { rota_robots_id: number; task_risk_minutes: number }[] }
  ).data[0]!;
  expect(robot.task_risk_minutes).toBe(1);

  // A task due in 20 seconds: at risk at once, breached once the deadline passes.
  const created = await page.request.post('/api/rota/task/api/v1/create', {
    headers: auth,
    data: {
      rota_robots_id: robot.rota_robots_id,
      label: 'Nota urgente',
      expiration_date: '2099-12-31',
      deadline: new Date(Date.now() + 20_000).toISOString(),
    },
  });
  expect(created.status()).toBe(201);

  await page.goto('/task');
  const row = page.getByRole('row').filter({ hasText: 'Nota urgente' });
  await expect(row.getByText('Em risco')).toBeVisible();
  // No reload: a live event when the deadline passes (and a refetch every 15 s) refreshes it.
  await expect(row.getByText('Violado')).toBeVisible({ timeout: 60_000 });

  // The filter finds it among the breached ones.
  await page.getByRole('combobox', { name: 'SLA' }).click();
  await page.getByRole('option', { name: 'Violado' }).click();
  await expect(page).toHaveURL(/sla_state=breached/);
  await expect(page.getByRole('row').filter({ hasText: 'Nota urgente' })).toBeVisible();

  // And the dashboard counts it for its robot.
  await page.goto('/dashboard');
  const card = page.getByRole('heading', { name: 'Tarefas em risco / violadas' }).locator('..');
  await expect(card.getByText('Robô com SLA')).toBeVisible();
  await expect(card.getByText('1 violada')).toBeVisible();
});

test('at 360 px the tasks list with its SLA filter and the dashboard card fit the screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, USERS.admin);
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await expect(page.getByRole('heading', { name: 'Tarefas em risco / violadas' })).toBeVisible();
  expect(await pageWidth()).toBeLessThanOrEqual(360);
  await page.goto('/task');
  await expect(page.getByRole('combobox', { name: 'SLA' })).toBeVisible();
  // The table scrolls inside its frame; the page itself does not.
  expect(await pageWidth()).toBeLessThanOrEqual(360);
});
