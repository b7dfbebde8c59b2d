import { expect, test, type Locator, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/** "Look": layout fixes kept fixed in a real browser, in Portuguese and in English. */

async function useLanguage(page: Page, lang: 'pt' | 'en') {
  await page.addInitScript((value) => localStorage.setItem('lang', value), lang);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

const T = {
  pt: {
    newEnv: 'Novo ambiente',
    title: 'Título',
    create: 'Criar ambiente',
    host: 'Host',
    port: 'Porta',
    runNow: 'Executar agora',
    inputs: ['Prioridade', 'Tempo limite (minutos)', 'Novas tentativas'],
    newUser: 'Novo usuário',
    profiles: 'Perfis',
    newProfile: 'Novo perfil',
    lastCell: 'Histórico de atividades: Excluir',
  },
  en: {
    newEnv: 'New environment',
    title: 'Title',
    create: 'Create environment',
    host: 'Host',
    port: 'Port',
    runNow: 'Run now',
    inputs: ['Priority', 'Timeout (minutes)', 'Retries'],
    newUser: 'New user',
    profiles: 'Profiles',
    newProfile: 'New profile',
    lastCell: 'Activity history: Delete',
  },
} as const;

for (const lang of ['pt', 'en'] as const) {
  const t = T[lang];

  test(`${lang}: a popup starts below the header, never over its buttons`, async ({ page }) => {
    await useLanguage(page, lang);
    await signIn(page, USERS.admin);
    await page.goto('/env');
    await page.getByRole('button', { name: t.newEnv }).first().click();
    await page.getByRole('dialog').getByRole('textbox', { name: t.title }).fill(`Env ${lang}`);
    await page.getByRole('dialog').getByRole('button', { name: t.create }).click();
    const toast = page.locator('.mantine-Notification-root').first();
    await expect(toast).toBeVisible();
    const header = await box(page.locator('header').first());
    expect((await box(toast)).y).toBeGreaterThanOrEqual(header.y + header.height);
  });

  test(`${lang}: Run now's inputs share one top line; on a phone each field is full width`, async ({
    page,
  }) => {
    await useLanguage(page, lang);
    await signIn(page, USERS.admin);
    const made = await page.request.post('/api/rota/robot/api/v1/create', {
      headers: { authorization: `Bearer ${await sessionToken(page)}` },
      data: { name: `Robô alinhado ${lang}`, executor: 'node main.js' },
    });
    const robot = ((await made.json()) as { data: { rota_robots_id: number } }).data.rota_robots_id;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/robot/${robot}`);
    await page.getByRole('button', { name: t.runNow }).first().click();
    const dialog = page.getByRole('dialog');
    const tops = await Promise.all(
      t.inputs.map(async (name) => (await box(dialog.getByRole('textbox', { name }))).y),
    );
    // Descriptions of one, two and three lines above them: the inputs still line up.
    for (const top of tops) expect(Math.abs(top - tops[0]!)).toBeLessThan(1);

    // The user form: the password has a description, its confirmation none; same top line.
    await page.goto('/user');
    await page.getByRole('button', { name: t.newUser }).first().click();
    const user = page.getByRole('dialog');
    const [password, confirm] = await Promise.all(
      ['password', 'confirm_password'].map((name) => box(user.locator(`input[name="${name}"]`))),
    );
    expect(Math.abs(password!.y - confirm!.y)).toBeLessThan(1);

    // The environment form on a phone: host and port each take the drawer's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/env');
    await page.getByRole('button', { name: t.newEnv }).first().click();
    const env = page.getByRole('dialog');
    const title = await box(env.getByRole('textbox', { name: t.title }));
    const host = await box(env.getByRole('textbox', { name: t.host }));
    const port = await box(env.getByRole('textbox', { name: t.port }));
    expect(Math.abs(host.width - title.width)).toBeLessThan(2);
    expect(Math.abs(port.width - title.width)).toBeLessThan(2);
  });

  test(`${lang}: on a phone the permission matrix scrolls in its own box, nothing cut off`, async ({
    page,
  }) => {
    await useLanguage(page, lang);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, USERS.admin);
    await page.goto('/user');
    await page.getByRole('tab', { name: t.profiles }).click();
    await page.getByRole('button', { name: t.newProfile }).first().click();
    const dialog = page.getByRole('dialog');
    const cell = dialog.getByRole('checkbox', { name: t.lastCell });
    await cell.scrollIntoViewIfNeeded();
    await cell.check();
    await expect(cell).toBeChecked();
    const drawer = await box(dialog);
    const b = await box(cell);
    expect(b.x + b.width).toBeLessThanOrEqual(drawer.x + drawer.width);
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
}
