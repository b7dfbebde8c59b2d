import { expect, test } from '@playwright/test';
import { chooseLanguage, createFreshUser } from './fixtures/identity';

/**
 * Sessions: one user signed in from two browsers; the first lists both, signs the
 * other out, and the other's next page is the sign-in page. In pt and in en.
 */

const TEXT = {
  pt: {
    menu: 'Menu do usuário',
    sessions: 'Sessões',
    thisDevice: 'Este dispositivo',
    signOut: 'Encerrar',
    access: /Acesso ou e-mail/,
    password: /^Senha/,
    signIn: 'Entrar',
  },
  en: {
    menu: 'User menu',
    sessions: 'Sessions',
    thisDevice: 'This device',
    signOut: 'Sign out',
    access: /Access or email/,
    password: /^Password/,
    signIn: 'Sign in',
  },
} as const;

for (const lang of ['pt', 'en'] as const) {
  test(`signs another browser out from the sessions page (${lang})`, async ({
    browser,
    request,
  }) => {
    const text = TEXT[lang];
    const user = await createFreshUser(request, `ses${lang}`);
    const first = await browser.newContext();
    const second = await browser.newContext();
    const [a, b] = [await first.newPage(), await second.newPage()];
    for (const page of [a, b]) {
      await page.goto('/login/sign-in');
      await chooseLanguage(page, lang);
      await page.getByLabel(text.access).fill(user.access);
      await page.getByLabel(text.password).fill(user.password);
      await page.getByRole('button', { name: text.signIn, exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    }

    await a.getByRole('button', { name: text.menu }).click();
    await a.getByRole('link', { name: text.sessions }).click();
    await expect(a).toHaveURL(/\/account\/sessions$/);
    const table = a.getByRole('table', { name: text.sessions });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(table.getByText(text.thisDevice)).toHaveCount(1);

    const other = rows.filter({ hasNot: a.getByText(text.thisDevice) });
    await other.getByRole('button', { name: new RegExp(`^${text.signOut} `) }).click();
    const dialog = a.getByRole('dialog');
    await dialog.getByRole('button', { name: text.signOut, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(rows).toHaveCount(1);

    // The other browser's next step: the sign-in page.
    await b.reload();
    await expect(b).toHaveURL(/\/login\/sign-in/);
    // This one is still in.
    await a.reload();
    await expect(a.getByRole('table', { name: text.sessions })).toBeVisible();

    await first.close();
    await second.close();
  });
}
