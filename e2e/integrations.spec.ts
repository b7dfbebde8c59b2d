import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * Integrations from the console: a personal API key made with only ROBOS.LIST works on the API and
 * no further; a robot's run trigger, fired twice with one Idempotency-Key, queues one run.
 */

const ROBOT = 'Robô do gatilho';
/** Screenshots go here (pt/en, wide and 390 px), e.g. SHOTS_DIR=/tmp. */
const SHOTS_DIR = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS_DIR}/access-${name}.png`, fullPage: true });
}

/** What the one-time modal's copy button put on the clipboard, checked against its input. */
async function copySecret(page: Page, dialogName: RegExp, label: RegExp): Promise<string> {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  const shown = await dialog.getByRole('textbox', { name: label }).inputValue();
  await dialog
    .getByRole('button', { name: /^(Copiar|Copy) / })
    .first()
    .click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(shown);
  return copied;
}

test('an API key with ROBOS.LIST lists robots and may not create one; a trigger fired twice with one Idempotency-Key runs once', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, USERS.admin);

  // The user menu leads to the API keys page.
  await page.getByRole('button', { name: /^(Menu do usuário|User menu)$/ }).click();
  await page.getByRole('link', { name: 'Chaves de API' }).click();
  await expect(page).toHaveURL(/\/apikey$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Chaves de API' })).toBeVisible();

  await page.getByRole('button', { name: 'Nova chave de API' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Nova chave de API' });
  await drawer.getByRole('textbox', { name: /^Nome/ }).fill('Script de robôs');
  await drawer.getByText('Escolher', { exact: true }).click();
  await drawer
    .getByRole('group', { name: 'Robôs' })
    .getByRole('checkbox', { name: 'Listar' })
    .check();
  await shot(page, 'create-key-wide-pt');
  await drawer.getByRole('button', { name: 'Criar chave' }).click();
  const key = await copySecret(page, /^Chave de API “Script de robôs”$/, /^Chave de API$/);
  expect(key).toMatch(/^rota_pat_/);
  await shot(page, 'key-once-wide-pt');
  await page.getByRole('button', { name: 'Já copiei' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Shown once: the page no longer holds it.
  await expect(page.getByText(key)).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'Script de robôs' });
  await expect(row.getByText('ROBOS.LIST')).toBeVisible();
  await expect(row.getByText('Ativa')).toBeVisible();

  // The key on the API: ROBOS.LIST lists, creating is refused.
  const bearer = { authorization: `Bearer ${key}` };
  const list = await page.request.post('/api/rota/robot/api/v1/index', {
    headers: bearer,
    data: {},
  });
  expect(list.status(), await list.text()).toBe(200);
  const create = await page.request.post('/api/rota/robot/api/v1/create', {
    headers: bearer,
    data: { name: 'Não deve existir', executor: 'node main.js' },
  });
  expect(create.status(), await create.text()).toBe(403);

  // A robot (through the session) and a trigger on its page.
  const session = await sessionToken(page);
  const made = await page.request.post('/api/rota/robot/api/v1/create', {
    headers: { authorization: `Bearer ${session}` },
    data: { name: ROBOT, executor: 'node main.js' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const robotId = ((await made.json()) as { data: { rota_robots_id: number } }).data.rota_robots_id;
  await page.goto(`/robot/${robotId}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Gatilhos' })).toBeVisible();
  await page.getByRole('button', { name: 'Novo gatilho' }).first().click();
  const triggerDrawer = page.getByRole('dialog', { name: 'Novo gatilho' });
  await triggerDrawer.getByRole('textbox', { name: /^Nome/ }).fill('Central de serviços');
  await triggerDrawer.getByRole('button', { name: 'Criar gatilho' }).click();
  const token = await copySecret(page, /^Token do gatilho “Central de serviços”$/, /^Token$/);
  await shot(page, 'trigger-token-wide-pt');
  await page.getByRole('button', { name: 'Já copiei' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Fired twice with one Idempotency-Key: the same answer, one run.
  const fire = () =>
    page.request.post('/api/rota/trigger/api/v1/fire', {
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'e2e-pedido-42' },
      data: { tasks: [{ label: 'Pedido 42' }] },
    });
  const first = await fire();
  expect(first.status(), await first.text()).toBe(201);
  const second = await fire();
  expect(second.status(), await second.text()).toBeLessThan(300);
  const answer = (await first.json()) as { data: { execution_id: number; task_ids: number[] } };
  expect(await second.json()).toEqual(answer);
  expect(answer.data.task_ids).toHaveLength(1);

  await page.reload();
  const triggerRow = page.getByRole('row').filter({ hasText: 'Central de serviços' });
  // "agora" within the first seconds, "há …" after.
  await expect(triggerRow.getByText(/^(há |agora)/)).toBeVisible();

  await page.goto('/activity');
  const runs = page.getByRole('row').filter({ hasText: ROBOT });
  await expect(runs).toHaveCount(1);
  await expect(runs.getByText(`#${answer.data.execution_id}`, { exact: true })).toBeVisible();
  await shot(page, 'activity-wide-pt');
});

test('screenshots of the API keys page and a robot’s triggers (with SHOTS_DIR)', async ({
  page,
}) => {
  test.skip(!SHOTS_DIR, 'set SHOTS_DIR to take the screenshots');
  test.setTimeout(120_000);
  await signIn(page, USERS.admin);
  const session = await sessionToken(page);
  const robots = await page.request.post('/api/rota/robot/api/v1/index', {
    headers: { authorization: `Bearer ${session}` },
    data: { search: ROBOT },
  });
  const robot = ((await robots.json()) as { data: Array<{ rota_robots_id: number }> }).data[0];
  const sizes = { wide: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
  for (const lang of ['pt', 'en'] as const) {
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    for (const [size, viewport] of Object.entries(sizes)) {
      await page.setViewportSize(viewport);
      await page.goto('/apikey');
      await expect(page.getByRole('table')).toBeVisible();
      await shot(page, `apikeys-${size}-${lang}`);
      if (robot) {
        await page.goto(`/robot/${robot.rota_robots_id}`);
        await expect(
          page.getByRole('heading', { level: 2, name: /^(Gatilhos|Triggers)$/ }),
        ).toBeVisible();
        await page
          .getByRole('heading', { level: 2, name: /^(Gatilhos|Triggers)$/ })
          .scrollIntoViewIfNeeded();
        await shot(page, `triggers-${size}-${lang}`);
      }
    }
  }
});
