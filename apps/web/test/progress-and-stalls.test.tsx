import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Dashboard, Execution, Language } from '@rota/contract';
import {
  ConnectionLostBadge,
  ExecutionProgress,
  StalledBadge,
} from '../src/features/activity/components/execution-progress';
import { createLiveServer, makeDashboard, makeExecution } from './activity-fixtures';
import { makeRobot } from './fixtures';
import { callsTo, listOf, openPage } from './operations-fixtures';
import { renderElement, resetEnvironment } from './render';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const stalledRun = makeExecution({
  execution_id: 77,
  rota_robots_name: 'Conciliação',
  status: 'processing',
  end_date: null,
  duration_ms: null,
  exit_code: null,
  progress_percent: 40,
  progress_message: 'Página 4 de 10',
  last_activity_at: minutesAgo(3),
  stalled: true,
});

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('ExecutionProgress', () => {
  it.each([
    ['pt', 'Última atividade há 3 minutos', 'Travada', 'Progresso 40%'],
    ['en', 'Last activity 3 minutes ago', 'Stalled', 'Progress 40%'],
  ] as const)(
    '%s: bar, message, last activity and the stalled badge',
    async (lang, last, badge, bar) => {
      await resetEnvironment(lang);
      renderElement(<ExecutionProgress execution={stalledRun} />);
      expect(await screen.findByText(last)).toBeInTheDocument();
      expect(screen.getByText('40%')).toBeInTheDocument();
      expect(screen.getByText('Página 4 de 10')).toBeInTheDocument();
      expect(screen.getByTestId('stalled-badge')).toHaveTextContent(badge);
      expect(screen.getByRole('progressbar', { name: bar })).toBeInTheDocument();
    },
  );

  it('shows no bar before the robot reports, no badge when not stalled', async () => {
    renderElement(
      <ExecutionProgress
        execution={{
          ...stalledRun,
          progress_percent: null,
          progress_message: null,
          stalled: false,
        }}
      />,
    );
    expect(await screen.findByText('Última atividade há 3 minutos')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stalled-badge')).not.toBeInTheDocument();
  });

  it.each([
    ['pt', 'Conexão do agente perdida — aguardando o retorno'],
    ['en', 'Agent connection lost — waiting for it to return'],
  ] as const)(
    '%s: says a run waits for its agent whose connection was lost',
    async (lang, text) => {
      await resetEnvironment(lang);
      renderElement(
        <ExecutionProgress
          execution={{ ...stalledRun, stalled: false, connection_lost_at: minutesAgo(0) }}
        />,
      );
      expect(await screen.findByTestId('connection-lost-badge')).toHaveTextContent(text);
    },
  );

  it('shows nothing for a run that is not processing', async () => {
    renderElement(
      <div data-testid="host">
        <ExecutionProgress execution={{ ...stalledRun, status: 'success' }} />
        <StalledBadge execution={{ stalled: false }} />
        <ConnectionLostBadge execution={{ status: 'processing', connection_lost_at: null }} />
        <ConnectionLostBadge execution={{ status: 'success', connection_lost_at: minutesAgo(1) }} />
      </div>,
    );
    expect(await screen.findByTestId('host')).toBeEmptyDOMElement();
  });
});

async function openActivity(executions: Execution[], lang: Language = 'pt') {
  const live = createLiveServer();
  return openPage(
    '/activity',
    /Atividades|Activity/,
    ['HISTORIC.LIST', 'HISTORIC.UPDATE', 'ROBOS.LIST'],
    ({ url }) => {
      if (url.endsWith('/activity/api/v1/index')) return { status: 200, body: listOf(executions) };
      if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([makeRobot()]) };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

describe('/activity: progress and the stalled filter', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Só travadas', 'Travada'],
    ['en', 'Stalled only', 'Stalled'],
  ] as const)(
    '%s: a row shows progress and the badge; the filter asks for stalled runs',
    async (lang, filter, badge) => {
      const { calls, user } = await openActivity([makeExecution(), stalledRun], lang);
      const table = await screen.findByRole('table');
      const row = within(table).getByRole('link', { name: 'Conciliação' }).closest('tr')!;
      expect(within(row as HTMLElement).getByTestId('stalled-badge')).toHaveTextContent(badge);
      expect(within(row as HTMLElement).getByText('40%')).toBeInTheDocument();
      expect(callsTo(calls, '/activity/api/v1/index').at(-1)?.body).not.toHaveProperty('stalled');
      await user.click(screen.getByRole('checkbox', { name: filter }));
      await waitFor(() =>
        expect(callsTo(calls, '/activity/api/v1/index').at(-1)?.body).toMatchObject({
          stalled: true,
        }),
      );
      expect(screen.getByRole('checkbox', { name: filter })).toBeChecked();
    },
  );
});

describe('dashboard: stalled runs', { timeout: 20_000 }, () => {
  async function openDashboard(dashboard: Dashboard, lang: Language) {
    return openPage(
      '/dashboard',
      /Início|Home/,
      ['HISTORIC.LIST'],
      ({ url }) => {
        if (url.endsWith('/dashboard/api/v1/index')) {
          return { status: 200, body: { data: dashboard } };
        }
        if (url.endsWith('/events/api/v1/stream')) return { status: 503, body: {} };
        return undefined;
      },
      lang,
    );
  }

  it.each([
    ['pt', 'Execuções travadas agora', 'Ver travadas'],
    ['en', 'Stalled runs now', 'View stalled'],
  ] as const)('%s: counts them and links to the filtered activity', async (lang, label, link) => {
    await openDashboard(makeDashboard({ stalled: 2 }), lang);
    const figure = await screen.findByRole('group', { name: label });
    await waitFor(() => expect(figure).toHaveTextContent('2'));
    expect(screen.getByRole('link', { name: link })).toHaveAttribute(
      'href',
      '/activity?stalled=true',
    );
  });
});

describe('robot form: stall settings', { timeout: 20_000 }, () => {
  it.each([
    [
      'pt',
      'Novo robô',
      'Nome do processo',
      'Travada após (minutos sem atividade)',
      'Quando travar',
      'Encerrar',
      'Criar robô',
      /\(1 a 1440\)/,
    ],
    [
      'en',
      'New robot',
      'Process name',
      'Stalled after (minutes without activity)',
      'When stalled',
      'Kill it',
      'Create robot',
      /\(1 to 1440\)/,
    ],
  ] as const)(
    '%s: sends stall_minutes and stall_action; the hint gives the range',
    async (lang, title, name, minutesLabel, actionLabel, kill, submit, hint) => {
      const { user, calls } = await openPage(
        '/robot',
        /Robôs|Robots/,
        ['ROBOS.LIST', 'ROBOS.CREATE'],
        ({ url, body }) => {
          if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([]) };
          if (url.endsWith('/robot/api/v1/create')) {
            return {
              status: 201,
              body: { message: 'ok', data: makeRobot({ rota_robots_id: 3, ...(body as object) }) },
            };
          }
          return undefined;
        },
        lang,
      );
      await user.click(await screen.findByRole('button', { name: title }));
      const dialog = await screen.findByRole('dialog', { name: title });
      await user.type(within(dialog).getByLabelText(name, { exact: false }), 'Notas');
      await user.type(within(dialog).getByLabelText('Executor', { exact: false }), 'node notas.js');
      const minutes = within(dialog).getByLabelText(minutesLabel);
      // The hint says the range (the input clamps to it; the server says it too).
      expect(within(dialog).getByText(hint)).toBeInTheDocument();
      await user.type(minutes, '15');
      await user.click(within(dialog).getByLabelText(actionLabel, { selector: 'input' }));
      await user.click(await screen.findByRole('option', { name: kill }));
      await user.click(within(dialog).getByRole('button', { name: submit }));
      await waitFor(() => expect(callsTo(calls, '/robot/api/v1/create')).toHaveLength(1));
      expect(callsTo(calls, '/robot/api/v1/create')[0]?.body).toMatchObject({
        stall_minutes: 15,
        stall_action: 'kill',
      });
    },
  );
});
