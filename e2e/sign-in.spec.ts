import { expect, test } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { signIn, sidebar } from './fixtures/helpers';

test('a visitor is sent to sign-in, sees the form errors and a wrong password, then signs in', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\/sign-in/);
  await expect(page).toHaveTitle('Rota - Control Room');
  // The bare sign-in page has no shell.
  await expect(page.getByText('Control room')).toHaveCount(0);

  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Acesso obrigatório')).toBeVisible();
  await expect(page.getByText('Senha obrigatória')).toBeVisible();

  await page.locator('input[name="access"]').fill(USERS.wrong.access);
  await page.locator('input[name="password"]').fill('not-the-password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Acesso ou senha incorretos')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/sign-in/);

  await page.locator('input[name="password"]').fill(USERS.wrong.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();
  await expect(sidebar(page).getByText('Control room')).toBeVisible();
  await expect(page.getByText('3.0.1')).toBeVisible();

  const cookie = (await page.context().cookies()).find((c) => c.name === 'e2e.rota.web.token');
  expect(cookie?.path).toBe('/');
  const hoursLeft = (cookie!.expires * 1000 - Date.now()) / 3_600_000;
  expect(hoursLeft).toBeGreaterThan(7.9);
  expect(hoursLeft).toBeLessThanOrEqual(8.01);
});

test('a user whose password must change sets a new one before anything else', async ({ page }) => {
  await signIn(page, USERS.fresh);
  await expect(page.getByText('Defina uma nova senha')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Início' })).toHaveCount(0);

  await page.getByLabel('Senha atual').fill(USERS.fresh.password);
  await page.getByLabel('Nova senha', { exact: true }).fill('Fresh-new-pass1');
  await page.getByLabel('Confirme a nova senha').fill('Fresh-other-pass');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page.getByText('As senhas devem ser iguais')).toBeVisible();

  await page.getByLabel('Confirme a nova senha').fill('Fresh-new-pass1');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Robôs' })).toBeVisible();
});
