import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { tarGz } from '../apps/server/test/helpers/archives';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * "Say it in the user's language": a real agent runs a robot past its one-minute time
 * limit; the run's result and the agent's system lines show in Portuguese and in English, with
 * the right plural ("1 minuto", "1 minute"). Validation messages say what is wrong: a parameter
 * name with "." says which characters are allowed, a range error says the range.
 */

const ROBOT = 'Robô sem fim';
const SHOTS = '/tmp/messages16';

/** Never ends by itself: the agent must stop it when its minute is over. */
const MAIN_JS = `
console.log('robot starts and never stops');
setInterval(() => console.log('still working'), 5000);
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

async function inLanguage(page: Page, lang: 'pt' | 'en', url: string) {
  await page.evaluate((value) => localStorage.setItem('lang', value), lang);
  await page.goto(url);
}

async function shoot(page: Page, what: string) {
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}-${what}.png`, fullPage: true });
}

test('a timed-out run says so in the user’s language, with the right plural', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, USERS.admin);
  const token = await sessionToken(page);
  const api = page.request;

  const robot = await post<{ rota_robots_id: number }>(
    api,
    token,
    '/api/rota/robot/api/v1/create',
    { name: ROBOT, executor: 'node main.js' },
  );
  const uploaded = await api.post('/api/rota/robot/version/api/v1/create', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      rota_robots_id: String(robot.rota_robots_id),
      version: '1.0.0',
      file: {
        name: 'sem-fim.tar.gz',
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
    name: 'VM-sem-fim',
    hostname: 'vm-sem-fim.corp.local',
  });
  const created = await post<{ token: string }>(api, token, '/api/rota/node/api/v1/create', {
    name: 'agente-sem-fim',
    rota_vms_id: vm.rota_vms_id,
  });

  const run = await post<{ execution_id: number }>(api, token, '/api/rota/robot/api/v1/run', {
    id: robot.rota_robots_id,
    timeout_minutes: 1,
    retries: 0,
  });
  agent = await startAgent(created.token);
  const running = agent;
  try {
    await expect
      .poll(
        async () =>
          (
            await post<{ status: string }>(api, token, '/api/rota/activity/api/v1/show', {
              id: run.execution_id,
            })
          ).status,
        { timeout: 120_000, intervals: [2000] },
      )
      .toBe('timeout');
  } finally {
    await testInfo.attach('agent output', { body: running.output(), contentType: 'text/plain' });
  }

  const said = {
    pt: { result: 'tempo esgotado após 1 minuto', starting: /^iniciando `node main\.js` em / },
    en: { result: 'timed out after 1 minute', starting: /^starting `node main\.js` in / },
  };
  for (const lang of ['pt', 'en'] as const) {
    await inLanguage(page, lang, `/activity/${run.execution_id}`);
    await expect(page.getByText(said[lang].result, { exact: true })).toBeVisible();
    await shoot(page, `execution-${lang}-1440`);
    await page.goto(`/activity/${run.execution_id}?tab=logs`);
    const log = page.getByRole('log');
    await expect(log.getByText(said[lang].starting)).toBeVisible();
    await expect(log.getByText('robot starts and never stops')).toBeVisible();
    await shoot(page, `log-${lang}-1440`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/activity/${run.execution_id}`);
    await expect(page.getByText(said[lang].result, { exact: true })).toBeVisible();
    await shoot(page, `execution-${lang}-390`);
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test('validation messages say what is wrong, in both languages', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, USERS.admin);
  const said = {
    pt: {
      create: 'Novo parâmetro',
      submit: 'Criar parâmetro',
      name: /^Nome/,
      rule: 'Use letras, dígitos e "_", começando por uma letra: o robô o lê como ROTA_PARAM_<NOME>',
      empty: 'Valor obrigatório (ou uma senha)',
    },
    en: {
      create: 'New parameter',
      submit: 'Create parameter',
      name: /^Name/,
      rule: 'Use letters, digits and "_", starting with a letter: the robot reads it as ROTA_PARAM_<NAME>',
      empty: 'Required value (or a password)',
    },
  };
  for (const lang of ['pt', 'en'] as const) {
    await inLanguage(page, lang, '/parameter');
    await page.getByRole('button', { name: said[lang].create }).first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('textbox', { name: said[lang].name }).fill('db.host');
    await drawer.getByRole('button', { name: said[lang].submit }).click();
    await expect(drawer.getByText(said[lang].rule)).toBeVisible();
    await expect(drawer.getByText(said[lang].empty)).toBeVisible();
    await shoot(page, `parameter-${lang}-1440`);
    await page.keyboard.press('Escape');
  }
});
