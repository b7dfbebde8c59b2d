import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Execution, Language } from '@rota/contract';
import { isoDateOf } from '../src/lib/format';
import { createLiveServer, makeExecution } from './activity-fixtures';
import { makeRobot } from './fixtures';
import type { MockCall, MockReply } from './http-mock';
import { callsTo, listOf, openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

const ALL = ['HISTORIC.LIST', 'HISTORIC.UPDATE', 'ROBOS.LIST'];

const running = makeExecution({
  execution_id: 43,
  rota_robots_id: 2,
  rota_robots_name: 'Boletos',
  rota_schedulings_id: null,
  rota_schedulings_name: null,
  trigger: 'manual',
  status: 'processing',
  end_date: null,
  duration_ms: null,
  exit_code: null,
  rota_executor_name: 'agente-02',
});

/** The default range: the last 10 days, today included. */
function lastTenDays() {
  const now = new Date();
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 9);
  return { startDate: isoDateOf(start), endDate: isoDateOf(now) };
}

async function openActivity(
  options: {
    permissions?: string[];
    path?: string;
    lang?: Language;
    executions?: Execution[];
    handler?: (call: MockCall) => MockReply | undefined;
  } = {},
) {
  const live = createLiveServer();
  const view = await openPage(
    options.path ?? '/activity',
    /Atividades|Activity/,
    options.permissions ?? ALL,
    (call) => {
      const custom = options.handler?.(call);
      if (custom) return custom;
      const { url } = call;
      if (url.endsWith('/activity/api/v1/index')) {
        return { status: 200, body: listOf(options.executions ?? [makeExecution(), running]) };
      }
      if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([makeRobot()]) };
      if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: makeRobot() } };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    options.lang,
  );
  return { ...view, live };
}

const lastIndexBody = (calls: MockCall[]) => callsTo(calls, '/activity/api/v1/index').at(-1)?.body;

beforeEach(async () => {
  await resetEnvironment('pt');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('/activity', { timeout: 20_000 }, () => {
  it('lists the executions of the last 10 days, newest queued first', async () => {
    const { calls } = await openActivity();
    const table = await screen.findByRole('table', { name: 'Execuções' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual([
      'Nome do processo',
      'Executor',
      'Início',
      'Fim',
      'ID da execução',
      'Status',
      'Duração',
    ]);
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByRole('link', { name: 'Faturas' })).toHaveAttribute(
      'href',
      '/activity/42',
    );
    expect(within(rows[1]!).getByText('Faturas de hora em hora')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('agente-01')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('#42')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Sucesso')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('1 min 5 s')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Execução manual')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Em processamento')).toBeInTheDocument();
    expect(lastIndexBody(calls)).toEqual({
      page: 1,
      per_page: 20,
      sort: 'queued_at',
      order: 'desc',
      ...lastTenDays(),
    });
    // The defaults stay out of the URL.
    // Shown as the pt console writes a day, whatever the browser's language.
    const pt = (iso: string) => iso.split('-').reverse().join('/');
    expect(screen.getByLabelText(/Data inicial/)).toHaveValue(pt(lastTenDays().startDate));
    expect(screen.getByLabelText(/Data final/)).toHaveValue(pt(lastTenDays().endDate));
  });

  it('puts the status filter and the sort in the URL and sends them', async () => {
    const { calls, user, router } = await openActivity();
    await screen.findByRole('table', { name: 'Execuções' });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Erro de aplicação' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=application_error'));
    await waitFor(() =>
      expect(lastIndexBody(calls)).toMatchObject({ status: 'application_error', page: 1 }),
    );
    await user.click(screen.getByRole('button', { name: 'Duração' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?status=application_error&sort=duration&order=asc',
      ),
    );
    await waitFor(() =>
      expect(lastIndexBody(calls)).toMatchObject({ sort: 'duration', order: 'asc' }),
    );
  });

  it('reads its filters from the URL, those without an input shown as removable chips', async () => {
    const { calls, user, router } = await openActivity({
      path: '/activity?status=timeout&rota_robots_id=1&rota_schedulings_id=3&startDate=2026-01-01&endDate=2026-01-05',
    });
    await screen.findByRole('table', { name: 'Execuções' });
    expect(lastIndexBody(calls)).toEqual({
      page: 1,
      per_page: 20,
      sort: 'queued_at',
      order: 'desc',
      status: 'timeout',
      rota_robots_id: 1,
      rota_schedulings_id: 3,
      startDate: '2026-01-01',
      endDate: '2026-01-05',
    });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Robô' })).toHaveValue('Faturas'),
    );
    await user.click(screen.getByRole('button', { name: 'Remover o filtro Agendamento #3' }));
    await waitFor(() => expect(router.state.location.search).not.toContain('rota_schedulings_id'));
  });

  it('says why a date is refused in place of the rows, which go away', async () => {
    const { calls, router } = await openActivity({
      path: '/activity?startDate=2026-02-30&endDate=2999-01-01',
    });
    expect(await screen.findByText('Data inválida')).toBeInTheDocument();
    expect(screen.getByText('Data máxima excedida')).toBeInTheDocument();
    // The rows of another range would read as this one's: the error takes their place.
    expect(screen.getByRole('alert')).toHaveTextContent('Período inválido');
    expect(screen.queryByRole('table', { name: 'Execuções' })).not.toBeInTheDocument();
    // Neither bad day reaches the API: the default range is queried instead.
    expect(lastIndexBody(calls)).toMatchObject(lastTenDays());
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();

    await router.navigate('/activity?startDate=2026-01-01&endDate=2026-01-05');
    await waitFor(() =>
      expect(lastIndexBody(calls)).toMatchObject({
        startDate: '2026-01-01',
        endDate: '2026-01-05',
      }),
    );
    // Emptying a day does not fall back to the default: it is required.
    fireEvent.change(screen.getByLabelText(/Data inicial/), { target: { value: '' } });
    expect(await screen.findByText('Data obrigatória')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?startDate=&endDate=2026-01-05');
    expect(lastIndexBody(calls)).toMatchObject({ startDate: '2026-01-01', endDate: '2026-01-05' });
  });

  it('shows the messages in English too', async () => {
    await openActivity({ lang: 'en', path: '/activity?startDate=&endDate=2999-01-01' });
    expect(await screen.findByText('Required data')).toBeInTheDocument();
    expect(screen.getByText('Max data')).toBeInTheDocument();
  });

  it('exports the filtered range as CSV', async () => {
    const createObjectURL = vi.fn(() => 'blob:csv');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls, user } = await openActivity({
      path: '/activity?status=success&startDate=2026-01-01&endDate=2026-01-05&search=fat',
      handler: ({ url }) =>
        url.endsWith('/activity/api/v1/export')
          ? {
              status: 200,
              raw: 'execution_id;status\n42;success\n',
              headers: {
                'Content-Type': 'text/csv',
                'Content-Disposition': 'attachment; filename="atividades.csv"',
              },
            }
          : undefined,
    });
    await screen.findByRole('table', { name: 'Execuções' });
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(callsTo(calls, '/activity/api/v1/export')[0]?.body).toEqual({
      status: 'success',
      startDate: '2026-01-01',
      endDate: '2026-01-05',
      search: 'fat',
      // The file's dates in the zone the tables show; its language goes in a header.
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(callsTo(calls, '/activity/api/v1/export')[0]?.headers.get('Accept-Language')).toBe('pt');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('atividades.csv');
  });

  it('opens an execution on a row click', async () => {
    const { user, router } = await openActivity({
      handler: ({ url }) =>
        url.endsWith('/activity/api/v1/show') ? { status: 404, body: { message: 'x' } } : undefined,
    });
    const table = await screen.findByRole('table', { name: 'Execuções' });
    await user.click(within(table).getByText('agente-02'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/activity/43'));
  });

  it('says what to do when the period has no execution', async () => {
    await openActivity({ executions: [], permissions: ['HISTORIC.LIST'] });
    expect(await screen.findByText('Nenhuma execução neste período')).toBeInTheDocument();
    // Without ROBOS.LIST there is no robot filter.
    expect(screen.queryByRole('combobox', { name: 'Robô' })).not.toBeInTheDocument();
  });

  it('refreshes the list when an execution changes', async () => {
    const { calls, live } = await openActivity();
    await screen.findByRole('table', { name: 'Execuções' });
    await waitFor(() => expect(live.connections).toBe(1));
    const before = callsTo(calls, '/activity/api/v1/index').length;
    live.send({ type: 'execution', execution_id: 43, rota_robots_id: 2, status: 'success' });
    live.send({ type: 'execution', execution_id: 44, rota_robots_id: 2, status: 'queued' });
    await waitFor(() => expect(callsTo(calls, '/activity/api/v1/index')).toHaveLength(before + 1));
    expect(await screen.findByText('Ao vivo')).toBeInTheDocument();
  });
});
