import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionDetail, Language } from '@rota/contract';
import { createLiveServer, makeExecutionDetail } from './activity-fixtures';
import { openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

/**
 * A run whose agent died is queued again. The page names the current attempt's agent,
 * start and running time (none while it waits), and the duration is the attempts' run time
 * with the time in the queue apart.
 */
const NOW = new Date('2026-11-20T10:05:00.000Z');

const firstAttempt = {
  attempt: 1,
  rota_nodes_id: 5,
  rota_executor_name: 'agente-morto',
  status: 'application_error' as const,
  exit_code: null,
  message: 'agent lost',
  start_date: '2026-11-20T10:00:00.000Z',
  end_date: '2026-11-20T10:02:00.000Z',
  late_result: null,
  refused_calls: 0,
};

const waitingRetry = makeExecutionDetail({
  status: 'queued',
  attempts: 1,
  // The server still names the dead agent and the first start on the execution itself.
  rota_executor_name: 'agente-morto',
  start_date: '2026-11-20T10:00:00.000Z',
  end_date: null,
  duration_ms: null,
  exit_code: null,
  run_seconds: 120,
  queued_seconds: 240,
  attempt_start_date: null,
  attempt_list: [firstAttempt],
});

const finished = makeExecutionDetail({
  status: 'success',
  attempts: 2,
  rota_executor_name: 'agente-vivo',
  queued_at: '2026-11-20T09:59:00.000Z',
  start_date: '2026-11-20T10:00:00.000Z',
  end_date: '2026-11-20T10:04:00.000Z',
  // 2 min + 1 min of running; 1 min before the first attempt and 1 min between them waiting.
  duration_ms: 180_000,
  run_seconds: 180,
  queued_seconds: 120,
  attempt_start_date: null,
  attempt_list: [
    firstAttempt,
    {
      ...firstAttempt,
      attempt: 2,
      rota_nodes_id: 6,
      rota_executor_name: 'agente-vivo',
      status: 'success',
      exit_code: 0,
      message: null,
      start_date: '2026-11-20T10:03:00.000Z',
      end_date: '2026-11-20T10:04:00.000Z',
    },
  ],
});

async function openExecution(execution: ExecutionDetail, lang: Language) {
  const live = createLiveServer();
  return openPage(
    '/activity/42',
    /#42/,
    ['HISTORIC.LIST', 'ROBOS.LIST'],
    ({ url }) => {
      if (url.endsWith('/activity/api/v1/show')) return { status: 200, body: { data: execution } };
      if (url.endsWith('/activity/api/v1/logs'))
        return { status: 200, body: { data: [], meta: { last_seq: 0 } } };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      if (url.includes('/task/')) return { status: 200, body: { data: [], meta: { total: 0 } } };
      return undefined;
    },
    lang,
  );
}

const valueOf = (label: string) => {
  const term = screen.getByText(label, { selector: 'dt, dt *' });
  return term.closest('dt')!.nextElementSibling as HTMLElement;
};

beforeEach(async () => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  await resetEnvironment('pt');
});

describe('execution attempts and times', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Agente', 'Início', 'Duração', 'aguardando há 3 min'],
    ['en', 'Agent', 'Start date', 'Duration', 'waiting for 3 min'],
  ] as const)(
    '%s: a retry waiting in the queue names no agent and counts its wait',
    async (lang, agent, start, duration, waiting) => {
      await openExecution(waitingRetry, lang);
      expect(valueOf(agent)).not.toHaveTextContent('agente-morto');
      expect(valueOf(start)).toHaveTextContent('—');
      expect(valueOf(duration)).toHaveTextContent(waiting);
      expect(screen.queryByText(/em andamento|running for/)).not.toBeInTheDocument();
    },
  );

  it.each([
    ['pt', 'Duração', 'Tempo na fila', 'Tentativas'],
    ['en', 'Duration', 'Time in queue', 'Attempts'],
  ] as const)(
    '%s: the duration is the attempts’ run time, the queue time apart',
    async (lang, duration, queue, attemptsTab) => {
      const { user } = await openExecution(finished, lang);
      expect(valueOf(duration)).toHaveTextContent('3 min');
      expect(valueOf(queue)).toHaveTextContent('2 min');
      await user.click(screen.getByRole('tab', { name: attemptsTab }));
      const table = await screen.findByRole('table', { name: attemptsTab });
      const rows = within(table).getAllByRole('row');
      expect(within(rows[1]!).getByText('agente-morto')).toBeInTheDocument();
      expect(within(rows[1]!).getByText('2 min')).toBeInTheDocument();
      expect(within(rows[2]!).getByText('agente-vivo')).toBeInTheDocument();
      expect(within(rows[2]!).getByText('1 min')).toBeInTheDocument();
    },
  );
});
