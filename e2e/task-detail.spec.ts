import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { tarGz } from '../apps/server/test/helpers/archives';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sessionToken, sidebar, signIn } from './fixtures/helpers';

/**
 * "A task has no detail view": a real agent runs a robot that takes a task through the
 * robot API; the task's page shows its data as the robot's fields label it and its history, links
 * to the execution that held it, and the execution page links back. The sidebar reaches /task
 * (under Robots) and /vm (under Agents).
 */

const ROBOT = 'Robô das notas';
const TASK = 'Nota 42';
const SHOTS = '/tmp/tasks16';

/** Takes one task after another, failing the first with a business error, finishing the rest. */
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
    await call('/task/finish', { id: task.rota_tasks_id, status: 'success' });
    console.log('finished ' + task.label);
  }
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

async function shoot(page: Page, what: string) {
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}-${what}.png`, fullPage: true });
}

test('a task page shows its data and history, and links to its execution and back', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, USERS.admin);
  const token = await sessionToken(page);
  const api = page.request;

  // The sidebar reaches the tasks and the VMs.
  await sidebar(page).getByRole('link', { name: 'Tarefas' }).click();
  await expect(page).toHaveURL(/\/task$/);
  await expect(page.getByRole('heading', { name: 'Tarefas', level: 1 })).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'VMs' }).click();
  await expect(page).toHaveURL(/\/vm$/);

  // A robot with two fields and a current package, a VM and its agent.
  const robot = await post<{ rota_robots_id: number }>(
    api,
    token,
    '/api/rota/robot/api/v1/create',
    { name: ROBOT, executor: 'node main.js' },
  );
  const field = (name: string, label: string, type = 'text') =>
    post<{ rota_robot_fields_id: number }>(api, token, '/api/rota/robot/field/api/v1/create', {
      rota_robots_id: robot.rota_robots_id,
      name,
      label,
      type,
    });
  await field('invoice', 'Número da nota');
  await field('amount', 'Valor', 'number');
  const legacy = await field('legacy', 'Código antigo');
  const uploaded = await api.post('/api/rota/robot/version/api/v1/create', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      rota_robots_id: String(robot.rota_robots_id),
      version: '1.0.0',
      file: {
        name: 'notas.tar.gz',
        mimeType: 'application/gzip',
        buffer: tarGz([{ name: 'main.js', data: MAIN_JS }]),
      },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const version = ((await uploaded.json()) as { data: { rota_robot_versions_id: number } }).data;
  expect(
    (
      await api.put('/api/rota/robot/version/api/v1/update', {
        headers: { authorization: `Bearer ${token}` },
        data: { id: version.rota_robot_versions_id, current: true },
      })
    ).status(),
  ).toBe(204);
  const vm = await post<{ rota_vms_id: number }>(api, token, '/api/rota/vm/api/v1/create', {
    name: 'VM-notas',
    hostname: 'vm-notas.corp.local',
  });
  const created = await post<{ token: string }>(api, token, '/api/rota/node/api/v1/create', {
    name: 'agente-notas',
    rota_vms_id: vm.rota_vms_id,
  });
  const task = await post<{ rota_tasks_id: number }>(api, token, '/api/rota/task/api/v1/create', {
    rota_robots_id: robot.rota_robots_id,
    label: TASK,
    data: { invoice: 'NF-42', amount: 1250.5, legacy: 'X9' },
    expiration_date: '2099-12-31',
  });
  // The field goes away after the task was made: its key is shown as it is.
  await api.post('/api/rota/robot/field/api/v1/delete', {
    headers: { authorization: `Bearer ${token}` },
    data: { id: legacy.rota_robot_fields_id },
  });

  // A run on a real agent takes the task and finishes it.
  await post(api, token, '/api/rota/robot/api/v1/run', { id: robot.rota_robots_id });
  agent = await startAgent(created.token);
  const running = agent;
  try {
    await expect
      .poll(
        async () =>
          (
            await post<{ status: string }>(api, token, '/api/rota/task/api/v1/show', {
              id: task.rota_tasks_id,
            })
          ).status,
        { timeout: 60_000 },
      )
      .toBe('success');
  } finally {
    await testInfo.attach('agent output', { body: running.output(), contentType: 'text/plain' });
  }

  // From the list to the task's page.
  await page.goto('/task');
  await page.getByRole('row').filter({ hasText: TASK }).getByRole('link', { name: TASK }).click();
  await expect(page).toHaveURL(new RegExp(`/task/${task.rota_tasks_id}$`));
  await expect(page.getByRole('heading', { name: TASK, level: 1 })).toBeVisible();
  const data = page.getByRole('heading', { name: 'Dados', level: 2 }).locator('..');
  await expect(data.getByText('Número da nota')).toBeVisible();
  await expect(data.getByText('NF-42')).toBeVisible();
  await expect(data.getByText('Valor')).toBeVisible();
  await expect(data.getByText('1.250,5')).toBeVisible();
  await expect(data.getByText('legacy', { exact: true })).toBeVisible();
  const entries = page.getByTestId('task-history-entry');
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0).getByText('Pendente')).toBeVisible();
  await expect(entries.nth(1).getByText('Processando')).toBeVisible();
  await expect(entries.nth(2).getByText('Sucesso')).toBeVisible();
  await shoot(page, 'task-1440-pt-light');

  // To the execution that held it, and back.
  const heldBy = entries.nth(1).getByRole('link', { name: /Execução #\d+ em agente-notas/ });
  const href = await heldBy.getAttribute('href');
  await heldBy.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  const section = page.locator('section').filter({
    has: page.getByRole('heading', { name: 'Tarefas', level: 2 }),
  });
  await expect(section.getByRole('link', { name: TASK })).toBeVisible();
  await shoot(page, 'execution-1440-pt-light');
  await section.getByRole('link', { name: TASK }).click();
  await expect(page).toHaveURL(new RegExp(`/task/${task.rota_tasks_id}$`));

  // The robot's tasks tab opens the Tasks page filtered to it.
  await page.goto(`/robot/${robot.rota_robots_id}?tab=tasks`);
  await page.getByRole('link', { name: 'Abrir na página de Tarefas' }).click();
  await expect(page).toHaveURL(new RegExp(`/task\\?rota_robots_id=${robot.rota_robots_id}$`));
  await expect(page.getByRole('row').filter({ hasText: TASK })).toBeVisible();

  // The same page in English, dark, and at 390 px in both languages.
  const taskUrl = `/task/${task.rota_tasks_id}`;
  for (const [width, lang, scheme] of [
    [1440, 'en', 'dark'],
    [390, 'pt', 'dark'],
    [390, 'en', 'light'],
  ] as const) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await page.evaluate(
      ({ lang, scheme }) => {
        localStorage.setItem('lang', lang);
        localStorage.setItem('mantine-color-scheme-value', scheme);
      },
      { lang, scheme },
    );
    await page.goto(taskUrl);
    await expect(page.getByRole('heading', { name: TASK, level: 1 })).toBeVisible();
    await expect(
      page.getByRole('heading', { name: lang === 'pt' ? 'Dados' : 'Data', level: 2 }),
    ).toBeVisible();
    await expect(page.getByTestId('task-history-entry')).toHaveCount(3);
    if (width < 500) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
    }
    await shoot(page, `task-${width}-${lang}-${scheme}`);
  }
});
