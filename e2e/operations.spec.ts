import { expect, test, type Page } from '@playwright/test';
import { zip } from '../apps/server/test/helpers/archives';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/** Mantine comboboxes: open, type to filter, pick the option. */
async function choose(page: Page, label: string, option: string) {
  const box = page.getByRole('dialog').getByRole('combobox', { name: label }).first();
  await box.click();
  await box.fill(option);
  await page.getByRole('option', { name: option }).first().click();
}

async function rowAction(page: Page, row: string, action: string) {
  await page.getByRole('button', { name: `Ações de ${row}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('an operator sets up a robot end to end: field, version, task, VM, agent, scheduling, parameter', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, USERS.admin);

  // Robot
  await page.goto('/robot');
  await page.getByRole('button', { name: 'Novo robô' }).first().click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('button', { name: 'Criar robô' }).click();
  await expect(drawer.getByText('Nome do processo obrigatório')).toBeVisible();
  await drawer
    .getByRole('textbox', { name: 'Nome do processo', exact: true })
    .fill('Leitor de notas');
  await drawer.getByRole('textbox', { name: 'Executor', exact: true }).fill('node main.js');
  await drawer.getByRole('button', { name: 'Criar robô' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('link', { name: 'Leitor de notas' }).click();
  await expect(page.getByRole('heading', { name: 'Leitor de notas' })).toBeVisible();

  // A field, on the Overview tab
  await page.getByRole('button', { name: 'Novo campo' }).first().click();
  await page
    .getByRole('dialog')
    .getByRole('textbox', { name: 'Nome', exact: true })
    .fill('invoice_id');
  await page
    .getByRole('dialog')
    .getByRole('textbox', { name: 'Rótulo', exact: true })
    .fill('Número da nota');
  await page.getByRole('dialog').getByRole('switch', { name: 'Obrigatório' }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Criar campo' }).click();
  await expect(page.getByRole('cell', { name: 'invoice_id' }).first()).toBeVisible();

  // A version, uploaded to the repository and made current
  await page.getByRole('tab', { name: 'Versões' }).click();
  await page.getByRole('tab', { name: 'Repositório' }).click();
  await page.getByRole('button', { name: 'Enviar versão' }).first().click();
  const upload = page.getByRole('dialog');
  await upload.getByRole('textbox', { name: 'Versão', exact: true }).fill('1.0.0');
  await upload.locator('input[type="file"]').setInputFiles({
    name: 'robot.zip',
    mimeType: 'application/zip',
    buffer: zip([{ name: 'main.js', data: 'console.log("hello from the robot")\n' }]),
  });
  await upload.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: '1.0.0' }).first()).toBeVisible();
  await rowAction(page, '1.0.0', 'Tornar atual');
  await page.getByRole('dialog').getByRole('button', { name: 'Tornar atual' }).click();
  await page.getByRole('tab', { name: 'Atual' }).click();
  await expect(page.getByText('robot.zip')).toBeVisible();

  // A task for the robot, with its field
  await page.getByRole('tab', { name: 'Tarefas do robô' }).click();
  await page.getByRole('button', { name: 'Nova tarefa' }).first().click();
  const taskForm = page.getByRole('dialog');
  await taskForm.getByRole('textbox', { name: 'Número da nota', exact: true }).fill('NF-123');
  await taskForm.getByLabel(/^Data de expiração/).fill('01/01/2031 10:00');
  await taskForm.getByRole('button', { name: 'Criar tarefa' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Pendente').first()).toBeVisible();

  // A VM
  await page.goto('/vm');
  await page.getByRole('button', { name: 'Nova VM' }).first().click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Nome', exact: true }).fill('VM-01');
  await page
    .getByRole('dialog')
    .getByRole('textbox', { name: 'Hostname', exact: true })
    .fill('vm01.corp.local');
  await page.getByRole('dialog').getByRole('button', { name: 'Criar VM' }).click();
  await expect(page.getByRole('cell', { name: 'vm01.corp.local' }).first()).toBeVisible();

  // An agent on it: the token is shown once
  await page.goto('/node');
  await page.getByRole('button', { name: 'Novo agente' }).first().click();
  await page
    .getByRole('dialog')
    .getByRole('textbox', { name: 'Nome', exact: true })
    .fill('agent-01');
  await choose(page, 'VM', 'VM-01');
  await page.getByRole('dialog').getByRole('button', { name: 'Criar agente' }).click();
  const tokenBox = page.getByRole('textbox', { name: 'Token do agente' });
  await expect(tokenBox).toBeVisible();
  const token = await tokenBox.inputValue();
  expect(token).toMatch(/^[\w-]{43}$/);
  await page.getByRole('button', { name: 'Já copiei o token' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'agent-01' }).first()).toBeVisible();
  expect(await page.content()).not.toContain(token);
  const agents = await page.request.post('/api/rota/node/api/v1/index', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: {},
  });
  expect(await agents.text()).not.toContain(token);

  // A scheduling on that VM; delete it, find it under "Deleted schedulings", restore it
  await page.goto('/scheduling');
  await page.getByRole('button', { name: 'Novo agendamento' }).first().click();
  const schedulingForm = page.getByRole('dialog');
  await schedulingForm
    .getByRole('textbox', { name: 'Nome', exact: true })
    .fill('Notas de hora em hora');
  await choose(page, 'Robô', 'Leitor de notas');
  await schedulingForm
    .getByRole('textbox', { name: 'Intervalo (minutos)', exact: true })
    .fill('60');
  await schedulingForm
    .getByRole('textbox', { name: 'Tempo limite (minutos)', exact: true })
    .fill('10');
  await choose(page, 'VMs', 'VM-01');
  await schedulingForm.getByRole('button', { name: 'Criar agendamento' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'Notas de hora em hora' }).first()).toBeVisible();
  await expect(page.getByText('a cada hora')).toBeVisible();

  await rowAction(page, 'Notas de hora em hora', 'Excluir');
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByRole('cell', { name: 'Notas de hora em hora' })).toHaveCount(0);
  await page
    .getByRole('radiogroup', { name: 'Quais agendamentos' })
    .getByText('Agendamentos excluídos', { exact: true })
    .click();
  await expect(page).toHaveURL(/deleted=deleted/);
  await expect(page.getByRole('cell', { name: 'Notas de hora em hora' }).first()).toBeVisible();
  await rowAction(page, 'Notas de hora em hora', 'Restaurar');
  await expect(page.getByRole('cell', { name: 'Notas de hora em hora' })).toHaveCount(0);
  await page
    .getByRole('radiogroup', { name: 'Quais agendamentos' })
    .getByText('Agendamentos não excluídos', { exact: true })
    .click();
  await expect(page.getByRole('cell', { name: 'Notas de hora em hora' }).first()).toBeVisible();

  // A parameter with a password: masked afterwards, never sent back
  await page.goto('/parameter');
  await page.getByRole('button', { name: 'Novo parâmetro' }).first().click();
  const parameterForm = page.getByRole('dialog');
  await parameterForm.getByRole('textbox', { name: 'Nome', exact: true }).fill('ERP_PASSWORD');
  await parameterForm
    .getByRole('radiogroup', { name: 'Valor ou senha' })
    .getByText('Senha', { exact: true })
    .click();
  await parameterForm
    .getByRole('textbox', { name: 'Senha do parâmetro', exact: true })
    .fill('s3cret-Value!');
  await parameterForm.getByRole('button', { name: 'Criar parâmetro' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'ERP_PASSWORD' }).first()).toBeVisible();
  await expect(page.getByText('••••••••').first()).toBeVisible();
  expect(await page.content()).not.toContain('s3cret-Value!');
  const parameters = await page.request.post('/api/rota/parameter/api/v1/index', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: {},
  });
  expect(await parameters.text()).not.toContain('s3cret-Value!');
});
