import { expect, test, type Locator, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { signIn } from './fixtures/helpers';

/**
 * No dead ends, and dates in the console's language: unknown addresses, the denied
 * page's way back, Activity's bad range, and date inputs that write days as the tables do.
 */

const SHOTS = '/tmp/console16';
const THEME_TOGGLE = 'Toggle light and dark theme';
const pad = (n: number) => String(n).padStart(2, '0');

/** The default range's first day (today and the 9 before it), as the browser's clock sees it. */
function defaultStart(): Date {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - 9);
}

async function switchLanguage(page: Page, from: 'Idioma' | 'Language', to: string) {
  // A menu opened while the live stream is still connecting closes again, so wait until it is live.
  await expect(page.getByRole('status').filter({ hasText: /Ao vivo|Live/ })).toBeVisible();
  await page.getByRole('button', { name: from }).click();
  await page.getByRole('menuitem', { name: to }).click();
}

async function shoot(page: Page, name: string, ready: Locator) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    // Loaded at that width, so the phone layout is not caught mid-transition.
    await page.reload();
    await expect(ready).toBeVisible();
    await page.screenshot({ path: `${SHOTS}-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('an unknown address shows a not-found page with a way home, in pt and en', async ({
  page,
}) => {
  await signIn(page, USERS.viewer);
  await page.goto('/no/such/page');
  await expect(
    page.getByRole('heading', { name: 'Página não encontrada', level: 1 }),
  ).toBeVisible();
  // Still inside the shell: the sidebar is there, the address is kept.
  await expect(page.getByRole('navigation')).toBeAttached();
  await expect(page).toHaveURL(/\/no\/such\/page$/);
  await shoot(page, 'not-found-pt', page.getByRole('link', { name: 'Ir para o início' }));
  await page.getByRole('link', { name: 'Ir para o início' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible();

  await switchLanguage(page, 'Idioma', 'English');
  await page.goto('/robot/field/nothing/here');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await shoot(page, 'not-found-en', page.getByRole('link', { name: 'Go to home' }));
  const scheme = page.locator('header').getByRole('button', { name: THEME_TOGGLE });
  await scheme.click();
  await page.screenshot({ path: `${SHOTS}-not-found-en-dark-1440.png` });
  await scheme.click();
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await switchLanguage(page, 'Language', 'Português');
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible();
});

test('signed out, an unknown address goes to sign-in as before', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/login\/sign-in/);
});

test('the denied page has a way back to where the user came from', async ({ page }) => {
  await signIn(page, USERS.viewer);
  await page.goto('/robot');
  await expect(page.getByRole('heading', { name: 'Robôs', level: 1 })).toBeVisible();
  // An in-app navigation (as a link the user may not follow would make): the router's own
  // history entry, then the popstate it listens to.
  await page.evaluate(() => {
    window.history.pushState({ usr: null, key: 'e2e-denied', idx: 1 }, '', '/user');
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  });
  await expect(page.getByText('O acesso a pagina foi negado!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir para o início' })).toBeVisible();
  await page.getByRole('button', { name: 'Voltar' }).click();
  await expect(page).toHaveURL(/\/robot$/);
  await expect(page.getByRole('heading', { name: 'Robôs', level: 1 })).toBeVisible();

  // Opened straight from an address: nothing to go back to, only home.
  await page.goto('/user');
  await expect(page.getByText('O acesso a pagina foi negado!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Voltar' })).toHaveCount(0);
  await shoot(page, 'denied-pt', page.getByRole('link', { name: 'Ir para o início' }));
  await page.getByRole('link', { name: 'Ir para o início' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('Activity: a bad range clears the rows and says why in place, the filters stay put', async ({
  page,
}) => {
  await signIn(page, USERS.admin);
  await page.goto('/activity');
  await expect(page.getByRole('heading', { name: 'Atividades', level: 1 })).toBeVisible();
  const start = page.getByLabel('Data inicial');
  const end = page.getByLabel('Data final');
  // The start day written as the pt tables write days.
  const first = defaultStart();
  await expect(start).toHaveValue(
    `${pad(first.getDate())}/${pad(first.getMonth() + 1)}/${first.getFullYear()}`,
  );
  const exportButton = page.getByRole('button', { name: 'Exportar CSV' });
  const status = page.getByRole('combobox', { name: 'Status' });
  const before = { status: await status.boundingBox(), end: await end.boundingBox() };

  // An end before the start.
  const dayBefore = new Date(first.getFullYear(), first.getMonth(), first.getDate() - 1);
  await end.fill(
    `${pad(dayBefore.getDate())}/${pad(dayBefore.getMonth() + 1)}/${dayBefore.getFullYear()}`,
  );
  await end.press('Escape');
  const alert = page.getByRole('alert').filter({ hasText: 'Período inválido' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('table', { name: 'Execuções' })).toHaveCount(0);
  await expect(exportButton).toBeDisabled();
  await expect(end).toHaveAttribute('aria-invalid', 'true');
  const after = { status: await status.boundingBox(), end: await end.boundingBox() };
  expect(after.status?.y).toBe(before.status?.y);
  expect(after.end?.height).toBe(before.end?.height);
  await page.mouse.click(5, 5);
  await shoot(page, 'activity-bad-range-pt', alert);

  // A valid range again: the alert goes, the export comes back.
  await end.fill(`${pad(first.getDate())}/${pad(first.getMonth() + 1)}/${first.getFullYear()}`);
  await end.press('Escape');
  await expect(alert).toHaveCount(0);
  await expect(end).not.toHaveAttribute('aria-invalid', 'true');
  await expect(exportButton).toBeEnabled();
});

test('a date input writes dd/MM/yyyy in pt and MM/DD/YYYY in en, whatever the browser', async ({
  page,
}) => {
  await signIn(page, USERS.viewer);
  const first = defaultStart();
  const start = () => page.getByLabel(/^(Data inicial|Start date)/);
  await expect(start()).toHaveValue(
    `${pad(first.getDate())}/${pad(first.getMonth() + 1)}/${first.getFullYear()}`,
  );
  await start().click();
  await page.screenshot({ path: `${SHOTS}-date-input-pt-1440.png` });
  await start().press('Escape');

  await switchLanguage(page, 'Idioma', 'English');
  await expect(start()).toHaveValue(
    `${pad(first.getMonth() + 1)}/${pad(first.getDate())}/${first.getFullYear()}`,
  );
  await start().click();
  await page.screenshot({ path: `${SHOTS}-date-input-en-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}-date-input-en-390.png` });
  await start().press('Escape');
  await switchLanguage(page, 'Language', 'Português');
  await expect(start()).toHaveValue(
    `${pad(first.getDate())}/${pad(first.getMonth() + 1)}/${first.getFullYear()}`,
  );
});
