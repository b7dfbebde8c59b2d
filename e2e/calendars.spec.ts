import { expect, test } from '@playwright/test';
import { USERS } from './fixtures/constants';
import { sessionToken, signIn } from './fixtures/helpers';

/** A UTC day, `YYYY-MM-DD`, `days` after today. */
const utcDay = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('a calendar excluding tomorrow makes a cron scheduling’s preview skip tomorrow', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, USERS.admin);
  const auth = { authorization: `Bearer ${await sessionToken(page)}` };
  const robot = await page.request.post('/api/rota/robot/api/v1/create', {
    headers: auth,
    data: { name: 'Robô do calendário', executor: 'node main.js' },
  });
  expect(robot.status()).toBe(201);

  // The calendar page, under Schedulings in the sidebar.
  await page.goto('/scheduling');
  await page.getByRole('navigation').getByRole('link', { name: 'Calendários' }).click();
  await expect(page).toHaveURL(/\/scheduling\/calendar$/);
  await page.getByRole('button', { name: 'Novo calendário' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Novo calendário' });
  await drawer.getByRole('textbox', { name: 'Nome' }).fill('Folga amanhã');
  await drawer.getByRole('combobox', { name: 'Fuso horário' }).fill('UTC');
  await page.getByRole('option', { name: 'UTC', exact: true }).click();

  // Tomorrow, in the month view (the next month's when today is the month's last day).
  const today = utcDay(0);
  const tomorrow = utcDay(1);
  await expect(drawer.locator(`[data-day="${today}"]`)).toHaveAttribute('aria-current', 'date');
  if (tomorrow.slice(0, 7) !== today.slice(0, 7)) {
    await drawer.getByRole('button', { name: 'Próximo mês' }).click();
  }
  const day = drawer.locator(`[data-day="${tomorrow}"]`);
  await day.click();
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  await expect(drawer.getByText('1 data excluída')).toBeVisible();
  await drawer.getByRole('button', { name: 'Criar calendário' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'Folga amanhã' });
  await expect(row.getByRole('cell', { name: 'UTC', exact: true })).toBeVisible();

  // A cron scheduling at 07:00 UTC every day, on that calendar.
  await page.goto('/scheduling');
  await page.getByRole('button', { name: 'Novo agendamento' }).first().click();
  const form = page.getByRole('dialog', { name: 'Novo agendamento' });
  await form.getByRole('textbox', { name: 'Nome' }).fill('Todo dia às 7h');
  await form.getByRole('combobox', { name: 'Robô' }).click();
  await page.getByRole('option', { name: 'Robô do calendário' }).click();
  await form.getByText('Cron', { exact: true }).click();
  await form.getByRole('textbox', { name: 'Expressão cron' }).fill('0 7 * * *');
  await form.getByRole('combobox', { name: 'Fuso horário' }).fill('UTC');
  await page.getByRole('option', { name: 'UTC', exact: true }).click();

  // Without the calendar, tomorrow is among the next runs…
  const runs = form.locator('time[datetime]');
  await expect(runs).toHaveCount(5);
  const daysOf = async () =>
    (
      await runs.evaluateAll((items) => items.map((item) => item.getAttribute('datetime') ?? ''))
    ).map((iso) => new Date(iso).toISOString().slice(0, 10));
  expect(await daysOf()).toContain(tomorrow);

  // …with it, the preview skips tomorrow and goes on the day after.
  await form.getByRole('combobox', { name: 'Calendário de dias úteis' }).click();
  await page.getByRole('option', { name: 'Folga amanhã (UTC)' }).click();
  await expect.poll(daysOf).not.toContain(tomorrow);
  await expect(runs).toHaveCount(5);
  expect(await daysOf()).toContain(utcDay(2));

  await form.getByRole('textbox', { name: 'Tempo limite (minutos)' }).fill('30');
  await form.getByRole('button', { name: 'Criar agendamento' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const scheduling = page.getByRole('row').filter({ hasText: 'Todo dia às 7h' });
  await expect(scheduling.getByText('Cron 0 7 * * * (UTC)')).toBeVisible();
  // Its next run is not tomorrow either.
  const next = await scheduling.locator('time[datetime]').getAttribute('datetime');
  expect(new Date(next!).toISOString().slice(0, 10)).not.toBe(tomorrow);

  // The calendar in use cannot be deleted: the server says why.
  await page.goto('/scheduling/calendar');
  await page.getByRole('button', { name: 'Ações de Folga amanhã' }).click();
  await page.getByRole('menuitem', { name: 'Excluir' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir o calendário “Folga amanhã”?' });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(confirm.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Folga amanhã' })).toBeVisible();
});
