// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Calendar, Language } from '@rota/contract';
import { makeRobot } from '../../../test/fixtures';
import type { MockCall, MockReply } from '../../../test/http-mock';
import {
  callsTo,
  listOf,
  makeScheduling,
  makeVm,
  openPage,
} from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';
import { formatDateTime } from '../../lib/format';
import { browserTimeZone } from '../calendars';

const ALL = [
  'AGENDAMENTOS.LIST',
  'AGENDAMENTOS.CREATE',
  'AGENDAMENTOS.UPDATE',
  'AGENDAMENTOS.DELETE',
  'ROBOS.LIST',
  'AGENTES.LIST',
];

const NEXT = [
  '2026-11-25T10:00:00.000Z',
  '2026-11-26T10:00:00.000Z',
  '2026-11-27T10:00:00.000Z',
  '2026-11-30T10:00:00.000Z',
  '2026-12-01T10:00:00.000Z',
];

const holidays: Calendar = {
  rota_calendars_id: 7,
  name: 'Feriados SP',
  time_zone: 'America/Sao_Paulo',
  excluded_dates: ['2026-11-20'],
  created_at: NEXT[0]!,
  updated_at: NEXT[0]!,
};

const cron = makeScheduling({
  rota_schedulings_id: 4,
  name: 'Notas às 7h',
  trigger_type: 'cron',
  cron: '0 7 * * 1-5',
  time_zone: 'America/Sao_Paulo',
  rota_calendars_id: 7,
  next_run_at: '2026-11-25T10:00:00.000Z',
});
const queue = makeScheduling({
  rota_schedulings_id: 5,
  name: 'Fila de boletos',
  trigger_type: 'queue',
  min_pending: 3,
  max_concurrent: 2,
  next_run_at: null,
});

async function openSchedulings(
  options: { lang?: Language; path?: string; preview?: (call: MockCall) => MockReply } = {},
) {
  return openPage(
    options.path ?? '/scheduling',
    /Agendamentos|Schedulings/,
    ALL,
    (call) => {
      const { url } = call;
      if (url.endsWith('/rota/scheduling/api/v1/index')) {
        return { status: 200, body: listOf([cron, queue]) };
      }
      if (url.endsWith('/rota/scheduling/api/v1/preview')) {
        return options.preview?.(call) ?? { status: 200, body: { data: { next: NEXT } } };
      }
      if (url.endsWith('/rota/calendar/api/v1/index')) {
        return { status: 200, body: listOf([holidays]) };
      }
      if (url.endsWith('/rota/robot/api/v1/index')) {
        return { status: 200, body: listOf([makeRobot()]) };
      }
      if (url.endsWith('/rota/vm/api/v1/index')) return { status: 200, body: listOf([makeVm()]) };
      if (url.endsWith('/rota/scheduling/api/v1/create')) {
        return { status: 201, body: { message: 'Criado!', data: cron } };
      }
      if (url.endsWith('/rota/scheduling/api/v1/update')) return { status: 204 };
      return undefined;
    },
    options.lang,
  );
}

async function openCreate(
  user: Awaited<ReturnType<typeof openSchedulings>>['user'],
  title: string,
) {
  await user.click(await screen.findByRole('button', { name: title }));
  return screen.findByRole('dialog', { name: title });
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('scheduling triggers', { timeout: 30_000 }, () => {
  it('shows each trigger and its next run in the list', async () => {
    await openSchedulings();
    const table = await screen.findByRole('table', { name: 'Agendamentos' });
    expect(within(table).getByRole('columnheader', { name: 'Próxima execução' })).toBeVisible();
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Cron 0 7 * * 1-5 (America/Sao_Paulo)')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(formatDateTime(NEXT[0], 'pt'))).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Fila (≥ 3 tarefas pendentes)')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('—')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Calendários de dias úteis' })).toHaveAttribute(
      'href',
      '/scheduling/calendar',
    );
  });

  it('filters by trigger and by calendar, in the URL', async () => {
    const { user, calls, router } = await openSchedulings({
      path: '/scheduling?rota_calendars_id=7',
    });
    await screen.findByRole('table', { name: 'Agendamentos' });
    const bodies = () =>
      callsTo(calls, '/scheduling/api/v1/index').map((call) => call.body as object);
    expect(bodies()[0]).toMatchObject({ rota_calendars_id: 7 });
    // The calendar's name, not its id, in the filter.
    expect(await screen.findByDisplayValue('Feriados SP (America/Sao_Paulo)')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Gatilho' }));
    await user.click(await screen.findByRole('option', { name: 'Cron' }));
    await waitFor(() =>
      expect(bodies().at(-1)).toMatchObject({ trigger_type: 'cron', rota_calendars_id: 7 }),
    );
    expect(router.state.location.search).toContain('trigger_type=cron');
  });

  it('switches the fields with the trigger; a queue has no preview', async () => {
    const { user, calls } = await openSchedulings();
    const drawer = await openCreate(user, 'Novo agendamento');
    const trigger = within(drawer).getByRole('radiogroup', { name: 'Gatilho' });
    expect(within(trigger).getByRole('radio', { name: 'Intervalo' })).toBeChecked();
    expect(within(drawer).getByRole('textbox', { name: /^Intervalo \(minutos\)/ })).toBeVisible();
    expect(
      within(drawer).getByText('Digite o intervalo para ver as próximas execuções.'),
    ).toBeVisible();

    await user.click(within(trigger).getByRole('radio', { name: 'Cron' }));
    expect(
      within(drawer).queryByRole('textbox', { name: /^Intervalo \(minutos\)/ }),
    ).not.toBeInTheDocument();
    expect(within(drawer).getByRole('textbox', { name: /^Expressão cron/ })).toBeVisible();
    expect(within(drawer).getByRole('combobox', { name: /^Fuso horário/ })).toHaveAttribute(
      'placeholder',
      'Fuso horário do servidor',
    );
    expect(
      within(drawer).getByRole('combobox', { name: /^Calendário de dias úteis/ }),
    ).toBeVisible();
    expect(within(drawer).getByRole('radiogroup', { name: 'Execuções perdidas' })).toBeVisible();

    await user.click(within(trigger).getByRole('radio', { name: 'Fila' }));
    expect(
      within(drawer).queryByRole('textbox', { name: /^Expressão cron/ }),
    ).not.toBeInTheDocument();
    expect(
      within(drawer).getByRole('textbox', { name: /^Mínimo de tarefas pendentes/ }),
    ).toBeVisible();
    expect(
      within(drawer).getByRole('textbox', { name: /^Máximo de execuções simultâneas/ }),
    ).toBeVisible();
    expect(within(drawer).getByText(/assim que o robô tiver 1 tarefa pendente/)).toBeVisible();
    expect(within(drawer).queryByRole('radiogroup', { name: 'Execuções perdidas' })).toBeNull();
    expect(callsTo(calls, '/scheduling/api/v1/preview')).toHaveLength(0);
  });

  it('previews the next five runs of a cron as it is typed, in the user’s zone', async () => {
    const { user, calls } = await openSchedulings();
    const drawer = await openCreate(user, 'Novo agendamento');
    await user.click(within(drawer).getByRole('radio', { name: 'Cron' }));
    expect(
      within(drawer).getByText(
        'Digite uma expressão cron de cinco campos para ver as próximas execuções.',
      ),
    ).toBeVisible();
    await user.type(within(drawer).getByRole('textbox', { name: /^Expressão cron/ }), '0 7 * * *');

    const list = await within(drawer).findByRole('list', {
      name: `Próximas execuções (seu fuso horário, ${browserTimeZone()})`,
    });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent(formatDateTime(NEXT[0], 'pt'));
    expect(items[0]!.querySelector('time')).toHaveAttribute('datetime', NEXT[0]);
    // Typing pauses are waited for: one call for the whole expression, not one per key.
    const previews = callsTo(calls, '/scheduling/api/v1/preview');
    expect(previews).toHaveLength(1);
    expect(previews[0]?.body).toEqual({ trigger_type: 'cron', cron: '0 7 * * *' });

    // The calendar goes into the preview too.
    await user.click(within(drawer).getByRole('combobox', { name: /^Calendário de dias úteis/ }));
    await user.click(
      await screen.findByRole('option', { name: 'Feriados SP (America/Sao_Paulo)' }),
    );
    await waitFor(() =>
      expect(callsTo(calls, '/scheduling/api/v1/preview').at(-1)?.body).toEqual({
        trigger_type: 'cron',
        cron: '0 7 * * *',
        rota_calendars_id: 7,
      }),
    );
  });

  it('shows the server’s field errors of the preview under the fields', async () => {
    const { user } = await openSchedulings({
      preview: ({ body }) =>
        (body as { cron?: string }).cron === '99 * * * *'
          ? {
              status: 400,
              body: {
                message: 'Dados inválidos',
                errors: [{ field: 'cron', message: 'invalid_cron' }],
              },
            }
          : { status: 200, body: { data: { next: NEXT } } },
    });
    const drawer = await openCreate(user, 'Novo agendamento');
    await user.click(within(drawer).getByRole('radio', { name: 'Cron' }));
    const input = within(drawer).getByRole('textbox', { name: /^Expressão cron/ });
    await user.type(input, '99 * * * *');
    expect(
      await within(drawer).findByText(
        'Expressão cron inválida (5 campos: minuto hora dia mês dia-da-semana)',
      ),
    ).toBeVisible();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(
      within(drawer).getByText('Corrija os campos acima para ver as próximas execuções.'),
    ).toBeVisible();

    // Fixed: the error goes and the runs come.
    await user.clear(input);
    await user.type(input, '0 7 * * *');
    expect(await within(drawer).findAllByRole('listitem')).toHaveLength(5);
    expect(
      within(drawer).queryByText(
        'Expressão cron inválida (5 campos: minuto hora dia mês dia-da-semana)',
      ),
    ).not.toBeInTheDocument();
  });

  it('creates a cron scheduling in the server’s zone, skipping missed runs', async () => {
    const { user, calls } = await openSchedulings();
    const drawer = await openCreate(user, 'Novo agendamento');
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Notas');
    await user.click(within(drawer).getByRole('combobox', { name: /^Robô/ }));
    await user.click(await screen.findByRole('option', { name: 'Faturas' }));
    await user.click(within(drawer).getByRole('radio', { name: 'Cron' }));
    await user.type(
      within(drawer).getByRole('textbox', { name: /^Expressão cron/ }),
      '0 7 * * 1-5',
    );
    await user.click(within(drawer).getByRole('radio', { name: 'Pular' }));
    await user.type(within(drawer).getByRole('textbox', { name: /^Tempo limite/ }), '30');
    await user.click(within(drawer).getByRole('button', { name: 'Criar agendamento' }));
    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/scheduling/api/v1/create')[0]?.body).toMatchObject({
      name: 'Notas',
      trigger_type: 'cron',
      cron: '0 7 * * 1-5',
      time_zone: null,
      missed_runs: 'skip',
      rota_calendars_id: null,
      timeout_minutes: 30,
    });
    expect(callsTo(calls, '/scheduling/api/v1/create')[0]?.body).not.toHaveProperty(
      'interval_minutes',
    );
  });

  it('edits a queue trigger, sending its limits and not the interval', async () => {
    const { user, calls } = await openSchedulings();
    await user.click(await screen.findByRole('button', { name: 'Ações de Fila de boletos' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar agendamento' });
    expect(within(drawer).getByRole('radio', { name: 'Fila' })).toBeChecked();
    const max = within(drawer).getByRole('textbox', { name: /^Máximo de execuções simultâneas/ });
    expect(max).toHaveValue('2');
    await user.clear(max);
    await user.type(max, '5');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/update')).toHaveLength(1));
    const body = callsTo(calls, '/scheduling/api/v1/update')[0]?.body;
    expect(body).toMatchObject({ id: 5, trigger_type: 'queue', min_pending: 3, max_concurrent: 5 });
    expect(body).not.toHaveProperty('interval_minutes');
    expect(body).not.toHaveProperty('cron');
  });

  it('speaks English', async () => {
    const { user } = await openSchedulings({ lang: 'en' });
    const table = await screen.findByRole('table', { name: 'Schedulings' });
    expect(within(table).getByRole('columnheader', { name: 'Next run' })).toBeVisible();
    expect(within(table).getByText('Queue (≥ 3 pending tasks)')).toBeInTheDocument();
    const drawer = await openCreate(user, 'New scheduling');
    const trigger = within(drawer).getByRole('radiogroup', { name: 'Trigger' });
    for (const name of ['Interval', 'Cron', 'Queue']) {
      expect(within(trigger).getByRole('radio', { name })).toBeInTheDocument();
    }
    await user.click(within(trigger).getByRole('radio', { name: 'Cron' }));
    expect(within(drawer).getByRole('combobox', { name: /^Time zone/ })).toHaveAttribute(
      'placeholder',
      "Server's time zone",
    );
    expect(within(drawer).getByRole('radio', { name: 'Run once' })).toBeChecked();
    await user.type(within(drawer).getByRole('textbox', { name: /^Cron expression/ }), '0 7 * * *');
    const list = await within(drawer).findByRole('list', {
      name: `Next runs (your time zone, ${browserTimeZone()})`,
    });
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent(
      formatDateTime(NEXT[0], 'en'),
    );
  });
});
