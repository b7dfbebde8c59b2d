import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { chooseLanguage, createFreshUser, currentStep, nextTotp } from './fixtures/identity';

/**
 * The second factor: a user sets up TOTP from the user menu (the secret read from the
 * page, codes computed here with otplib), keeps the recovery codes, and from then on signs in
 * with password and code; a recovery code works once. In pt and in en.
 */

const TEXT = {
  pt: {
    menu: 'Menu do usuário',
    twoStep: 'Verificação em duas etapas',
    setUp: 'Configurar',
    secret: 'Chave secreta',
    appCode: /^Código do aplicativo/,
    confirm: 'Confirmar e ativar',
    codes: 'Códigos de recuperação',
    saved: 'Já guardei',
    on: 'A verificação em duas etapas está ativa',
    signOut: 'Sim',
    access: /Acesso ou e-mail/,
    password: /^Senha/,
    signIn: 'Entrar',
    code: 'Código de verificação',
    verify: 'Verificar',
    useRecovery: 'Usar um código de recuperação',
    recovery: 'Código de recuperação',
    invalid: 'O código não é válido. Confira a hora do celular e tente de novo.',
  },
  en: {
    menu: 'User menu',
    twoStep: 'Two-step verification',
    setUp: 'Set up',
    secret: 'Secret key',
    appCode: /^Code from the app/,
    confirm: 'Confirm and turn on',
    codes: 'Recovery codes',
    saved: 'I saved them',
    on: 'Two-step verification is on',
    signOut: 'Yes',
    access: /Access or email/,
    password: /^Password/,
    signIn: 'Sign in',
    code: 'Verification code',
    verify: 'Verify',
    useRecovery: 'Use a recovery code',
    recovery: 'Recovery code',
    invalid: 'The code is not valid. Check the time on your phone and try again.',
  },
} as const;

type Text = (typeof TEXT)[keyof typeof TEXT];

async function signOut(page: Page, text: Text) {
  await page.getByRole('button', { name: text.menu }).click();
  await page.getByRole('button', { name: text.signOut, exact: true }).click();
  await expect(page).toHaveURL(/\/login\/sign-in/);
}

async function password(page: Page, text: Text, user: { access: string; password: string }) {
  await page.getByLabel(text.access).fill(user.access);
  await page.getByLabel(text.password).fill(user.password);
  await page.getByRole('button', { name: text.signIn, exact: true }).click();
  await expect(page.getByRole('textbox', { name: text.code })).toBeVisible();
}

for (const lang of ['pt', 'en'] as const) {
  test(`enrols from the menu, then signs in with a code and once with a recovery code (${lang})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const text = TEXT[lang];
    const user = await createFreshUser(request, `mfa${lang}`);

    await page.goto('/login/sign-in');
    await chooseLanguage(page, lang);
    await page.getByLabel(text.access).fill(user.access);
    await page.getByLabel(text.password).fill(user.password);
    await page.getByRole('button', { name: text.signIn, exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Enrol from the user menu.
    await page.getByRole('button', { name: text.menu }).click();
    await page.getByRole('link', { name: text.twoStep }).click();
    await expect(page).toHaveURL(/\/account\/two-step$/);
    await page.getByRole('button', { name: text.setUp }).click();
    await expect(page.getByRole('img', { name: /QR/ })).toBeVisible();
    const secret = await page.getByRole('textbox', { name: text.secret }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const enrolStep = currentStep();
    await page.getByRole('textbox', { name: text.appCode }).fill(await generate({ secret }));
    await page.getByRole('button', { name: text.confirm }).click();
    const list = page.getByRole('list', { name: text.codes });
    await expect(list.getByRole('listitem')).toHaveCount(10);
    const codes = await list.getByRole('listitem').allTextContents();
    await page.getByRole('button', { name: text.saved, exact: true }).click();
    await expect(page.getByText(text.on)).toBeVisible();

    // Password, then a code of a later step (a step is never taken twice).
    await signOut(page, text);
    await password(page, text, user);
    await page.getByRole('textbox', { name: text.code }).fill(await nextTotp(secret, enrolStep));
    await page.getByRole('button', { name: text.verify }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A recovery code signs in once...
    await signOut(page, text);
    await password(page, text, user);
    await page.getByRole('button', { name: text.useRecovery }).click();
    await page.getByRole('textbox', { name: text.recovery, exact: true }).fill(codes[0]!);
    await page.getByRole('button', { name: text.verify }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // ...and never again.
    await signOut(page, text);
    await password(page, text, user);
    await page.getByRole('button', { name: text.useRecovery }).click();
    await page.getByRole('textbox', { name: text.recovery, exact: true }).fill(codes[0]!);
    await page.getByRole('button', { name: text.verify }).click();
    await expect(page.getByText(text.invalid)).toBeVisible();
    await expect(page).toHaveURL(/\/login\/sign-in/);
  });
}
