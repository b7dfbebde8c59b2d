import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, TaskHistoryEntry } from '@rota/contract';
import { createLiveServer, makeExecutionDetail } from '../../../test/activity-fixtures';
import { makeRobotField, makeTask } from '../../../test/fixtures';
import { callsTo, listOf, openPage } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

/** A task's page, its links from the list, and the execution page's tasks. */

const task = makeTask({
  rota_tasks_id: 7,
  label: 'Fatura 42',
  rota_robots_id: 1,
  rota_robots_name: 'Faturas',
  status: 'success',
  attempts: 2,
  data: { invoice_id: 'NF-42', amount: 1250.5, urgent: true, legacy_code: 'X9' },
});

const fields = [
  makeRobotField({ rota_robot_fields_id: 1, name: 'invoice_id', label: 'Número da nota' }),
  makeRobotField({ rota_robot_fields_id: 2, name: 'amount', label: 'Valor', type: 'number' }),
  makeRobotField({ rota_robot_fields_id: 3, name: 'urgent', label: 'Urgente', type: 'boolean' }),
];

const entry = (overrides: Partial<TaskHistoryEntry>): TaskHistoryEntry => ({
  rota_task_history_id: 1,
  status: 'pending',
  at: '2026-11-20T09:00:00.000Z',
  attempts: 0,
  business_error: null,
  rota_executions_id: null,
  execution: null,
  ...overrides,
});

const A = {
  status: 'success' as const,
  rota_nodes_name: 'agente-01',
  started_at: '2026-11-20T09:01:00.000Z',
  ended_at: '2026-11-20T09:02:00.000Z',
};
const B = { ...A, rota_nodes_name: 'agente-02', status: 'processing' as const, ended_at: null };

const history: TaskHistoryEntry[] = [
  entry({ rota_task_history_id: 1 }),
  entry({
    rota_task_history_id: 2,
    status: 'processing',
    attempts: 1,
    rota_executions_id: 40,
    execution: A,
  }),
  entry({
    rota_task_history_id: 3,
    status: 'business_error',
    attempts: 1,
    business_error: 'Nota cancelada',
    rota_executions_id: 40,
    execution: A,
  }),
  entry({ rota_task_history_id: 4, status: 'pending', attempts: 1 }),
  entry({
    rota_task_history_id: 5,
    status: 'processing',
    attempts: 2,
    rota_executions_id: 41,
    execution: B,
  }),
  entry({
    rota_task_history_id: 6,
    status: 'success',
    attempts: 2,
    rota_executions_id: 41,
    execution: B,
  }),
];

beforeEach(async () => {
  await resetEnvironment('pt');
});

const WORDS = {
  pt: {
    back: 'Voltar para tarefas',
    details: 'Detalhes',
    data: 'Dados',
    history: 'Histórico de status',
    executions: 'Execuções que a processaram',
    success: 'Sucesso',
    businessError: 'Erro de negócio',
    heldBy: 'Execução #40 em agente-01',
    yes: 'Sim',
    amount: '1.250,5',
    retry: 'Reprocessar',
    notFound: 'Tarefa não encontrada',
  },
  en: {
    back: 'Back to tasks',
    details: 'Details',
    data: 'Data',
    history: 'Status history',
    executions: 'Executions that held it',
    success: 'Success',
    businessError: 'Business error',
    heldBy: 'Execution #40 on agente-01',
    yes: 'Yes',
    amount: '1,250.5',
    retry: 'Retry',
    notFound: 'Task not found',
  },
} satisfies Record<Language, Record<string, string>>;

async function openTask(lang: Language, path = '/task/7', permissions = ['ATIVIDADES.LIST']) {
  const live = createLiveServer();
  return openPage(
    path,
    /Fatura 42|Tarefa não encontrada|Task not found/,
    permissions,
    ({ url, body }) => {
      if (url.endsWith('/task/api/v1/show')) {
        return (body as { id: number }).id === 7
          ? { status: 200, body: { data: task } }
          : { status: 404, body: { message: 'Not found' } };
      }
      if (url.endsWith('/task/api/v1/history')) {
        return (body as { id: number }).id === 7
          ? { status: 200, body: { data: history } }
          : { status: 404, body: { message: 'Not found' } };
      }
      if (url.endsWith('/robot/field/api/v1/index')) return { status: 200, body: listOf(fields) };
      if (url.endsWith('/task/api/v1/retry')) {
        return { status: 200, body: { message: 'ok', data: { count: 1 } } };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

describe('/task/:id', { timeout: 20_000 }, () => {
  for (const lang of ['pt', 'en'] as const) {
    const w = WORDS[lang];
    it(`shows the task's data as the robot's fields label it, its history and executions (${lang})`, async () => {
      const { calls } = await openTask(lang);
      expect(callsTo(calls, '/task/api/v1/show')[0]?.body).toEqual({ id: 7 });
      expect(screen.getByRole('link', { name: w.back })).toHaveAttribute('href', '/task');
      expect(screen.getByRole('heading', { name: w.details, level: 2 })).toBeInTheDocument();

      // Data: labelled by the robot's fields, formatted by type; an unknown key shown raw.
      const data = screen.getByRole('heading', { name: w.data, level: 2 }).closest('div')!;
      expect(await within(data).findByText('Número da nota')).toBeInTheDocument();
      expect(within(data).getByText('NF-42')).toBeInTheDocument();
      expect(within(data).getByText('Valor')).toBeInTheDocument();
      expect(within(data).getByText(w.amount)).toBeInTheDocument();
      expect(within(data).getByText('Urgente')).toBeInTheDocument();
      expect(within(data).getByText(w.yes)).toBeInTheDocument();
      expect(within(data).getByText('legacy_code')).toBeInTheDocument();
      expect(within(data).getByText('X9')).toBeInTheDocument();
      expect(within(data).queryByText('invoice_id')).not.toBeInTheDocument();

      // History: every change in order, with the business error and the executions.
      const items = await screen.findAllByTestId('task-history-entry');
      expect(items).toHaveLength(6);
      expect(within(items[2]!).getByText(w.businessError)).toBeInTheDocument();
      expect(within(items[2]!).getByText('Nota cancelada')).toBeInTheDocument();
      expect(within(items[1]!).getByRole('link', { name: w.heldBy })).toHaveAttribute(
        'href',
        '/activity/40',
      );
      expect(within(items[5]!).getByText(w.success)).toBeInTheDocument();

      const executions = screen.getByRole('list', { name: w.executions });
      const rows = within(executions).getAllByTestId('task-execution');
      expect(rows).toHaveLength(2);
      expect(within(rows[0]!).getByRole('link', { name: '#40' })).toHaveAttribute(
        'href',
        '/activity/40',
      );
      expect(within(rows[0]!).getByText(/agente-01/)).toBeInTheDocument();
      expect(within(rows[1]!).getByRole('link', { name: '#41' })).toHaveAttribute(
        'href',
        '/activity/41',
      );
      // Without ATIVIDADES.UPDATE there is no retry.
      expect(screen.queryByRole('button', { name: w.retry })).not.toBeInTheDocument();
    });

    it(`says a task it cannot find is not found (${lang})`, async () => {
      await openTask(lang, '/task/8');
      expect(screen.getByText(w.notFound)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: w.back })).toHaveAttribute('href', '/task');
    });
  }

  it('retries a finished task after a confirmation', async () => {
    const { calls, user } = await openTask('pt', '/task/7', [
      'ATIVIDADES.LIST',
      'ATIVIDADES.UPDATE',
    ]);
    await user.click(screen.getByRole('button', { name: 'Reprocessar' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Reprocessar a tarefa “Fatura 42”?')).toBeInTheDocument();
    expect(callsTo(calls, '/task/api/v1/retry')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reprocessar' }));
    await waitFor(() =>
      expect(callsTo(calls, '/task/api/v1/retry')[0]?.body).toEqual({ ids: [7] }),
    );
  });
});

describe('tasks list links to each task', { timeout: 20_000 }, () => {
  for (const lang of ['pt', 'en'] as const) {
    it(`links a row's label to its page (${lang})`, async () => {
      await openPage(
        '/task',
        lang === 'pt' ? /Tarefas/ : /Tasks/,
        ['ATIVIDADES.LIST'],
        ({ url }) => {
          if (url.endsWith('/task/api/v1/index')) return { status: 200, body: listOf([task]) };
          if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([]) };
          return undefined;
        },
        lang,
      );
      expect(await screen.findByRole('link', { name: 'Fatura 42' })).toHaveAttribute(
        'href',
        '/task/7',
      );
    });
  }
});

describe('execution page: its tasks', { timeout: 20_000 }, () => {
  const words = {
    pt: {
      title: 'Tarefas',
      empty: 'Esta execução não pegou nenhuma tarefa.',
      attempt: 'Tentativa 2',
    },
    en: { title: 'Tasks', empty: 'This execution took no task.', attempt: 'Attempt 2' },
  };

  async function openExecution(lang: Language, tasks = [task], permissions?: string[]) {
    const live = createLiveServer();
    return openPage(
      '/activity/42',
      lang === 'pt' ? /Execução #42/ : /Execution #42/,
      permissions ?? ['HISTORIC.LIST', 'ATIVIDADES.LIST'],
      ({ url }) => {
        if (url.endsWith('/activity/api/v1/show')) {
          return { status: 200, body: { data: makeExecutionDetail() } };
        }
        if (url.endsWith('/task/api/v1/index')) return { status: 200, body: listOf(tasks) };
        if (url.endsWith('/events/api/v1/stream')) return live.reply();
        return undefined;
      },
      lang,
    );
  }

  for (const lang of ['pt', 'en'] as const) {
    it(`lists the tasks the execution held, linked to their pages (${lang})`, async () => {
      const { calls } = await openExecution(lang);
      const section = (
        await screen.findByRole('heading', { name: words[lang].title, level: 2 })
      ).closest('section')!;
      expect(await within(section).findByRole('link', { name: 'Fatura 42' })).toHaveAttribute(
        'href',
        '/task/7',
      );
      expect(within(section).getByText(words[lang].attempt)).toBeInTheDocument();
      expect(callsTo(calls, '/task/api/v1/index')[0]?.body).toMatchObject({
        rota_executions_id: 42,
      });
    });

    it(`says when the execution held no task (${lang})`, async () => {
      await openExecution(lang, []);
      expect(await screen.findByText(words[lang].empty)).toBeInTheDocument();
    });
  }

  it('shows no tasks section without ATIVIDADES.LIST', async () => {
    const { calls } = await openExecution('pt', [task], ['HISTORIC.LIST']);
    expect(screen.queryByRole('heading', { name: 'Tarefas', level: 2 })).not.toBeInTheDocument();
    expect(callsTo(calls, '/task/api/v1/index')).toHaveLength(0);
  });
});
