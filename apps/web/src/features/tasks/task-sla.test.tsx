import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, TaskSlaState } from '@rota/contract';
import { makeTask } from '../../../test/fixtures';
import { callsTo, listOf, openPage } from '../../../test/operations-fixtures';
import { renderElement, resetEnvironment } from '../../../test/render';
import { TaskSlaBadge } from './components/task-sla-badge';

const WORDS: Record<Language, Record<TaskSlaState, string>> = {
  pt: {
    on_time: 'No prazo',
    at_risk: 'Em risco',
    breached: 'Violado',
    met: 'Cumprido',
    missed: 'Perdido',
  },
  en: {
    on_time: 'On time',
    at_risk: 'At risk',
    breached: 'Breached',
    met: 'Met',
    missed: 'Missed',
  },
};

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('TaskSlaBadge', () => {
  for (const lang of ['pt', 'en'] as const) {
    it(`says each SLA state in words (${lang})`, async () => {
      await resetEnvironment(lang);
      renderElement(
        <ul>
          {(Object.keys(WORDS[lang]) as TaskSlaState[]).map((state) => (
            <li key={state} data-testid={state}>
              <TaskSlaBadge state={state} />
            </li>
          ))}
          <li data-testid="none">
            <TaskSlaBadge state={null} />
          </li>
        </ul>,
      );
      for (const [state, word] of Object.entries(WORDS[lang])) {
        expect(await screen.findByTestId(state)).toHaveTextContent(word);
      }
      expect(screen.getByTestId('none')).toHaveTextContent('—');
      expect(
        within(screen.getByTestId('none')).getByLabelText(
          lang === 'pt' ? 'Sem prazo' : 'No deadline',
        ),
      ).toBeInTheDocument();
    });
  }
});

describe('/task SLA column and filter', { timeout: 20_000 }, () => {
  const tasks = [
    makeTask({
      rota_tasks_id: 1,
      label: 'Late one',
      deadline: '2026-11-20T10:00:00.000Z',
      sla_state: 'breached',
    }),
    makeTask({
      rota_tasks_id: 2,
      label: 'Close one',
      deadline: '2026-11-21T10:00:00.000Z',
      sla_state: 'at_risk',
    }),
  ];

  async function openTasks(lang: Language, path = '/task') {
    return openPage(
      path,
      lang === 'pt' ? /Tarefas/ : /Tasks/,
      ['ATIVIDADES.LIST'],
      ({ url }) => {
        if (url.endsWith('/task/api/v1/index')) return { status: 200, body: listOf(tasks) };
        if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([]) };
        return undefined;
      },
      lang,
    );
  }

  it('shows the SLA badges and filters by SLA state (pt)', async () => {
    const { calls, user } = await openTasks('pt');
    const late = (await screen.findByText('Late one')).closest('tr')!;
    expect(within(late).getByText('Violado')).toBeInTheDocument();
    const close = screen.getByText('Close one').closest('tr')!;
    expect(within(close).getByText('Em risco')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'SLA' }));
    await user.click(await screen.findByRole('option', { name: 'Violado' }));
    await waitFor(() =>
      expect(callsTo(calls, '/task/api/v1/index').at(-1)?.body).toMatchObject({
        sla_state: 'breached',
      }),
    );
  });

  it('reads the SLA filter from the URL and names it in English', async () => {
    const { calls } = await openTasks('en', '/task?sla_state=at_risk');
    expect(await screen.findByText('Close one')).toBeInTheDocument();
    expect(callsTo(calls, '/task/api/v1/index')[0]?.body).toMatchObject({ sla_state: 'at_risk' });
    expect(screen.getByRole('combobox', { name: 'SLA' })).toHaveValue('At risk');
    expect(screen.getAllByText('Breached').length).toBeGreaterThan(0);
  });
});
