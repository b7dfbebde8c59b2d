import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { signIn } from './fixtures/helpers';

/**
 * "My account": a user changes their own name and language; the language is kept with
 * the account, so after signing out and in again on a fresh browser the console speaks it.
 * Screenshots at 1440 and 390 px, pt and en, light and dark go to /tmp/account16-*.png.
 */

async function openAccount(page: Page, menu: RegExp) {
  await page.getByRole('button', { name: /^(Menu do usuário|User menu)$/ }).click();
  await page.getByRole('link', { name: menu }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test('changes their own name and language; both follow them to another browser', async ({
  page,
  browser,
}) => {
  await signIn(page, USERS.account);
  await openAccount(page, /^Minha conta$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Minha conta' })).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/account16-pt-light-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Otávio');
  await page.getByRole('textbox', { name: 'Sobrenome' }).fill('Próprio');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Sua conta foi salva')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu do usuário' })).toContainText(
    'Otávio Próprio',
  );

  // The language, at once here and kept with the account.
  const language = page.getByRole('radiogroup', { name: 'Idioma' });
  await language.getByText('English').click();
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/account16-en-light-${width}.png`, fullPage: true });
  }
  await page.getByRole('radiogroup', { name: 'Colour scheme' }).getByText('Dark').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/account16-en-dark-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Sign out for real.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/login\/sign-in/);

  // Another browser: nothing in its storage; the sign-in page is in the default language.
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await signIn(fresh, USERS.account);
  await expect(fresh.getByRole('button', { name: 'User menu' })).toContainText('Otávio Próprio');
  await expect(fresh.locator('html')).toHaveAttribute('lang', 'en');
  await expect(fresh.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await openAccount(fresh, /^My account$/);
  await expect(fresh.getByRole('textbox', { name: 'First name' })).toHaveValue('Otávio');

  // Back to Portuguese and light, kept too (the dark pt screenshots on the way).
  await fresh.getByRole('radiogroup', { name: 'Language' }).getByText('Português').click();
  await expect(fresh.getByRole('heading', { level: 1, name: 'Minha conta' })).toBeVisible();
  for (const width of [1440, 390]) {
    await fresh.setViewportSize({ width, height: 900 });
    await fresh.screenshot({ path: `/tmp/account16-pt-dark-${width}.png`, fullPage: true });
  }
  await fresh.getByRole('radiogroup', { name: 'Tema' }).getByText('Claro').click();
  await expect(fresh.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  // No horizontal overflow on a phone.
  await fresh.setViewportSize({ width: 390, height: 900 });
  const overflow = await fresh.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await other.close();
});
