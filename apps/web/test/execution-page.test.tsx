import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionDetail, ExecutionLogLine } from '@rota/contract';
import { createLiveServer, makeExecutionDetail, makeLogLine } from './activity-fixtures';
import { setToken } from '../src/lib/session';
import { makeUser } from './fixtures';
import { mockFetch, type MockCall, type MockReply } from './http-mock';
import { callsTo, openPage } from './operations-fixtures';
import { renderWithRouter, resetEnvironment } from './render';

const processing = makeExecutionDetail({
  status: 'processing',
  attempts: 2,
  end_date: null,
  duration_ms: null,
  exit_code: null,
  message: null,
  attempt_list: [
    {
      attempt: 1,
      rota_nodes_id: 5,
      rota_executor_name: 'agente-01',
      status: 'application_error',
      exit_code: 1,
      message: 'ModuleNotFoundError: requests',
      start_date: '2026-11-20T10:00:00.000Z',
      end_date: '2026-11-20T10:00:30.000Z',
      // Its agent reported after the server had settled it: kept, not applied.
      late_result: {
        status: 'success',
        exit_code: 0,
        message: null,
        reported_at: '2026-11-20T10:00:45.000Z',
      },
      refused_calls: 2,
    },
    {
      attempt: 2,
      rota_nodes_id: 6,
      rota_executor_name: 'agente-02',
      status: 'processing',
      exit_code: null,
      message: null,
      start_date: '2026-11-20T10:01:00.000Z',
      end_date: null,
      late_result: null,
      refused_calls: 0,
    },
  ],
});

async function openExecution(
  options: {
    path?: string;
    permissions?: string[];
    execution?: ExecutionDetail;
    logs?: (after: number) => { data: ExecutionLogLine[]; last_seq: number };
    handler?: (call: MockCall) => MockReply | undefined;
  } = {},
) {
  const live = createLiveServer();
  const view = await openPage(
    options.path ?? '/activity/42',
    /Execução #42/,
    options.permissions ?? ['HISTORIC.LIST', 'HISTORIC.UPDATE', 'ROBOS.LIST'],
    (call) => {
      const custom = options.handler?.(call);
      if (custom) return custom;
      const { url, body } = call;
      if (url.endsWith('/activity/api/v1/show')) {
        return { status: 200, body: { data: options.execution ?? processing } };
      }
      if (url.endsWith('/activity/api/v1/logs')) {
        const { after } = body as { after: number };
        const answer = options.logs?.(after) ?? { data: [], last_seq: after };
        return { status: 200, body: { data: answer.data, meta: { last_seq: answer.last_seq } } };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
  );
  return { ...view, live };
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/activity/:id', { timeout: 20_000 }, () => {
  it('shows the execution’s details, with its robot, scheduling, VM and attempts', async () => {
    const { calls } = await openExecution();
    expect(callsTo(calls, '/activity/api/v1/show')[0]?.body).toEqual({ id: 42 });
    expect(screen.getByText('Faturas · Agendamento')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para atividades' })).toHaveAttribute(
      'href',
      '/activity',
    );
    expect(screen.getByRole('link', { name: 'Faturas' })).toHaveAttribute('href', '/robot/1');
    expect(screen.getByText('Faturas de hora em hora')).toBeInTheDocument();
    expect(screen.getByText('vm-financeiro')).toBeInTheDocument();
    expect(screen.getByText('1.2.0')).toBeInTheDocument();
    expect(screen.getByText('2 de 3')).toBeInTheDocument();
    expect(screen.getByText('1 h')).toBeInTheDocument();
    // The sidebar keeps Activity current on the detail page.
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' });
    expect(within(nav).getByRole('link', { name: 'Atividades' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('lists the attempts on their tab', async () => {
    const { user, router } = await openExecution();
    await user.click(screen.getByRole('tab', { name: 'Tentativas' }));
    expect(router.state.location.search).toBe('?tab=attempts');
    const table = await screen.findByRole('table', { name: 'Tentativas' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('agente-01')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Erro de aplicação')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('ModuleNotFoundError: requests')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('30 s')).toBeInTheDocument();
    // What the fencing kept of the first attempt, said in the user's language.
    expect(
      within(rows[1]!).getByText(
        'Resultado tardio, não aplicado (a tentativa já tinha sido encerrada):',
      ),
    ).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Sucesso')).toBeInTheDocument();
    expect(
      within(rows[1]!).getByText(
        '2 chamadas da API do robô recusadas: a tentativa não era mais a atual',
      ),
    ).toBeInTheDocument();
    expect(within(rows[2]!).queryByText(/Resultado tardio/)).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('agente-02')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Em processamento')).toBeInTheDocument();
  });

  it('tails the log: the lines so far, then those after the last one on a live event', async () => {
    let served: ExecutionLogLine[] = [
      makeLogLine(1, { line: 'Iniciando' }),
      makeLogLine(2, { line: 'Traceback: falhou', stream: 'stderr' }),
    ];
    const { calls, live } = await openExecution({
      path: '/activity/42?tab=logs',
      logs: (after) => ({
        data: served.filter((line) => line.seq > after),
        last_seq: served.at(-1)?.seq ?? 0,
      }),
    });
    const log = await screen.findByRole('log', { name: 'Log da execução' });
    expect(await within(log).findByText('Iniciando')).toBeInTheDocument();
    expect(within(log).getByText('Traceback: falhou').closest('[data-stream]')).toHaveAttribute(
      'data-stream',
      'stderr',
    );
    expect(callsTo(calls, '/activity/api/v1/logs')[0]?.body).toEqual({
      id: 42,
      after: 0,
      limit: 1000,
    });

    await waitFor(() => expect(live.connections).toBe(1));
    served = [...served, makeLogLine(3, { line: 'Fatura 1 emitida' }), makeLogLine(4)];
    live.send({ type: 'log', execution_id: 42, rota_robots_id: 7, last_seq: 3 });
    live.send({ type: 'log', execution_id: 42, rota_robots_id: 7, last_seq: 4 });
    // An event of another execution changes nothing here.
    live.send({ type: 'log', execution_id: 99, rota_robots_id: 7, last_seq: 1 });
    expect(await within(log).findByText('Fatura 1 emitida')).toBeInTheDocument();
    expect(within(log).getByText('linha 4')).toBeInTheDocument();
    const logCalls = callsTo(calls, '/activity/api/v1/logs');
    expect(logCalls).toHaveLength(2);
    expect(logCalls[1]?.body).toEqual({ id: 42, after: 2, limit: 1000 });
    // Still in order, each line once.
    expect(
      [...log.querySelectorAll('[data-stream]')].map((line) => line.lastChild?.textContent),
    ).toEqual(['Iniciando', 'Traceback: falhou', 'Fatura 1 emitida', 'linha 4']);
    // Two attempts: each one's lines under its own heading.
    expect(within(log).getByText('Tentativa 1')).toBeInTheDocument();
  });

  it('says when a finished execution logged nothing', async () => {
    await openExecution({
      path: '/activity/42?tab=logs',
      execution: makeExecutionDetail(),
    });
    expect(
      await screen.findByText('Esta execução não registrou nenhuma linha de log.'),
    ).toBeInTheDocument();
  });

  it('stops a running execution gracefully after a confirmation naming it', async () => {
    const { calls, user } = await openExecution({
      handler: ({ url }) =>
        url.endsWith('/activity/api/v1/stop')
          ? { status: 202, body: { message: 'Parada enviada ao agente' } }
          : undefined,
    });
    await user.click(screen.getByRole('button', { name: 'Cancelar execução' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Parar (30 s para terminar)' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Parar a execução #42 de “Faturas”?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Parar' }));
    await waitFor(() => expect(callsTo(calls, '/activity/api/v1/stop')).toHaveLength(1));
    expect(callsTo(calls, '/activity/api/v1/stop')[0]?.body).toEqual({ id: 42, grace_seconds: 30 });
  });

  it('marks a running execution as failed after a confirmation naming it', async () => {
    const { calls, user } = await openExecution({
      handler: ({ url }) =>
        url.endsWith('/activity/api/v1/fail')
          ? { status: 200, body: { message: 'Execução marcada como falha' } }
          : undefined,
    });
    await user.click(screen.getByRole('button', { name: 'Marcar como falha' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Marcar a execução #42 de “Faturas” como falha?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Marcar como falha' }));
    await waitFor(() => expect(callsTo(calls, '/activity/api/v1/fail')).toHaveLength(1));
    expect(callsTo(calls, '/activity/api/v1/fail')[0]?.body).toEqual({ id: 42 });
  });

  it('kills a running execution now after a confirmation naming it', async () => {
    const { calls, user } = await openExecution({
      handler: ({ url }) =>
        url.endsWith('/activity/api/v1/cancel')
          ? { status: 202, body: { message: 'Cancelamento enviado ao agente' } }
          : undefined,
    });
    await user.click(screen.getByRole('button', { name: 'Cancelar execução' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Encerrar agora' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Encerrar agora a execução #42 de “Faturas”?',
    });
    expect(within(dialog).getByRole('button', { name: 'Voltar' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Encerrar agora' }));
    await waitFor(() => expect(callsTo(calls, '/activity/api/v1/cancel')).toHaveLength(1));
    expect(callsTo(calls, '/activity/api/v1/cancel')[0]?.body).toEqual({ id: 42 });
    expect(await screen.findByText('Cancelamento enviado ao agente')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', {
          name: 'Encerrar agora a execução #42 de “Faturas”?',
        }),
      ).not.toBeInTheDocument(),
    );
    // The execution is asked again.
    await waitFor(() => expect(callsTo(calls, '/activity/api/v1/show')).toHaveLength(2));
  });

  it('offers no cancel without HISTORIC.UPDATE', async () => {
    await openExecution({ permissions: ['HISTORIC.LIST'] });
    expect(screen.getAllByText('Em processamento').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Cancelar execução' })).not.toBeInTheDocument();
  });

  it('offers no cancel on a finished execution', async () => {
    await openExecution({ execution: makeExecutionDetail() });
    expect(screen.getAllByText('Sucesso').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Cancelar execução' })).not.toBeInTheDocument();
  });

  it('explains an execution that does not exist, without a popup', async () => {
    setToken('token');
    mockFetch(({ url }) => {
      if (url.endsWith('/me'))
        return { status: 200, body: makeUser({ permissions: ['HISTORIC.LIST'] }) };
      if (url.endsWith('/activity/api/v1/show')) {
        return { status: 404, body: { code: 'not_found', message: 'Não encontrado' } };
      }
      throw new Error(`unexpected ${url}`);
    });
    renderWithRouter({ path: '/activity/42' });
    expect(
      await screen.findByText('Esta execução não existe ou pertence a outro cliente.', undefined, {
        timeout: 5000,
      }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Não encontrado')).not.toBeInTheDocument();
  });
});
