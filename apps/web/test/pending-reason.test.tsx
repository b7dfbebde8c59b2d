import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Execution, ExecutionDetail, Language, PendingReason } from '@rota/contract';
import { createLiveServer, makeExecution, makeExecutionDetail } from './activity-fixtures';
import { makeRobot } from './fixtures';
import { listOf, openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

/** "Why is it still queued?": the reason in words, with a link to what to fix. */
const PERMISSIONS = ['HISTORIC.LIST', 'HISTORIC.UPDATE', 'ROBOS.LIST'];

const queued = (reason: PendingReason | null, overrides: Partial<Execution> = {}) =>
  makeExecution({
    status: 'queued',
    pending_reason: reason,
    rota_nodes_id: null,
    rota_executor_name: null,
    start_date: null,
    end_date: null,
    duration_ms: null,
    exit_code: null,
    ...overrides,
  });

async function openActivity(executions: Execution[], lang: Language) {
  const live = createLiveServer();
  return openPage(
    '/activity',
    /Atividades|Activity/,
    PERMISSIONS,
    ({ url }) => {
      if (url.endsWith('/activity/api/v1/index')) return { status: 200, body: listOf(executions) };
      if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([makeRobot()]) };
      if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: makeRobot() } };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

async function openExecution(execution: ExecutionDetail, lang: Language) {
  const live = createLiveServer();
  return openPage(
    `/activity/${execution.execution_id}`,
    /Execução #|Execution #/,
    PERMISSIONS,
    ({ url, body }) => {
      if (url.endsWith('/activity/api/v1/show')) return { status: 200, body: { data: execution } };
      if (url.endsWith('/activity/api/v1/logs')) {
        const { after } = body as { after: number };
        return { status: 200, body: { data: [], meta: { last_seq: after } } };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

beforeEach(() => resetEnvironment());

describe('pending reason in the activity list', () => {
  it('says why each queued run waits, with a link to fix it (pt)', async () => {
    await openActivity(
      [
        queued('no_current_version', { execution_id: 1, rota_robots_id: 7 }),
        queued('agents_busy', { execution_id: 2 }),
        queued(null, { execution_id: 3 }),
        makeExecution({ execution_id: 4, status: 'success' }),
      ],
      'pt',
    );
    const notes = await screen.findAllByTestId('pending-reason');
    expect(notes).toHaveLength(2);
    expect(notes[0]).toHaveTextContent('Aguardando: o robô não tem versão atual.');
    expect(within(notes[0]!).getByRole('link', { name: 'Escolher uma versão' })).toHaveAttribute(
      'href',
      '/robot/7?tab=versions',
    );
    expect(notes[1]).toHaveTextContent('Aguardando: todos os agentes ativos estão ocupados.');
    expect(within(notes[1]!).getByRole('link', { name: 'Ver os agentes' })).toHaveAttribute(
      'href',
      '/node',
    );
  });

  it('speaks English too', async () => {
    await openActivity(
      [
        queued('no_vm', { execution_id: 1, rota_schedulings_id: null }),
        queued('waiting_priority', { execution_id: 2 }),
      ],
      'en',
    );
    const notes = await screen.findAllByTestId('pending-reason');
    expect(notes[0]).toHaveTextContent('Waiting: there is no VM it may run on.');
    expect(within(notes[0]!).getByRole('link', { name: 'Check the VMs' })).toHaveAttribute(
      'href',
      '/vm',
    );
    expect(notes[1]).toHaveTextContent('Waiting: higher-priority runs go first.');
    expect(within(notes[1]!).getByRole('link', { name: 'See the queue' })).toHaveAttribute(
      'href',
      '/activity?status=queued',
    );
  });
});

describe('pending reason on the execution page', () => {
  it('shows the reason and its fix (en)', async () => {
    await openExecution(
      makeExecutionDetail({ ...queued('no_agent_active'), attempt_list: [] }),
      'en',
    );
    const note = await screen.findByTestId('pending-reason');
    expect(note).toHaveTextContent('Waiting: none of its VMs has an active agent.');
    expect(within(note).getByRole('link', { name: 'See the agents' })).toHaveAttribute(
      'href',
      '/node',
    );
    expect(screen.getByText('Why it waits')).toBeInTheDocument();
  });

  it('shows the reason in Portuguese; a scheduled run without VMs links to its scheduling', async () => {
    await openExecution(makeExecutionDetail({ ...queued('no_vm'), attempt_list: [] }), 'pt');
    const note = await screen.findByTestId('pending-reason');
    expect(note).toHaveTextContent('Aguardando: não há VM em que possa rodar.');
    expect(within(note).getByRole('link', { name: 'Verificar as VMs' })).toHaveAttribute(
      'href',
      '/scheduling',
    );
    expect(screen.getByText('Por que aguarda')).toBeInTheDocument();
  });

  it('says nothing for a run that is not waiting', async () => {
    await openExecution(makeExecutionDetail({ status: 'success' }), 'pt');
    expect(screen.queryByTestId('pending-reason')).not.toBeInTheDocument();
  });
});
