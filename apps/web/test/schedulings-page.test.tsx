import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, Scheduling } from '@rota/contract';
import { makeRobot } from './fixtures';
import type { MockCall } from './http-mock';
import { resetEnvironment } from './render';
import { callsTo, listOf, makeScheduling, makeVm, openPage } from './operations-fixtures';

const ALL = [
  'AGENDAMENTOS.LIST',
  'AGENDAMENTOS.CREATE',
  'AGENDAMENTOS.UPDATE',
  'AGENDAMENTOS.DELETE',
  'ROBOS.LIST',
  'AGENTES.LIST',
];

const hourly = makeScheduling();
const quarter = makeScheduling({
  rota_schedulings_id: 2,
  name: 'Boletos',
  rota_robots_id: 2,
  rota_robots_name: 'Boletos',
  interval_minutes: 15,
  timeout_minutes: 120,
  active: false,
  vms: [
    { rota_vms_id: 1, name: 'vm-a' },
    { rota_vms_id: 2, name: 'vm-b' },
    { rota_vms_id: 3, name: 'vm-c' },
    { rota_vms_id: 4, name: 'vm-d' },
  ],
});
const removed = makeScheduling({
  rota_schedulings_id: 3,
  name: 'Antigo',
  interval_minutes: 2880,
  vms: [],
  deleted_at: '2024-05-02T10:00:00.000Z',
});

/** The answer follows the `deleted` the request asks for, like the server. */
function answerFor(body: unknown): Scheduling[] {
  const deleted = (body as { deleted?: string }).deleted;
  if (deleted === 'deleted') return [removed];
  if (deleted === 'all') return [hourly, quarter, removed];
  return [hourly, quarter];
}

async function openSchedulings(
  permissions: string[],
  options: { lang?: Language; path?: string } = {},
) {
  return openPage(
    options.path ?? '/scheduling',
    /Agendamentos|Schedulings/,
    permissions,
    ({ url, body }: MockCall) => {
      if (url.endsWith('/rota/scheduling/api/v1/index')) {
        return { status: 200, body: listOf(answerFor(body)) };
      }
      if (url.endsWith('/rota/robot/api/v1/index')) {
        return {
          status: 200,
          body: listOf([makeRobot(), makeRobot({ rota_robots_id: 2, name: 'Boletos' })]),
        };
      }
      if (url.endsWith('/rota/vm/api/v1/index')) {
        return {
          status: 200,
          body: listOf([makeVm(), makeVm({ rota_vms_id: 2, name: 'vm-rh' })]),
        };
      }
      if (url.endsWith('/rota/scheduling/api/v1/create')) {
        return { status: 201, body: { message: 'Criado!', data: hourly } };
      }
      if (url.endsWith('/rota/scheduling/api/v1/update')) return { status: 204 };
      if (url.endsWith('/rota/scheduling/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      if (url.endsWith('/rota/scheduling/api/v1/restore')) {
        return { status: 200, body: { message: 'Restaurado!' } };
      }
      return undefined;
    },
    options.lang,
  );
}

const indexBodies = (calls: MockCall[]) =>
  callsTo(calls, '/scheduling/api/v1/index').map((call) => call.body as Record<string, unknown>);

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/scheduling', { timeout: 20_000 }, () => {
  it('lists the not deleted schedulings by default, intervals humanised', async () => {
    const { calls } = await openSchedulings(ALL);
    const table = await screen.findByRole('table', { name: 'Agendamentos' });
    expect(indexBodies(calls)[0]).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
      deleted: 'not_deleted',
    });
    expect(screen.getByRole('radio', { name: 'Agendamentos não excluídos' })).toBeChecked();
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).not.toContain('Excluído em');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('a cada hora')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('30 min')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('link', { name: 'Faturas' })).toHaveAttribute(
      'href',
      '/robot/1',
    );
    expect(within(rows[1]!).getByText('vm-financeiro')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Ativo')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('a cada 15 min')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('2 horas')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Inativo')).toBeInTheDocument();
    // Three VM badges, then how many more.
    expect(within(rows[2]!).getByText('vm-c')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('vm-d')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('+1')).toBeInTheDocument();
  });

  it('writes the segmented filter to the request and the URL', async () => {
    const { calls, user, router } = await openSchedulings(ALL);
    await screen.findByRole('table', { name: 'Agendamentos' });
    const filter = screen.getByRole('radiogroup', { name: 'Quais agendamentos' });

    await user.click(within(filter).getByRole('radio', { name: 'Agendamentos excluídos' }));
    await waitFor(() => expect(indexBodies(calls).at(-1)?.deleted).toBe('deleted'));
    expect(router.state.location.search).toBe('?deleted=deleted');
    const table = await screen.findByRole('table', { name: 'Agendamentos' });
    expect(await within(table).findByText('Antigo')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Excluído em' })).toBeInTheDocument();
    expect(within(table).getByText('a cada 2 dias')).toBeInTheDocument();

    await user.click(within(filter).getByRole('radio', { name: 'Todos os agendamentos' }));
    await waitFor(() => expect(indexBodies(calls).at(-1)?.deleted).toBe('all'));
    expect(router.state.location.search).toBe('?deleted=all');

    await user.click(within(filter).getByRole('radio', { name: 'Agendamentos não excluídos' }));
    await waitFor(() => expect(indexBodies(calls).at(-1)?.deleted).toBe('not_deleted'));
    // The default keeps the URL clean.
    expect(router.state.location.search).toBe('');
  });

  it('reads the filter from the URL', async () => {
    const { calls } = await openSchedulings(ALL, { path: '/scheduling?deleted=deleted&page=2' });
    await screen.findByRole('table', { name: 'Agendamentos' });
    expect(indexBodies(calls)[0]).toMatchObject({ deleted: 'deleted', page: 2 });
    expect(screen.getByRole('radio', { name: 'Agendamentos excluídos' })).toBeChecked();
  });

  it('offers restore only on deleted rows, edit and delete only on the others', async () => {
    const { user, calls } = await openSchedulings(ALL, { path: '/scheduling?deleted=all' });
    await screen.findByRole('table', { name: 'Agendamentos' });

    await user.click(await screen.findByRole('button', { name: 'Ações de Antigo' }));
    expect(await screen.findByRole('menuitem', { name: 'Restaurar' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Editar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Excluir' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Restaurar' }));
    await waitFor(() => expect(callsTo(calls, '/restore')).toHaveLength(1));
    expect(callsTo(calls, '/restore')[0]?.body).toEqual({ id: 3 });
    expect(await screen.findByText('Restaurado!')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Ações de Boletos' }));
    expect(await screen.findByRole('menuitem', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Excluir' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Restaurar' })).not.toBeInTheDocument();
  });

  it('asks before the soft delete, naming the scheduling', async () => {
    const { user, calls } = await openSchedulings(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Boletos' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o agendamento “Boletos”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/scheduling/api/v1/delete')[0]?.body).toEqual({ id: 2 });
  });

  it('hides "Novo agendamento" and every row action from a user who may only list', async () => {
    await openSchedulings(['AGENDAMENTOS.LIST'], { path: '/scheduling?deleted=all' });
    await screen.findByRole('table', { name: 'Agendamentos' });
    expect(screen.queryByRole('button', { name: 'Novo agendamento' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Ações de/ })).not.toBeInTheDocument();
    // Without ROBOS.LIST, no robot filter (its options would be refused) and no robot links.
    expect(screen.queryByRole('combobox', { name: 'Robô' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Faturas' })).not.toBeInTheDocument();
  });

  it('creates a scheduling with its robot and VMs', async () => {
    const { user, calls } = await openSchedulings(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo agendamento' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo agendamento' });
    await user.click(within(drawer).getByRole('button', { name: 'Criar agendamento' }));
    expect(await within(drawer).findByText('Nome obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByText('Robô obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByText('Intervalo obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByText('Tempo limite obrigatório')).toBeInTheDocument();

    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Notas diárias');
    await user.click(within(drawer).getByRole('combobox', { name: /^Robô/ }));
    await user.click(await screen.findByRole('option', { name: 'Boletos' }));
    await user.type(
      within(drawer).getByRole('textbox', { name: /^Intervalo \(minutos\)/ }),
      '1440',
    );
    await user.type(
      within(drawer).getByRole('textbox', { name: /^Tempo limite \(minutos\)/ }),
      '45',
    );
    await user.click(within(drawer).getByRole('combobox', { name: /^VMs/ }));
    await user.click(await screen.findByRole('option', { name: 'vm-rh' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar agendamento' }));

    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/scheduling/api/v1/create')[0]?.body).toEqual({
      name: 'Notas diárias',
      rota_robots_id: 2,
      trigger_type: 'interval',
      interval_minutes: 1440,
      missed_runs: 'run_once',
      rota_calendars_id: null,
      // The contract's defaults, whatever the trigger.
      min_pending: 1,
      max_concurrent: 1,
      timeout_minutes: 45,
      retries: 0,
      priority: 50,
      sleep: 0,
      active: true,
      vms: [2],
      labels: [],
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).not.toBeInTheDocument(),
    );
  });

  it('edits a scheduling with its VMs chosen, sending the whole set', async () => {
    const { user, calls } = await openSchedulings(ALL);
    await user.click(
      await screen.findByRole('button', { name: 'Ações de Faturas de hora em hora' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar agendamento' });
    // The scheduling's VMs come chosen (the form's hidden value) with their names as pills.
    expect(drawer.querySelector('input[type="hidden"][name="vms"]')).toHaveValue('1');
    expect(within(drawer).getAllByText('vm-financeiro').length).toBeGreaterThan(0);
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/update')).toHaveLength(1));
    const update = callsTo(calls, '/scheduling/api/v1/update')[0];
    expect(update?.method).toBe('PUT');
    expect(update?.body).toMatchObject({ id: 1, interval_minutes: 60, vms: [1] });
  });

  it('names the filters and the form in English', async () => {
    const { user } = await openSchedulings(ALL, { lang: 'en' });
    const filter = await screen.findByRole('radiogroup', { name: 'Which schedulings' });
    for (const name of ['All schedulings', 'Not deleted schedulings', 'Deleted schedulings']) {
      expect(within(filter).getByRole('radio', { name })).toBeInTheDocument();
    }
    const table = await screen.findByRole('table', { name: 'Schedulings' });
    expect(within(table).getByText('every hour')).toBeInTheDocument();
    expect(within(table).getByText('every 15 min')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New scheduling' }));
    const drawer = await screen.findByRole('dialog', { name: 'New scheduling' });
    for (const label of ['Interval (minutes)', 'Timeout (minutes)', 'Retries', 'Priority']) {
      expect(
        within(drawer).getByRole('textbox', {
          name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`),
        }),
      ).toBeInTheDocument();
    }
    expect(within(drawer).getByRole('textbox', { name: /^Sleep \(seconds\)/ })).toBeInTheDocument();
  });
});
