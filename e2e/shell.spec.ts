import { expect, test } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { signIn, sidebar } from './fixtures/helpers';

const ALL_LINKS = ['Início', 'Atividades', 'Parâmetros', 'Robôs', 'Agendamentos', 'Agentes'];
const CONFIG_LINKS = ['Ambiente', 'Usuários', 'Equipes', 'Item de configuração'];

test('an administrator sees every link, in Portuguese by default', async ({ page }) => {
  await signIn(page, USERS.admin);
  const nav = sidebar(page);
  for (const name of ALL_LINKS)
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await nav.getByText('Configuração', { exact: true }).click();
  for (const name of CONFIG_LINKS)
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await nav.getByRole('link', { name: 'Usuários', exact: true }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByRole('heading', { name: 'Usuários' })).toBeVisible();
});

test('a user with only ROBOS.LIST sees Home and Robots, and is denied /user', async ({ page }) => {
  await signIn(page, USERS.viewer);
  const nav = sidebar(page);
  await expect(nav.getByRole('link', { name: 'Início', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Robôs', exact: true })).toBeVisible();
  for (const name of ['Atividades', 'Parâmetros', 'Agendamentos', 'Agentes']) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  await expect(nav.getByText('Configuração', { exact: true })).toHaveCount(0);
  // No client selector with a single client.
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveCount(0);

  await page.goto('/user');
  await expect(page.getByText('O acesso a pagina foi negado!')).toBeVisible();
  await expect(page.getByText('Você não tem autorização!')).toBeVisible();
  await page.goto('/robot');
  await expect(page.getByRole('heading', { name: 'Robôs' })).toBeVisible();
});

test('the language switch applies at once and survives a reload', async ({ page }) => {
  await signIn(page, USERS.viewer);
  // A menu opened while the live stream is still connecting closes again, so wait until it is live.
  await expect(page.getByRole('status').filter({ hasText: 'Ao vivo' })).toBeVisible();
  await page.getByRole('button', { name: 'Idioma' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(sidebar(page).getByRole('link', { name: 'Home', exact: true })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Robots', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en');

  await page.reload();
  await expect(sidebar(page).getByRole('link', { name: 'Robots', exact: true })).toBeVisible();
  await page.goto('/user');
  await expect(page.getByText('Access to the page has been denied!')).toBeVisible();
  await expect(page.getByText('You do not have authorization!')).toBeVisible();

  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'Português' }).click();
  await expect(page.getByText('O acesso a pagina foi negado!')).toBeVisible();
});

test('a user of two clients switches client; the page reloads with that client’s permissions', async ({
  page,
}) => {
  await signIn(page, USERS.multi);
  const nav = sidebar(page);
  await expect(nav.getByText('Configuração', { exact: true })).toBeVisible();
  const selector = page.getByRole('combobox', { name: 'Cliente' });
  await expect(selector).toHaveValue('Default');

  await selector.click();
  await page.getByRole('option', { name: 'ACME' }).click();
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveValue('ACME');
  await expect(nav.getByText('Configuração', { exact: true })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Agendamentos', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Atividades', exact: true })).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveValue('ACME');
});

test('the user popover asks before signing out', async ({ page }) => {
  await signIn(page, USERS.viewer);
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await expect(page.getByText('Vera Viewer')).toBeVisible();
  await expect(page.getByText('Deseja sair do sistema ?')).toBeVisible();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(page).toHaveURL(/\/login\/sign-in/);
  expect(
    (await page.context().cookies()).find((c) => c.name === 'e2e.rota.web.token'),
  ).toBeUndefined();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\/sign-in/);
});

test('on a phone the sidebar is a drawer behind the menu button', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, USERS.admin);
  const toggle = page.getByRole('button', { name: 'Abrir ou fechar o menu' });
  await expect(toggle).toBeVisible();
  const robots = sidebar(page).getByRole('link', { name: 'Robôs', exact: true });
  if (!(await robots.isVisible())) await toggle.click();
  await robots.click();
  await expect(page).toHaveURL(/\/robot$/);
  await expect(page.getByRole('heading', { name: 'Robôs' })).toBeVisible();
  // It closes after a navigation on small screens.
  await expect(robots).not.toBeInViewport();
});
