import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Dashboard, Language } from '@rota/contract';
import { isoDateOf } from '../src/lib/format';
import { createLiveServer, makeDashboard } from './activity-fixtures';
import { callsTo, openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

function lastTenDays() {
  const now = new Date();
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 9);
  return { startDate: isoDateOf(start), endDate: isoDateOf(now) };
}

async function openDashboard(
  options: {
    permissions?: string[];
    path?: string;
    lang?: Language;
    dashboard?: Dashboard;
    /** The answer to the n-th dashboard call (from 1), instead of the same one each time. */
    dashboardOf?: (n: number) => Dashboard;
  } = {},
) {
  const live = createLiveServer();
  let served = 0;
  const view = await openPage(
    options.path ?? '/dashboard',
    /Início|Home/,
    options.permissions ?? [],
    ({ url }) => {
      if (url.endsWith('/dashboard/api/v1/index')) {
        served += 1;
        const data = options.dashboardOf?.(served) ?? options.dashboard ?? makeDashboard();
        return { status: 200, body: { data } };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    options.lang,
  );
  return { ...view, live };
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/dashboard', { timeout: 20_000 }, () => {
  it('shows the robots per category for the last 10 days, with a session only', async () => {
    const { calls } = await openDashboard();
    const categories = await screen.findByRole('region', { name: 'Robôs por categoria' });
    const count = (name: string) => within(categories).getByRole('group', { name });
    await waitFor(() => expect(count('Processo')).toHaveTextContent('2'));
    expect(count('Falha')).toHaveTextContent('3');
    expect(count('Outros')).toHaveTextContent('7');
    expect(count('Ocioso')).toHaveTextContent('11');
    expect(callsTo(calls, '/dashboard/api/v1/index')[0]?.body).toEqual(lastTenDays());
    expect(screen.getByText('9 execuções no período')).toBeInTheDocument();
  });

  it('shows the fleet and the robots failing most', async () => {
    await openDashboard({ permissions: ['ROBOS.LIST', 'HISTORIC.LIST', 'AGENTES.LIST'] });
    // The figures draw in a background render, after their skeletons.
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Ativos' })).toHaveTextContent('4'),
    );
    expect(screen.getByRole('group', { name: 'Inativos' })).toHaveTextContent('1');
    expect(screen.getByRole('group', { name: 'Total' })).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'Ver agentes' })).toHaveAttribute('href', '/node');
    expect(screen.getByRole('link', { name: 'Boletos' })).toHaveAttribute('href', '/robot/2');
    const { startDate, endDate } = lastTenDays();
    expect(screen.getByRole('link', { name: 'Ver as execuções de Faturas' })).toHaveAttribute(
      'href',
      `/activity?rota_robots_id=1&startDate=${startDate}&endDate=${endDate}`,
    );
    expect(screen.getByText('2 de 6 execuções falharam')).toBeInTheDocument();
  });

  it('asks for another range from the URL, in English too', async () => {
    const { calls } = await openDashboard({
      lang: 'en',
      path: '/dashboard?startDate=2026-01-01&endDate=2026-01-31',
      dashboard: makeDashboard({
        categories: { process: 0, failure: 0, others: 0, idle: 5 },
        per_day: [],
        failing_robots: [],
        totals: { executions: 0, robots: 5 },
      }),
    });
    const categories = await screen.findByRole('region', { name: 'Robots by category' });
    await waitFor(() =>
      expect(within(categories).getByRole('group', { name: 'Idle' })).toHaveTextContent('5'),
    );
    expect(within(categories).getByRole('group', { name: 'Process' })).toBeInTheDocument();
    expect(within(categories).getByRole('group', { name: 'Failure' })).toBeInTheDocument();
    expect(within(categories).getByRole('group', { name: 'Others' })).toBeInTheDocument();
    expect(callsTo(calls, '/dashboard/api/v1/index')[0]?.body).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    expect(screen.getByText('No executions in the chosen period.')).toBeInTheDocument();
    expect(screen.getByText('No failures in the period.')).toBeInTheDocument();
  });

  it('draws the executions per day as a chart', async () => {
    await openDashboard();
    expect(
      await screen.findByRole('img', { name: 'Gráfico de barras das execuções por dia e status' }),
    ).toBeInTheDocument();
  });

  it('refetches once for a burst of live events', async () => {
    // The n-th answer has 100 + n idle robots: the page shows which answer it drew last.
    const { calls, live } = await openDashboard({
      dashboardOf: (n) =>
        makeDashboard({ categories: { process: 2, failure: 3, others: 7, idle: 100 + n } }),
    });
    const categories = await screen.findByRole('region', { name: 'Robôs por categoria' });
    const idle = () => within(categories).getByRole('group', { name: 'Ocioso' });
    await waitFor(() => expect(idle()).toHaveTextContent('101'));
    await waitFor(() => expect(live.connections).toBe(1));
    live.send({ type: 'execution', execution_id: 1, rota_robots_id: 1, status: 'processing' });
    live.send({ type: 'agent', rota_nodes_id: 1, connectivity: 'inactive' });
    live.send({ type: 'execution', execution_id: 1, rota_robots_id: 1, status: 'success' });
    await waitFor(() => expect(idle()).toHaveTextContent('102'));
    // One more event after the burst was drawn: its refetch is the third call, so the burst
    // made exactly one (a second refetch for the burst would make this answer the fourth).
    live.send({ type: 'agent', rota_nodes_id: 1, connectivity: 'active' });
    await waitFor(() => expect(idle()).toHaveTextContent('103'));
    expect(callsTo(calls, '/dashboard/api/v1/index')).toHaveLength(3);
  });
});
