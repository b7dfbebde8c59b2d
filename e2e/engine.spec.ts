import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { tarGz } from '../apps/server/test/helpers/archives';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sidebar, signIn } from './fixtures/helpers';

/**
 * The engine: a robot defined in the console really runs. Upload a package, start a real
 * agent process, press "Executar agora", and watch the log and the final status arrive in
 * Activity and on the Dashboard without reloading the page.
 */

const ROBOT = 'Robô do motor';
const VM = 'VM-motor';
const AGENT = 'agent-motor';

/** The robot: a greeting, ticks every 300 ms for about 1.5 s, a farewell, exit 0. */
const MAIN_JS = `
console.log('robot says hello');
let n = 0;
const timer = setInterval(() => {
  n += 1;
  console.log('tick ' + n);
  if (n === 5) {
    clearInterval(timer);
    console.log('robot done');
    process.exit(0);
  }
}, 300);
`;

/** Set SHOTS_DIR (e.g. /tmp/rota-shots) to also save screenshots of the pages this test visits. */
const SHOTS_DIR = process.env.SHOTS_DIR;

let agent: AgentProcess | undefined;
let executionId: number | undefined;

async function choose(page: Page, label: string, option: string) {
  const box = page.getByRole('dialog').getByRole('combobox', { name: label }).first();
  await box.click();
  await box.fill(option);
  await page.getByRole('option', { name: option }).first().click();
}

/** The number a dashboard category card shows (its label, its figure, its hint). */
async function categoryCount(page: Page, name: string): Promise<number> {
  const card = page
    .getByRole('region', { name: /Robôs por categoria|Robots by category/ })
    .getByRole('group', { name, exact: true });
  // While the figures load the card shows a skeleton: count that as "not yet".
  const text = await card
    .getByText(/^\d+$/)
    .textContent({ timeout: 1000 })
    .catch(() => null);
  return text === null ? -1 : Number(text);
}

test.describe.configure({ mode: 'serial' });

test.afterAll(async () => {
  if (agent) await stopAgent(agent);
  agent = undefined;
});

test('a robot runs on a real agent; its log and result show live in Activity and on the Dashboard', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, USERS.admin);

  // A robot with a real package, made current
  await page.goto('/robot');
  await page.getByRole('button', { name: 'Novo robô' }).first().click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('textbox', { name: 'Nome do processo', exact: true }).fill(ROBOT);
  await drawer.getByRole('textbox', { name: 'Executor', exact: true }).fill('node main.js');
  await drawer.getByRole('button', { name: 'Criar robô' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('link', { name: ROBOT }).click();
  await expect(page.getByRole('heading', { name: ROBOT })).toBeVisible();
  const robotUrl = page.url();

  await page.getByRole('tab', { name: 'Versões' }).click();
  await page.getByRole('tab', { name: 'Repositório' }).click();
  await page.getByRole('button', { name: 'Enviar versão' }).first().click();
  const upload = page.getByRole('dialog');
  await upload.getByRole('textbox', { name: 'Versão', exact: true }).fill('1.0.0');
  await upload.locator('input[type="file"]').setInputFiles({
    name: 'motor.tar.gz',
    mimeType: 'application/gzip',
    buffer: tarGz([{ name: 'main.js', data: MAIN_JS }]),
  });
  await upload.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: '1.0.0' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Ações de 1.0.0' }).click();
  await page.getByRole('menuitem', { name: 'Tornar atual' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Tornar atual' }).click();
  await page.getByRole('tab', { name: 'Atual' }).click();
  await expect(page.getByText('motor.tar.gz')).toBeVisible();

  // A VM and an agent on it; the token is shown once
  await page.goto('/vm');
  await page.getByRole('button', { name: 'Nova VM' }).first().click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Nome', exact: true }).fill(VM);
  await page
    .getByRole('dialog')
    .getByRole('textbox', { name: 'Hostname', exact: true })
    .fill('vm-motor.corp.local');
  await page.getByRole('dialog').getByRole('button', { name: 'Criar VM' }).click();
  await expect(page.getByRole('cell', { name: 'vm-motor.corp.local' }).first()).toBeVisible();

  await page.goto('/node');
  await page.getByRole('button', { name: 'Novo agente' }).first().click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Nome', exact: true }).fill(AGENT);
  await choose(page, 'VM', VM);
  await page.getByRole('dialog').getByRole('button', { name: 'Criar agente' }).click();
  const tokenBox = page.getByRole('textbox', { name: 'Token do agente' });
  await expect(tokenBox).toBeVisible();
  const token = await tokenBox.inputValue();
  await page.getByRole('button', { name: 'Já copiei o token' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The real agent process
  agent = await startAgent(token);
  const running = agent;

  try {
    // Run now, from the robot's page; from here on the page is never loaded again
    await page.goto(robotUrl);
    await expect(page.getByRole('heading', { name: ROBOT })).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { __noReload?: boolean }).__noReload = true;
    });
    await page.getByRole('button', { name: 'Executar agora' }).click();
    const runForm = page.getByRole('dialog');
    await expect(runForm.getByText(`Executar “${ROBOT}” agora`)).toBeVisible();
    await runForm.getByRole('button', { name: 'Executar', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const open = page.getByRole('link', { name: /^Ver a execução #\d+$/ });
    await expect(open).toBeVisible();
    executionId = Number(/#(\d+)$/.exec((await open.textContent()) ?? '')?.[1]);
    expect(executionId).toBeGreaterThan(0);
    await open.click();
    await expect(page).toHaveURL(new RegExp(`/activity/${executionId}$`));
    await expect(page.getByRole('heading', { name: `Execução #${executionId}` })).toBeVisible();
    // The live stream is open: updates come from it, not from polling.
    await expect(page.getByRole('status').filter({ hasText: 'Ao vivo' })).toBeVisible();

    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect(page).toHaveURL(new RegExp(`/activity/${executionId}\\?tab=logs$`));
    const log = page.getByRole('log', { name: 'Log da execução' });
    const live = { timeout: 30_000 };
    await expect(log.getByText('robot says hello', { exact: true })).toBeVisible(live);
    await expect(log.getByText('tick 1', { exact: true })).toBeVisible(live);
    await expect(log.getByText('tick 5', { exact: true })).toBeVisible(live);
    await expect(log.getByText('robot done', { exact: true })).toBeVisible(live);
    // The status badge in the page header (the toast, also titled "Sucesso", is outside <main>).
    await expect(page.getByRole('main').getByText('Sucesso', { exact: true })).toBeVisible(live);
    // The lines came in order.
    const text = (await log.textContent()) ?? '';
    expect(text.indexOf('robot says hello')).toBeLessThan(text.indexOf('tick 1'));
    expect(text.indexOf('tick 5')).toBeLessThan(text.indexOf('robot done'));

    await page.getByRole('tab', { name: 'Detalhes' }).click();
    await expect(page.getByText(AGENT, { exact: true })).toBeVisible();
    await expect(page.getByText('1.0.0', { exact: true })).toBeVisible();

    // Activity, through the sidebar: the row shows the success
    await sidebar(page).getByRole('link', { name: 'Atividades', exact: true }).click();
    await expect(page).toHaveURL(/\/activity$/);
    const row = page
      .getByRole('table', { name: 'Execuções' })
      .getByRole('row')
      .filter({ hasText: `#${executionId}` });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(ROBOT);
    await expect(row.getByText('Sucesso', { exact: true })).toBeVisible();

    // The Dashboard, through the sidebar: the robot counts among the Others, the chart has the run
    await sidebar(page).getByRole('link', { name: 'Início', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => categoryCount(page, 'Outros'), live).toBeGreaterThanOrEqual(1);
    await expect(page.getByText(/^\d+ execuç(ão|ões) no período$/)).toBeVisible();
    const total = Number(
      /^(\d+)/.exec((await page.getByText(/execuç(ão|ões) no período$/).textContent()) ?? '')?.[1],
    );
    expect(total).toBeGreaterThanOrEqual(1);
    await expect(
      page.getByRole('img', { name: 'Gráfico de barras das execuções por dia e status' }),
    ).toBeVisible();

    // Not one reload since Run now.
    expect(
      await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
    ).toBe(true);
    expect(running.output()).toContain(`as agent "${AGENT}"`);
    expect(running.output()).not.toMatch(/ (WARN|ERROR) /);
  } finally {
    await testInfo.attach('agent output', { body: running.output(), contentType: 'text/plain' });
  }
});

test('screenshots of Activity, the execution log and the Dashboard (with SHOTS_DIR)', async ({
  page,
}) => {
  test.skip(!SHOTS_DIR, 'set SHOTS_DIR to take the screenshots');
  test.skip(!executionId, 'needs the execution of the previous test');
  test.setTimeout(90_000);
  const dir = SHOTS_DIR!;
  await mkdir(dir, { recursive: true });
  await signIn(page, USERS.admin);
  const sizes = {
    wide: { width: 1440, height: 900 },
    phone: { width: 390, height: 844 },
  };
  for (const lang of ['pt', 'en'] as const) {
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    for (const [size, viewport] of Object.entries(sizes)) {
      await page.setViewportSize(viewport);
      const pages = [
        { name: 'activity', url: '/activity', ready: page.getByRole('table') },
        {
          name: 'execution-logs',
          url: `/activity/${executionId}?tab=logs`,
          ready: page.getByRole('log').getByText('robot done', { exact: true }),
        },
        {
          name: 'dashboard',
          url: '/dashboard',
          ready: page.getByRole('img', {
            name: /Gráfico de barras|Bar chart/,
          }),
        },
      ];
      for (const shot of pages) {
        await page.goto(shot.url);
        await expect(shot.ready).toBeVisible();
        await page.waitForTimeout(500);
        await page.screenshot({
          path: path.join(dir, `${shot.name}-${size}-${lang}.png`),
          fullPage: true,
        });
      }
    }
  }
});
