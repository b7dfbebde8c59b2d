import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * "Look": screenshots of every console page and of its main forms, at
 * 1440 and 390 px, light and dark, pt and en, for a person to look at. Only with LOOK_SHOTS=dir
 * (e.g. /tmp/look16); it asserts nothing about pixels.
 */
const DIR = process.env.LOOK_SHOTS;
test.skip(!DIR, 'screenshots only on request (LOOK_SHOTS=<dir prefix>)');

type Combo = { width: number; lang: 'pt' | 'en'; scheme: 'light' | 'dark' };
const COMBOS: Combo[] = [
  { width: 1440, lang: 'pt', scheme: 'light' },
  { width: 390, lang: 'pt', scheme: 'dark' },
  { width: 1440, lang: 'en', scheme: 'dark' },
  { width: 390, lang: 'en', scheme: 'light' },
];

const PAGES = [
  '/dashboard',
  '/activity',
  '/activity/:execution',
  '/parameter',
  '/robot',
  '/robot/:robot',
  '/task',
  '/scheduling',
  '/scheduling/calendar',
  '/node',
  '/vm',
  '/env',
  '/user',
  '/team',
  '/connector',
  '/client',
  '/audit',
  '/alert',
  '/apikey',
];

async function prepare(page: Page, combo: Combo) {
  await page.setViewportSize({ width: combo.width, height: combo.width > 500 ? 900 : 844 });
  await page.addInitScript(
    ({ lang, scheme }) => {
      localStorage.setItem('lang', lang);
      localStorage.setItem('mantine-color-scheme-value', scheme);
    },
    { lang: combo.lang, scheme: combo.scheme },
  );
}

const name = (combo: Combo, what: string) =>
  `${DIR}-${what.replace(/^\//, '').replace(/[/:?=]+/g, '_') || 'root'}-${combo.width}-${combo.lang}-${combo.scheme}.png`;

async function settle(page: Page) {
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0);
}

for (const combo of COMBOS) {
  test(`pages and forms at ${combo.width} px, ${combo.lang}, ${combo.scheme}`, async ({ page }) => {
    test.setTimeout(300_000);
    await prepare(page, combo);
    await page.goto('/login/sign-in');
    await settle(page);
    await page.screenshot({ path: name(combo, 'sign-in'), fullPage: true });
    await signIn(page, USERS.admin);
    const headers = { authorization: `Bearer ${await sessionToken(page)}` };
    const made = await page.request.post('/api/rota/robot/api/v1/create', {
      headers,
      data: { name: `Robô ${combo.width}${combo.lang}${combo.scheme}`, executor: 'node main.js' },
    });
    const robot = ((await made.json()) as { data: { rota_robots_id: number } }).data.rota_robots_id;
    const run = await page.request.post('/api/rota/robot/api/v1/run', {
      headers,
      data: { id: robot },
    });
    const execution = ((await run.json()) as { data: { execution_id: number } }).data.execution_id;
    for (const path of PAGES) {
      const url = path.replace(':robot', String(robot)).replace(':execution', String(execution));
      await page.goto(url);
      await settle(page);
      await page.screenshot({ path: name(combo, path), fullPage: true });
    }
    // The main forms, opened empty and submitted empty (descriptions and errors).
    const forms: Array<{ path: string; open: RegExp; submit?: RegExp; tab?: RegExp }> = [
      { path: `/robot/${robot}`, open: /^(Executar agora|Run now)$/ },
      {
        path: '/scheduling',
        open: /^(Novo agendamento|New scheduling)$/,
        submit: /^(Criar|Create)/,
      },
      { path: '/env', open: /^(Novo ambiente|New environment)$/, submit: /^(Criar|Create)/ },
      { path: '/user', open: /^(Novo usuário|New user)$/, submit: /^(Criar|Create)/ },
      { path: '/user', tab: /^(Perfis|Profiles)$/, open: /^(Novo perfil|New profile)$/ },
    ];
    for (const form of forms) {
      await page.goto(form.path);
      await settle(page);
      if (form.tab) await page.getByRole('tab', { name: form.tab }).click();
      await page.getByRole('button', { name: form.open }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await page.waitForTimeout(400); // the drawer's opening transition
      const what = `form-${form.path}-${form.open.source.replace(/\W+/g, '')}`;
      await page.screenshot({ path: name(combo, what) });
      if (form.submit) {
        await dialog.getByRole('button', { name: form.submit }).last().click();
        await page.waitForTimeout(300);
        await page.screenshot({ path: name(combo, `${what}-errors`) });
      }
      await page.keyboard.press('Escape');
    }
  });
}
