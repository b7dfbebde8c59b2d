import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/**
 * Reach everyone: axe-core (WCAG 2 A and AA) on every console page, in the light and
 * the dark colour scheme, finds no serious or critical violation. Contrast is fixed in the theme,
 * so a page that regresses here usually hard-codes a colour the theme does not own.
 */

type Scheme = 'light' | 'dark';

const PUBLIC_PAGES = ['/login/sign-in', '/login/recover-password', '/login/request-access'];

/** Shell pages; `:robot` and `:execution` are filled in with what the test creates. */
const SHELL_PAGES = [
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

/** Mantine keeps the chosen scheme in localStorage; set it before the console's first paint. */
async function useScheme(page: Page, scheme: Scheme) {
  await page.addInitScript((value) => {
    localStorage.setItem('mantine-color-scheme-value', value);
  }, scheme);
}

/** A page is ready when its heading shows and no loader or skeleton is left. */
async function settle(page: Page) {
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', /light|dark/);
}

/** Serious and critical violations on the current page, one readable line each. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.html.slice(0, 120)} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`,
      ),
    );
}

async function check(page: Page, path: string, found: string[]) {
  await page.goto(path);
  await settle(page);
  for (const line of await violations(page)) found.push(`${path}: ${line}`);
}

/** A robot and one queued run of it, so the robot and execution pages have something to show. */
async function robotAndRun(page: Page): Promise<{ robot: number; execution: number }> {
  const headers = { authorization: `Bearer ${await sessionToken(page)}` };
  const made = await page.request.post('/api/rota/robot/api/v1/create', {
    headers,
    data: { name: `Robô acessível ${Date.now()}`, executor: 'node main.js' },
  });
  expect(made.status()).toBe(201);
  const robot = ((await made.json()) as { data: { rota_robots_id: number } }).data.rota_robots_id;
  const run = await page.request.post('/api/rota/robot/api/v1/run', {
    headers,
    data: { id: robot },
  });
  expect(run.ok(), `run answered ${run.status()}`).toBe(true);
  const execution = ((await run.json()) as { data: { execution_id: number } }).data.execution_id;
  return { robot, execution };
}

for (const scheme of ['light', 'dark'] as const) {
  test(`no serious or critical axe-core violation on any page, ${scheme} scheme`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await useScheme(page, scheme);
    const found: string[] = [];

    for (const path of PUBLIC_PAGES) await check(page, path, found);

    await signIn(page, USERS.admin);
    const { robot, execution } = await robotAndRun(page);
    for (const path of SHELL_PAGES) {
      const url = path.replace(':robot', String(robot)).replace(':execution', String(execution));
      await check(page, url, found);
    }

    expect(found, found.join('\n')).toEqual([]);
  });
}
