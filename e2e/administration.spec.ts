import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, sidebar, signIn } from './fixtures/helpers';

/** A robot made through the API as the signed-in user (robot screens have their own spec). */
async function createRobot(page: Page, name: string) {
  const res = await page.request.post('/api/rota/robot/api/v1/create', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: { name, executor: 'node main.js' },
  });
  expect(res.status()).toBe(201);
}

async function signOut(page: Page) {
  await page.context().clearCookies();
}

test('an administrator makes a profile holding only ROBOS.LIST and a user with it; that user changes the password and sees only Home and Robots', async ({
  page,
}) => {
  await signIn(page, USERS.admin);
  await page.goto('/user');
  await page.getByRole('tab', { name: 'Perfis' }).click();
  await page.getByRole('button', { name: 'Novo perfil' }).click();
  const profileDrawer = page.getByRole('dialog', { name: 'Novo perfil' });
  await profileDrawer.getByLabel('Nome').fill('Somente robôs');
  await profileDrawer.getByRole('checkbox', { name: 'Robôs: Listar' }).check();
  await expect(profileDrawer.getByText('1 de 28 permissões')).toBeVisible();
  await profileDrawer.getByRole('button', { name: 'Criar perfil' }).click();
  await expect(profileDrawer).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Somente robôs/ })).toBeVisible();

  await page.getByRole('tab', { name: 'Usuários' }).click();
  await page.getByRole('button', { name: 'Novo usuário' }).click();
  const userDrawer = page.getByRole('dialog', { name: 'Novo usuário' });
  await userDrawer.getByRole('button', { name: 'Criar usuário' }).click();
  // The field messages, from the same schemas the server uses.
  await expect(userDrawer.getByText('Nome obrigatório', { exact: true })).toBeVisible();
  await expect(userDrawer.getByText('Acesso obrigatório')).toBeVisible();
  await userDrawer.getByRole('textbox', { name: 'Nome', exact: true }).fill('Paula 2');
  await expect(
    userDrawer.getByText('Não está no formato correto, digite apenas letras.'),
  ).toBeVisible();
  await userDrawer.getByRole('textbox', { name: 'Nome', exact: true }).fill('Paula');
  await userDrawer.getByRole('textbox', { name: 'Sobrenome', exact: true }).fill('Perfil');
  await userDrawer
    .getByRole('textbox', { name: 'E-mail', exact: true })
    .fill('paula.perfil@example.com');
  await userDrawer.getByRole('textbox', { name: 'Acesso', exact: true }).fill('paula');
  await userDrawer.getByRole('textbox', { name: 'Grupo', exact: true }).fill('Operações');
  await userDrawer.getByRole('textbox', { name: 'Setor', exact: true }).fill('Financeiro');
  await userDrawer.getByRole('textbox', { name: 'Trabalho', exact: true }).fill('Conciliação');
  await userDrawer.getByRole('textbox', { name: 'Cargo', exact: true }).fill('Analista');
  await userDrawer.getByRole('textbox', { name: 'Senha', exact: true }).fill('Paula-first-1');
  await userDrawer
    .getByRole('textbox', { name: 'Confirme a senha', exact: true })
    .fill('Paula-first-1');
  await userDrawer.getByRole('combobox', { name: 'Perfil' }).click();
  await page.getByRole('option', { name: 'Somente robôs' }).click();
  await userDrawer.getByRole('button', { name: 'Criar usuário' }).click();
  await expect(userDrawer).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Paula Perfil/ })).toBeVisible();

  await signOut(page);
  await signIn(page, { access: 'paula', password: 'Paula-first-1' });
  await expect(page.getByText('Defina uma nova senha')).toBeVisible();
  await page.getByLabel('Senha atual').fill('Paula-first-1');
  await page.getByLabel('Nova senha', { exact: true }).fill('Paula-second-2');
  await page.getByLabel('Confirme a nova senha').fill('Paula-second-2');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();

  const nav = sidebar(page);
  await expect(nav.getByRole('link', { name: 'Início', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Robôs', exact: true })).toBeVisible();
  await expect(nav.getByRole('link')).toHaveCount(2);
  await expect(nav.getByText('Configuração', { exact: true })).toHaveCount(0);
  await page.goto('/user');
  await expect(page.getByText('O acesso a pagina foi negado!')).toBeVisible();
  await expect(page.getByText('Você não tem autorização!')).toBeVisible();
});

test('a user of two clients picks the client in the header and sees that client’s robots', async ({
  page,
}) => {
  await signIn(page, USERS.admin);
  await createRobot(page, 'Robô do Default');
  await signOut(page);

  await signIn(page, USERS.multi);
  await page.goto('/robot');
  await expect(page.getByRole('link', { name: 'Robô do Default' })).toBeVisible();
  await expect(page.getByText('Robô da ACME')).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Cliente' }).click();
  await page.getByRole('option', { name: 'ACME' }).click();
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveValue('ACME');
  await expect(page.getByText('Robô da ACME')).toBeVisible();
  await expect(page.getByText('Robô do Default')).toHaveCount(0);

  // The choice is kept on the server: put it back for the other specs that sign in as this user.
  await page.getByRole('combobox', { name: 'Cliente' }).click();
  await page.getByRole('option', { name: 'Default' }).click();
  await expect(page.getByRole('link', { name: 'Robô do Default' })).toBeVisible();
});

test('a team limits what its member sees to the team’s robots', async ({ page }) => {
  await signIn(page, USERS.admin);
  await createRobot(page, 'Robô Azul');
  await createRobot(page, 'Robô Verde');
  await page.goto('/team');
  // The header's button: once the (empty) list has loaded its empty state offers another.
  await page.getByRole('button', { name: 'Nova equipe' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Nova equipe' });
  await drawer.getByLabel('Nome').fill('Equipe Azul');
  await drawer.getByPlaceholder('Buscar robôs').fill('Azul');
  await page.getByRole('option', { name: 'Robô Azul' }).click();
  await drawer.getByPlaceholder('Buscar usuários').fill('Tomás');
  await page.getByRole('option', { name: 'Tomás Time' }).click();
  // A multi-select keeps its list open for the next pick: close it before submitting.
  await drawer.getByRole('heading', { name: 'Nova equipe' }).click();
  await drawer.getByRole('button', { name: 'Criar equipe' }).click();
  await expect(drawer).toHaveCount(0);
  const row = page.getByRole('row', { name: /Equipe Azul/ });
  await expect(row).toBeVisible();

  await signOut(page);
  await signIn(page, USERS.teamed);
  await page.goto('/robot');
  await expect(page.getByText('Robô Azul')).toBeVisible();
  await expect(page.getByText('Robô Verde')).toHaveCount(0);
  // What the console does not show, the API does not answer either.
  const res = await page.request.post('/api/rota/robot/api/v1/index', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: { per_page: 100 },
  });
  const names = (await res.json()).data.map((r: { name: string }) => r.name);
  expect(names).toContain('Robô Azul');
  expect(names).not.toContain('Robô Verde');
});

test('screenshots of the administration pages (with SHOTS_DIR)', async ({ page }) => {
  const dir = process.env.SHOTS_DIR;
  test.skip(!dir, 'set SHOTS_DIR to take the screenshots');
  test.setTimeout(120_000);
  await mkdir(dir!, { recursive: true });
  await signIn(page, USERS.admin);
  const sizes = { wide: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
  const pages = ['/user', '/user?tab=profiles', '/team', '/env', '/connector', '/client', '/audit'];
  for (const lang of ['pt', 'en'] as const) {
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    for (const [size, viewport] of Object.entries(sizes)) {
      await page.setViewportSize(viewport);
      for (const url of pages) {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForTimeout(700);
        const name = url.slice(1).replace(/[?=]/g, '-');
        await page.screenshot({
          path: path.join(dir!, `${name}-${size}-${lang}.png`),
          fullPage: true,
        });
      }
    }
  }
});
