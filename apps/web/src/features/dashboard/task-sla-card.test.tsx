import '@testing-library/jest-dom/vitest';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Dashboard, Language } from '@rota/contract';
import { makeDashboard } from '../../../test/activity-fixtures';
import { openPage } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

async function openDashboard(dashboard: Dashboard, lang: Language, permissions: string[] = []) {
  return openPage(
    '/dashboard',
    /Início|Home/,
    permissions,
    ({ url }) => {
      if (url.endsWith('/dashboard/api/v1/index'))
        return { status: 200, body: { data: dashboard } };
      // No live stream in this test: the page keeps working without it.
      if (url.endsWith('/events/api/v1/stream')) return { status: 503, body: {} };
      return undefined;
    },
    lang,
  );
}

const sla: Dashboard['task_sla'] = [
  { rota_robots_id: 1, rota_robots_name: 'Faturas', at_risk: 2, breached: 3 },
  { rota_robots_id: 2, rota_robots_name: 'Boletos', at_risk: 1, breached: 0 },
];

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('dashboard: tasks at risk / breached', { timeout: 20_000 }, () => {
  it('lists each robot with its counts (pt), linking to its tasks', async () => {
    await openDashboard(makeDashboard({ task_sla: sla }), 'pt', ['ATIVIDADES.LIST']);
    const card = (await screen.findByRole('heading', { name: 'Tarefas em risco / violadas' }))
      .parentElement!;
    // The figures draw in a background render, after the card's skeleton.
    const faturas = await within(card).findByRole('link', { name: 'Faturas' });
    expect(faturas).toHaveAttribute('href', '/robot/1?tab=tasks');
    const first = faturas.closest('li')!;
    expect(within(first).getByText('2 em risco')).toBeInTheDocument();
    expect(within(first).getByText('3 violadas')).toBeInTheDocument();
    const second = within(card).getByRole('link', { name: 'Boletos' }).closest('li')!;
    expect(within(second).getByText('1 em risco')).toBeInTheDocument();
    expect(within(second).queryByText(/violada/)).toBeNull();
  });

  it('says so when none is at risk (en), and names robots without links to tasks it cannot list', async () => {
    await openDashboard(makeDashboard({ task_sla: [] }), 'en');
    const card = (await screen.findByRole('heading', { name: 'Tasks at risk / breached' }))
      .parentElement!;
    expect(
      await within(card).findByText('No task is at risk or past its deadline.'),
    ).toBeInTheDocument();
  });

  it('counts in English', async () => {
    await openDashboard(makeDashboard({ task_sla: sla.slice(0, 1) }), 'en');
    const card = (await screen.findByRole('heading', { name: 'Tasks at risk / breached' }))
      .parentElement!;
    expect(await within(card).findByText('Faturas')).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: 'Faturas' })).toBeNull();
    expect(within(card).getByText('2 at risk')).toBeInTheDocument();
    expect(within(card).getByText('3 breached')).toBeInTheDocument();
  });
});
