import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { tarGz } from '../apps/server/test/helpers/archives';
import { startAgent, stopAgent, type AgentProcess } from './fixtures/agent-process';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * "Alert rules and channels": a webhook alert made in the console for a robot's
 * application errors; the robot fails on a real agent; a receiver on loopback gets one signed
 * POST, the rule's delivery log shows it delivered, and the header's bell counts it, all without
 * a reload. With SHOTS_DIR set, screenshots of the page, form, log and bell (pt, en; wide, 390 px).
 */

const ROBOT = 'Boletos';
const ALERT = 'Falhas no webhook';
const SECRET = 'e2e-secret-0123456789abcdef';
const SHOTS_DIR = process.env.SHOTS_DIR;

/** The robot: says why and exits 1, an application error. */
const MAIN_JS = `console.error('boleto recusado pelo banco'); process.exit(1);`;

type Received = { headers: IncomingHttpHeaders; body: Buffer; path: string };

let agent: AgentProcess | undefined;
let receiver: Server | undefined;
const received: Received[] = [];

test.afterAll(async () => {
  if (agent) await stopAgent(agent);
  agent = undefined;
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
});

/** A webhook receiver on loopback that keeps what it gets and answers 200. */
async function startReceiver(): Promise<number> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks), path: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return (receiver!.address() as AddressInfo).port;
}

async function call(page: Page, method: 'post' | 'put', url: string, data: unknown) {
  const res = await page.request[method](url, {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data,
  });
  expect(res.ok(), `${url} answered ${res.status()}: ${await res.text()}`).toBe(true);
  return res.status() === 204
    ? { data: {} }
    : ((await res.json()) as { data: Record<string, unknown> });
}

async function shot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  // Drawers slide and popovers fade in: wait until nothing moves.
  await expect
    .poll(() =>
      page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length),
    )
    .toBe(0);
  await page.screenshot({ path: `${SHOTS_DIR}/alerts-${name}.png` });
}

test('a webhook alert: the robot fails, the receiver gets it signed, the log and the bell show it', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const port = await startReceiver();
  await signIn(page, USERS.admin);

  // Set-up through the HTTP API: a robot whose package exits 1, a VM and its agent.
  const robot = await call(page, 'post', '/api/rota/robot/api/v1/create', {
    name: ROBOT,
    executor: 'node main.js',
  });
  const robotId = robot.data.rota_robots_id as number;
  const upload = await page.request.post('/api/rota/robot/version/api/v1/create', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    multipart: {
      rota_robots_id: String(robotId),
      version: '1.0.0',
      file: {
        name: 'falha.tar.gz',
        mimeType: 'application/gzip',
        buffer: tarGz([{ name: 'main.js', data: MAIN_JS }]),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const version = ((await upload.json()) as { data: { rota_robot_versions_id: number } }).data;
  await call(page, 'put', '/api/rota/robot/version/api/v1/update', {
    id: version.rota_robot_versions_id,
    current: true,
  });
  const vm = await call(page, 'post', '/api/rota/vm/api/v1/create', {
    name: 'VM-alertas',
    hostname: 'vm-alertas.corp.local',
  });
  const created = await call(page, 'post', '/api/rota/node/api/v1/create', {
    name: 'agente-alertas',
    rota_vms_id: vm.data.rota_vms_id,
  });

  // The alert, made in the console: application errors of that robot, to the receiver.
  await page.goto('/alert');
  await expect(page.getByRole('heading', { level: 1, name: 'Alertas' })).toBeVisible();
  await page.getByRole('button', { name: 'Novo alerta' }).first().click();
  const form = page.getByRole('dialog', { name: 'Novo alerta' });
  await form.getByRole('textbox', { name: /^Nome/ }).fill(ALERT);
  await form.getByRole('combobox', { name: /^Eventos/ }).click();
  await page.getByRole('option', { name: 'Erro de aplicação' }).click();
  // A multi-select stays open for more: a click elsewhere closes it.
  await form.getByRole('textbox', { name: /^Nome/ }).click();
  await form.getByRole('combobox', { name: /^Robôs/ }).click();
  await page.getByRole('option', { name: ROBOT }).click();
  await form.getByRole('textbox', { name: /^Nome/ }).click();
  await form.getByText('Webhook', { exact: true }).click();
  await form.getByRole('textbox', { name: /^URL/ }).fill(`http://127.0.0.1:${port}/rota-hook`);
  await form.getByRole('textbox', { name: /^Segredo/ }).fill(SECRET);
  await shot(page, 'form-wide-pt');
  await form.getByRole('button', { name: 'Criar alerta' }).click();
  await expect(page.getByRole('dialog', { name: 'Novo alerta' })).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: ALERT });
  await expect(row.getByText('Erro de aplicação')).toBeVisible();
  await expect(row.getByText(ROBOT)).toBeVisible();
  // Whatever earlier tests left in the bell is read now: opening it marks it.
  await page.getByRole('button', { name: /^Alertas(, \d+ não lidos?)?$/ }).click();
  await expect(page.getByRole('dialog', { name: 'Últimos alertas' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Alertas', exact: true })).toBeVisible();

  // The robot fails on a real agent.
  agent = await startAgent(created.data.token as string);
  const running = agent;
  try {
    const run = await call(page, 'post', '/api/rota/robot/api/v1/run', { id: robotId });
    const executionId = run.data.execution_id as number;

    // The receiver gets one POST, signed with the secret over the exact bytes.
    await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    const first = received[0]!;
    expect(first.path).toBe('/rota-hook');
    expect(first.headers['x-rota-event']).toBe('execution.application_error');
    expect(first.headers['x-rota-delivery']).toEqual(expect.any(String));
    const signature = createHmac('sha256', SECRET).update(first.body).digest('hex');
    expect(first.headers['x-rota-signature']).toBe(`sha256=${signature}`);
    const body = JSON.parse(first.body.toString('utf8')) as {
      type: string;
      id: string;
      data: { execution_id: number; count: number; url: string | null };
    };
    expect(body.type).toBe('execution.application_error');
    expect(body.data.execution_id).toBe(executionId);
    expect(body.data.count).toBe(1);

    // The bell counts it without a reload.
    const bell = page.getByRole('button', { name: /^Alertas, \d+ não lidos?$/ });
    await expect(bell).toBeVisible({ timeout: 30_000 });
    await shot(page, 'bell-count-wide-pt');

    // The rule's log shows the delivery (refetched every 5 s while open).
    await page.getByRole('button', { name: `Ações de ${ALERT}` }).click();
    await page.getByRole('menuitem', { name: 'Entregas' }).click();
    const log = page.getByRole('dialog', { name: `Entregas de “${ALERT}”` });
    const delivery = log.getByRole('row').filter({ hasText: 'Erro de aplicação' });
    await expect(delivery.getByText('Entregue')).toBeVisible({ timeout: 30_000 });
    await expect(delivery.getByText('200', { exact: true })).toBeVisible();
    await expect(delivery.getByText(ROBOT)).toBeVisible();
    await shot(page, 'log-wide-pt');
    await page.keyboard.press('Escape');
    await expect(log).toHaveCount(0);

    // Opening the bell lists it, links to the execution, and marks it read.
    await bell.click();
    const popover = page.getByRole('dialog', { name: 'Últimos alertas' });
    const entry = popover.getByRole('link', {
      name: new RegExp(`Robô ${ROBOT}: erro de aplicação`),
    });
    await expect(entry).toBeVisible();
    await expect(entry).toHaveAttribute('href', `/activity/${executionId}`);
    await shot(page, 'bell-wide-pt');
    await expect(page.getByRole('button', { name: 'Alertas', exact: true })).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/activity/${executionId}$`));
  } finally {
    await testInfo.attach('agent output', { body: running.output(), contentType: 'text/plain' });
  }
});

test('screenshots of the alerts page, form, log and bell (with SHOTS_DIR)', async ({ page }) => {
  test.skip(!SHOTS_DIR, 'set SHOTS_DIR to take the screenshots');
  test.setTimeout(120_000);
  await signIn(page, USERS.admin);
  // A second client, so the header also holds the client selector beside the bell.
  const client = await page.request.post('/api/rota/client/api/v1/create', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: { name: 'Filial Norte' },
  });
  expect(client.status(), await client.text()).toBe(201);
  const sizes = {
    wide: { width: 1440, height: 900 },
    phone: { width: 390, height: 844 },
    narrow: { width: 360, height: 740 },
  };
  for (const lang of ['pt', 'en'] as const) {
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    for (const [size, viewport] of Object.entries(sizes)) {
      await page.setViewportSize(viewport);
      await page.goto('/alert');
      await expect(page.getByRole('table')).toBeVisible();
      await expect(page.getByText(ALERT).first()).toBeVisible();
      // Nothing sideways at phone width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${size} ${lang} scrolls sideways`).toBeLessThanOrEqual(0);
      const header = await page.evaluate(() => {
        const element = document.querySelector('header')!;
        return element.scrollWidth - element.clientWidth;
      });
      expect(header, `${size} ${lang}: the header overflows`).toBeLessThanOrEqual(0);
      await shot(page, `page-${size}-${lang}`);
      await page
        .getByRole('button', { name: new RegExp(`^(Ações de|Actions for) ${ALERT}$`) })
        .click();
      await page.getByRole('menuitem', { name: /^(Editar|Edit)$/ }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shot(page, `drawer-${size}-${lang}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page
        .getByRole('button', { name: new RegExp(`^(Ações de|Actions for) ${ALERT}$`) })
        .click();
      await page.getByRole('menuitem', { name: /^(Entregas|Deliveries)$/ }).click();
      await expect(page.getByText(/^(Entregue|Delivered)$/).first()).toBeVisible();
      await shot(page, `log-${size}-${lang}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page
        .getByRole('button', { name: /^(Alertas|Alerts)/ })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shot(page, `bell-${size}-${lang}`);
      await page.keyboard.press('Escape');
    }
  }
});
