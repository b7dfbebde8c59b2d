// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Calendar, Language } from '@rota/contract';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage, openRowAction } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';
import { parseDateList, todayIn } from './components/calendar-days';

const ALL = [
  'AGENDAMENTOS.LIST',
  'AGENDAMENTOS.CREATE',
  'AGENDAMENTOS.UPDATE',
  'AGENDAMENTOS.DELETE',
];
const STAMP = '2026-11-01T12:00:00.000Z';
// Noon UTC: the same day in every zone the tests may run in.
const NOW = new Date('2026-11-24T12:00:00.000Z');

function makeCalendar(overrides: Partial<Calendar> = {}): Calendar {
  return {
    rota_calendars_id: 1,
    name: 'Feriados SP',
    time_zone: 'America/Sao_Paulo',
    excluded_dates: ['2026-11-20', '2026-12-25', '2027-01-01'],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

const holidays = makeCalendar();
const empty = makeCalendar({
  rota_calendars_id: 2,
  name: 'Vazio',
  time_zone: 'UTC',
  excluded_dates: [],
});

async function openCalendars(
  permissions: string[] = ALL,
  options: { lang?: Language; reply?: (call: MockCall) => MockReply | undefined } = {},
) {
  return openPage(
    '/scheduling/calendar',
    /Calendários de dias úteis|Business calendars/,
    permissions,
    (call) => {
      const custom = options.reply?.(call);
      if (custom) return custom;
      if (call.url.endsWith('/rota/calendar/api/v1/index')) {
        return { status: 200, body: listOf([holidays, empty]) };
      }
      if (call.url.endsWith('/rota/calendar/api/v1/create')) {
        return { status: 201, body: { message: 'Criado!', data: holidays } };
      }
      if (call.url.endsWith('/rota/calendar/api/v1/update')) return { status: 204 };
      if (call.url.endsWith('/rota/calendar/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  // Only the date is fixed (timers stay real, so user-event and debounces run as usual).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  await resetEnvironment('pt');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('parseDateList', () => {
  it('reads ISO days and the language’s own writing, split by lines, commas and semicolons', () => {
    expect(parseDateList('2026-12-25\n25/12/2026; 1/1/2027 , 2027-04-21', 'pt')).toEqual({
      dates: ['2026-12-25', '2026-12-25', '2027-01-01', '2027-04-21'],
      invalid: [],
    });
    // MM/DD/YYYY in English.
    expect(parseDateList('12/25/2026, 07/04/2027', 'en').dates).toEqual([
      '2026-12-25',
      '2027-07-04',
    ]);
  });

  it('reports what is not a real day instead of dropping it', () => {
    expect(parseDateList('2026-02-30\n31/04/2026\nNatal\n2026-13-01\n\n;2026-05-01', 'pt')).toEqual(
      {
        dates: ['2026-05-01'],
        invalid: ['2026-02-30', '31/04/2026', 'Natal', '2026-13-01'],
      },
    );
    // 25/12 is no month in English.
    expect(parseDateList('25/12/2026', 'en').invalid).toEqual(['25/12/2026']);
  });

  it('knows today in a time zone', () => {
    const late = new Date('2026-11-25T01:30:00.000Z');
    expect(todayIn('UTC', late)).toBe('2026-11-25');
    expect(todayIn('America/Sao_Paulo', late)).toBe('2026-11-24');
  });
});

describe('/scheduling/calendar', { timeout: 30_000 }, () => {
  it('lists the calendars with their time zone and number of excluded dates', async () => {
    const { calls } = await openCalendars();
    const table = await screen.findByRole('table', { name: 'Calendários de dias úteis' });
    expect(callsTo(calls, '/calendar/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Feriados SP')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('America/Sao_Paulo')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('3')).toBeInTheDocument();
    // Upcoming excluded days (after today, 24/11/2026), in pt.
    expect(within(rows[1]!).getByText('25/12/2026, 01/01/2027')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('0')).toBeInTheDocument();
  });

  it('creates a calendar with days toggled in the month view, by mouse and keyboard', async () => {
    const { user, calls } = await openCalendars();
    await user.click(await screen.findByRole('button', { name: 'Novo calendário' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo calendário' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Feriados');
    const grid = within(drawer).getByRole('grid', { name: 'Novembro de 2026' });

    // Today is marked; weekends are days like the others.
    const today = within(grid).getByRole('button', { name: /24 de novembro de 2026, hoje/ });
    expect(today).toHaveAttribute('aria-current', 'date');
    expect(today).toHaveAttribute('aria-pressed', 'false');

    const tomorrow = within(grid).getByRole('button', { name: /quarta-feira, 25 de novembro/ });
    await user.click(tomorrow);
    expect(tomorrow).toHaveAttribute('aria-pressed', 'true');
    expect(tomorrow).toHaveAccessibleName(/excluído/);
    expect(within(drawer).getByText('1 data excluída')).toBeInTheDocument();
    // A second click includes it again; a third excludes it for good.
    await user.click(tomorrow);
    expect(tomorrow).toHaveAttribute('aria-pressed', 'false');
    await user.click(tomorrow);

    // Keyboard: the arrows move a day or a week, into the next month; Enter toggles.
    fireEvent.keyDown(tomorrow, { key: 'ArrowDown' });
    const nextWeek = await within(drawer).findByRole('button', { name: /, 2 de dezembro de 2026/ });
    await waitFor(() => expect(nextWeek).toHaveFocus());
    expect(within(drawer).getByRole('grid', { name: 'Dezembro de 2026' })).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(nextWeek).toHaveAttribute('aria-pressed', 'true');

    // The month buttons move back.
    await user.click(within(drawer).getByRole('button', { name: 'Mês anterior' }));
    expect(within(drawer).getByRole('grid', { name: 'Novembro de 2026' })).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Criar calendário' }));
    await waitFor(() => expect(callsTo(calls, '/calendar/api/v1/create')).toHaveLength(1));
    // No zone chosen: left out, the server's applies.
    expect(callsTo(calls, '/calendar/api/v1/create')[0]?.body).toEqual({
      name: 'Feriados',
      excluded_dates: ['2026-11-25', '2026-12-02'],
    });
  });

  it('imports pasted dates, reporting the lines that are not dates', async () => {
    const { user, calls } = await openCalendars();
    await openRowAction(user, 'Vazio', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar calendário' });
    const box = within(drawer).getByRole('textbox', { name: /^Importar datas/ });
    await user.click(box);
    await user.paste('2026-12-25\n01/01/2027; 31/02/2027, feriado\n2026-11-30');
    await user.click(within(drawer).getByRole('button', { name: 'Adicionar datas' }));

    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent('2 entradas não são datas');
    expect(alert).toHaveTextContent('3 datas adicionadas.');
    expect(within(alert).getByText('31/02/2027')).toBeInTheDocument();
    expect(within(alert).getByText('feriado')).toBeInTheDocument();
    // The bad lines stay in the box to be fixed.
    expect(box).toHaveValue('31/02/2027\nferiado');
    // The imported day of this month shows excluded.
    expect(
      within(drawer).getByRole('button', { name: /30 de novembro de 2026, excluído/ }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(within(drawer).getByText('3 datas excluídas')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/calendar/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/calendar/api/v1/update')[0]?.body).toEqual({
      id: 2,
      name: 'Vazio',
      time_zone: 'UTC',
      excluded_dates: ['2026-11-30', '2026-12-25', '2027-01-01'],
    });
  });

  it('shows the server’s reason when a calendar in use cannot be deleted', async () => {
    const message = 'O calendário é usado por um agendamento';
    const { user } = await openCalendars(ALL, {
      reply: (call) =>
        call.url.endsWith('/rota/calendar/api/v1/delete')
          ? {
              status: 409,
              body: { message, errors: [{ field: 'id', message }] },
            }
          : undefined,
    });
    await openRowAction(user, 'Feriados SP', 'Excluir');
    const dialog = await screen.findByRole('dialog', {
      name: 'Excluir o calendário “Feriados SP”?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
  });

  it('leaves a user who may only list the way to the schedulings that use a calendar', async () => {
    const { user, router } = await openCalendars(['AGENDAMENTOS.LIST']);
    await screen.findByRole('table', { name: 'Calendários de dias úteis' });
    expect(screen.queryByRole('button', { name: 'Novo calendário' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ações de Feriados SP' }));
    expect(await screen.findAllByRole('menuitem')).toHaveLength(1);
    expect(screen.queryByRole('menuitem', { name: 'Editar' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Agendamentos que o usam' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scheduling'));
    expect(router.state.location.search).toBe('?rota_calendars_id=1');
  });

  it('speaks English, MM/DD/YYYY imports included', async () => {
    const { user, calls } = await openCalendars(ALL, { lang: 'en' });
    const table = await screen.findByRole('table', { name: 'Business calendars' });
    expect(within(table).getByRole('columnheader', { name: 'Time zone' })).toBeInTheDocument();
    expect(within(table).getByText('12/25/2026, 01/01/2027')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New calendar' }));
    const drawer = await screen.findByRole('dialog', { name: 'New calendar' });
    expect(within(drawer).getByRole('grid', { name: 'November 2026' })).toBeInTheDocument();
    expect(within(drawer).getByRole('combobox', { name: /^Time zone/ })).toHaveAttribute(
      'placeholder',
      "Server's time zone",
    );
    await user.type(within(drawer).getByRole('textbox', { name: /^Name/ }), 'US holidays');
    await user.click(within(drawer).getByRole('textbox', { name: /^Import dates/ }));
    await user.paste('11/26/2026\n26/11/2026');
    await user.click(within(drawer).getByRole('button', { name: 'Add dates' }));
    expect(await within(drawer).findByRole('alert')).toHaveTextContent('1 entry is not a date');
    expect(
      within(drawer).getByRole('button', { name: /Thursday, November 26, 2026, excluded/ }),
    ).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(drawer).getByRole('button', { name: 'Create calendar' }));
    await waitFor(() => expect(callsTo(calls, '/calendar/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/calendar/api/v1/create')[0]?.body).toEqual({
      name: 'US holidays',
      excluded_dates: ['2026-11-26'],
    });
  });
});
