import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { signIn } from './fixtures/helpers';

/** Every CSP violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  return async () => [
    ...(await page.evaluate(
      () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
    )),
    ...consoleErrors,
  ];
}

test('the console raises no CSP violation: sign-in, dashboard, lists', async ({ page }) => {
  const violations = await watchViolations(page);
  const response = await page.goto('/login/sign-in');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');

  // Signing in validates a form with the contract's zod schemas (where the eval probe was).
  await signIn(page, USERS.admin);
  // The dashboard (its chart is SVG the console draws, with a few style properties).
  await expect(page.getByText('Execuções por dia')).toBeVisible();
  await page.goto('/robot');
  await expect(page.getByRole('heading', { name: 'Robôs' })).toBeVisible();
  await page.goto('/env');
  await expect(page.getByRole('heading', { name: 'Ambiente' })).toBeVisible();
  expect(await violations()).toEqual([]);
});
