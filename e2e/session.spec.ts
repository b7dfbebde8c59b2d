import { expect, test } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

test('signing out in one tab signs out every tab', async ({ context }) => {
  const first = await context.newPage();
  await signIn(first, USERS.tabs);
  const second = await context.newPage();
  await second.goto('/robot');
  await expect(second.getByRole('heading', { name: 'Robôs' })).toBeVisible();

  await first.getByRole('button', { name: 'Menu do usuário' }).click();
  await first.getByRole('button', { name: 'Sim' }).click();
  await expect(first).toHaveURL(/\/login\/sign-in/);
  await expect(second).toHaveURL(/\/login\/sign-in/);
});

test('a revoked session shows the 401 popup and goes to sign-in after 5 seconds', async ({
  context,
}) => {
  const signedIn = await context.newPage();
  await signIn(signedIn, USERS.expired);
  await expect(signedIn.getByRole('status').filter({ hasText: 'Ao vivo' })).toBeVisible();
  const token = await sessionToken(signedIn);
  // No page of this session may be open while it ends: one that notices first (its live stream
  // is closed at the next keep-alive and reopens into a 401, or any refetch) clears the cookie,
  // and the console opened afterwards would go straight to sign-in without a popup.
  await signedIn.close();
  // The session ends elsewhere (another device signs out, an administrator revokes it).
  const revoked = await context.request.post('/api/user/api/auth/v1/logout', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(revoked.status()).toBe(200);

  // The user comes back to the console. Its clock stands still from here on and moves only when
  // the test moves it, so the five seconds are the page's own time, not the machine's.
  const page = await context.newPage();
  await page.clock.install();
  // A second ahead of the page's own clock (it runs from the install on): measured in the page,
  // since a busy machine can spend more than that between the test's calls.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.goto('/dashboard');
  await expect(page.getByText('Não autorizado!')).toBeVisible();
  await page.clock.runFor(4_900);
  await expect(page.getByText('Não autorizado!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.clock.runFor(100);
  await expect(page).toHaveURL(/\/login\/sign-in/);
  await page.clock.resume();
  expect((await context.cookies()).find((c) => c.name === 'e2e.rota.web.token')).toBeUndefined();
});
