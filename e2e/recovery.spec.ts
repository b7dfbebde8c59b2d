import { expect, test } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { recoveryCodeFromLog, signIn } from './fixtures/helpers';

test('a user recovers the password through the mailed link', async ({ page }) => {
  await page.goto('/login/sign-in');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/login\/recover-password/);

  await page.getByLabel('E-mail').fill('not an email');
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.getByText('E-mail inválido')).toBeVisible();

  await page.getByLabel('E-mail').fill(USERS.recover.email);
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.getByText(/Se o e-mail pertence a uma conta/)).toBeVisible();

  const code = await recoveryCodeFromLog(USERS.recover.email);
  await page.goto(`/login/change-password?code=${encodeURIComponent(code)}`);
  await page.getByLabel('Nova senha', { exact: true }).fill('Recovered-pass1');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page).toHaveURL(/\/login\/sign-in/);

  await signIn(page, { access: USERS.recover.access, password: 'Recovered-pass1' });

  // The link works once.
  await page.goto(`/login/change-password?code=${encodeURIComponent(code)}`);
  await expect(page).toHaveURL(/\/login\/recover-password/);
});

test('an invalid code leads back to recover-password', async ({ page }) => {
  await page.goto('/login/change-password?code=made-up-code');
  await expect(page).toHaveURL(/\/login\/recover-password/);
});
