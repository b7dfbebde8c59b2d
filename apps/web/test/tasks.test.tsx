import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import { expirationInstantOf, taskDataOf } from '../src/features/tasks/components/task-form-drawer';
import { setToken } from '../src/lib/session';
import { makeRobot, makeRobotField, makeTask, makeUser } from './fixtures';
import { mockFetch, page, type MockCall, type MockReply } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

const ALL = [
  'ROBOS.LIST',
  'ATIVIDADES.LIST',
  'ATIVIDADES.CREATE',
  'ATIVIDADES.UPDATE',
  'ATIVIDADES.DELETE',
];

const robot = makeRobot();
const fields = [
  makeRobotField({ rota_robot_fields_id: 1, name: 'customer', label: 'Cliente', required: true }),
  makeRobotField({ rota_robot_fields_id: 2, name: 'amount', label: 'Valor', type: 'number' }),
  makeRobotField({ rota_robot_fields_id: 3, name: 'urgent', label: 'Urgente', type: 'boolean' }),
  makeRobotField({ rota_robot_fields_id: 4, name: 'due', label: 'Vencimento', type: 'date' }),
  makeRobotField({ rota_robot_fields_id: 5, name: 'extra', label: 'Extra', type: 'json' }),
];
const pending = makeTask();
const failed = makeTask({
  rota_tasks_id: 101,
  label: null,
  status: 'business_error',
  business_error: 'CPF inválido',
  attempts: 2,
  priority: 80,
});

type Handler = (call: MockCall) => MockReply | undefined;

async function openTasks(
  options: { permissions?: string[]; path?: string; lang?: Language; handler?: Handler } = {},
) {
  await resetEnvironment(options.lang ?? 'pt');
  setToken('token');
  const { calls } = mockFetch((call) => {
    const custom = options.handler?.(call);
    if (custom) return custom;
    const { url } = call;
    if (url.endsWith('/me')) {
      return { status: 200, body: makeUser({ permissions: options.permissions ?? ALL }) };
    }
    if (url.endsWith('/task/api/v1/index')) return { status: 200, body: page([pending, failed]) };
    if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: page([robot]) };
    if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: robot } };
    if (url.endsWith('/field/api/v1/index')) return { status: 200, body: page(fields) };
    if (url.endsWith('/task/api/v1/create')) {
      return { status: 201, body: { message: 'Criado!', data: makeTask() } };
    }
    if (url.endsWith('/task/api/v1/retry')) {
      return {
        status: 200,
        body: { message: 'Tarefas enfileiradas novamente', data: { count: 2 } },
      };
    }
    if (url.endsWith('/task/api/v1/delete_many')) {
      return { status: 202, body: { message: 'Tarefas removidas', data: { count: 2 } } };
    }
    if (url.endsWith('/task/api/v1/delete')) return { status: 202, body: { message: 'Removido!' } };
    throw new Error(`unexpected ${url}`);
  });
  const view = renderWithRouter({ path: options.path ?? '/task' });
  await screen.findByRole('heading', { name: /Tarefas|Tasks/, level: 1 }, { timeout: 5000 });
  return { ...view, calls };
}

const callsTo = (calls: MockCall[], suffix: string) => calls.filter((c) => c.url.endsWith(suffix));

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/task', { timeout: 20_000 }, () => {
  it('lists tasks with label, robot, status, priority, attempts, expiration and creation', async () => {
    const { calls } = await openTasks();
    const table = await screen.findByRole('table', { name: 'Tarefas' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual([
      '',
      'Rótulo',
      'Robô',
      'Status',
      'SLA',
      'Prazo',
      'Prioridade',
      'Tentativas',
      'Data de expiração',
      'Criada em',
      'Ações',
    ]);
    expect(within(table).getByText('Fatura 42')).toBeInTheDocument();
    expect(within(table).getByText('Pendente')).toBeInTheDocument();
    expect(within(table).getByText('Erro de negócio')).toBeInTheDocument();
    expect(within(table).getByText('CPF inválido')).toBeInTheDocument();
    expect(within(table).getAllByRole('link', { name: 'Faturas' })[0]).toHaveAttribute(
      'href',
      '/robot/1?tab=tasks',
    );
    expect(callsTo(calls, '/task/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
    });
  });

  it('filters by robot, status and date range from the URL', async () => {
    const { calls } = await openTasks({
      path: '/task?rota_robots_id=1&status=business_error&startDate=2026-01-01&endDate=2026-01-31',
    });
    await screen.findByRole('table', { name: 'Tarefas' });
    expect(callsTo(calls, '/task/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
      rota_robots_id: 1,
      status: 'business_error',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    expect(screen.getByLabelText('Data inicial')).toHaveValue('01/01/2026');
    expect(screen.getByLabelText('Data final')).toHaveValue('31/01/2026');
    expect(await screen.findByRole('combobox', { name: 'Robô' })).toHaveValue('Faturas');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Erro de negócio');
  });

  it('does not send a range that ends before it starts, and says why', async () => {
    const { calls } = await openTasks({ path: '/task?startDate=2026-02-10&endDate=2026-02-01' });
    await screen.findByRole('table', { name: 'Tarefas' });
    expect(
      screen.getByText('A data final não pode ser anterior à data inicial'),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/task/api/v1/index')[0]?.body).not.toHaveProperty('endDate');
  });

  it('changing the status filter writes it to the URL', async () => {
    const { router, user } = await openTasks({ path: '/task?page=2' });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Expirada' }));
    expect(router.state.location.search).toBe('?status=expired');
  });

  it('retries the selected tasks at once, after confirming', async () => {
    const { calls, user } = await openTasks();
    await screen.findByRole('table', { name: 'Tarefas' });
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar todos desta página' }));
    expect(screen.getByText('2 selecionados')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reprocessar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reprocessar 2 tarefas?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reprocessar' }));
    await waitFor(() => expect(callsTo(calls, '/retry')).toHaveLength(1));
    expect(callsTo(calls, '/retry')[0]?.body).toEqual({ ids: [100, 101] });
    expect(await screen.findByText('Tarefas enfileiradas novamente')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('2 selecionados')).not.toBeInTheDocument());
  });

  it('deletes the selected tasks at once (delete_many), after confirming', async () => {
    const { calls, user } = await openTasks();
    await screen.findByRole('table', { name: 'Tarefas' });
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Fatura 42' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Tarefa #101' }));
    await user.click(screen.getByRole('button', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir 2 tarefas?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/delete_many')).toHaveLength(1));
    expect(callsTo(calls, '/delete_many')[0]?.body).toEqual({ ids: [100, 101] });
  });

  it('deletes one task from its row menu, naming it', async () => {
    const { calls, user } = await openTasks();
    await user.click(await screen.findByRole('button', { name: 'Ações de Fatura 42' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir a tarefa “Fatura 42”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/task/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/task/api/v1/delete')[0]?.body).toEqual({ id: 100 });
  });

  it('hides "Nova tarefa", selection and row actions from a user who may only list', async () => {
    await openTasks({ permissions: ['ATIVIDADES.LIST', 'ROBOS.LIST'] });
    const table = await screen.findByRole('table', { name: 'Tarefas' });
    expect(screen.queryByRole('button', { name: 'Nova tarefa' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de Fatura 42' })).not.toBeInTheDocument();
  });
});

describe('new task form', { timeout: 20_000 }, () => {
  async function openForm(options: { lang?: Language; handler?: Handler } = {}) {
    const view = await openTasks(options);
    const newTask = options.lang === 'en' ? 'New task' : 'Nova tarefa';
    await view.user.click(screen.getByRole('button', { name: newTask }));
    const dialog = await screen.findByRole('dialog', { name: newTask });
    return { ...view, dialog };
  }

  async function chooseRobot(
    user: ReturnType<typeof renderWithRouter>['user'],
    dialog: HTMLElement,
  ) {
    await user.click(within(dialog).getByRole('combobox', { name: /Robô|Robot/ }));
    await user.click(await screen.findByRole('option', { name: 'Faturas' }));
  }

  it('asks for a robot first, then shows one input per field, by type', async () => {
    const { user, dialog, calls } = await openForm();
    expect(
      within(dialog).getByText('Escolha um robô para preencher seus campos.'),
    ).toBeInTheDocument();
    await chooseRobot(user, dialog);

    // text → TextInput, number → NumberInput, boolean → Switch, date → date input, json → Textarea
    const customer = await within(dialog).findByRole('textbox', { name: /Cliente/ });
    expect(customer.tagName).toBe('INPUT');
    expect(customer).toHaveAttribute('type', 'text');
    expect(
      within(dialog).getByRole('textbox', { name: 'Valor' }).getAttribute('inputmode'),
    ).toMatch(/numeric|decimal/);
    expect(within(dialog).getByRole('switch', { name: 'Urgente' })).not.toBeChecked();
    // A day typed as the pt console shows it, not as the browser's language would.
    expect(within(dialog).getByLabelText('Vencimento')).toHaveAttribute(
      'placeholder',
      'dd/mm/aaaa',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Extra' }).tagName).toBe('TEXTAREA');
    expect(callsTo(calls, '/field/api/v1/index')[0]?.body).toMatchObject({ rota_robots_id: 1 });
  });

  it('sends typed data: numbers, booleans, dates, parsed JSON; blanks left out', async () => {
    const { user, dialog, calls } = await openForm();
    await chooseRobot(user, dialog);
    await user.type(await within(dialog).findByRole('textbox', { name: /Cliente/ }), 'ACME');
    await user.type(within(dialog).getByRole('textbox', { name: 'Valor' }), '12.5');
    await user.click(within(dialog).getByRole('switch', { name: 'Urgente' }));
    await user.type(within(dialog).getByLabelText('Vencimento'), '31/01/2030');
    await user.click(within(dialog).getByRole('textbox', { name: 'Extra' }));
    await user.paste('{"ids": [1, 2]}');
    await user.type(within(dialog).getByLabelText('Rótulo'), 'Lote 7');
    const priority = within(dialog).getByRole('textbox', { name: 'Prioridade' });
    await user.clear(priority);
    await user.type(priority, '90');
    const expiration = within(dialog).getByLabelText('Data de expiração', { exact: false });
    await user.clear(expiration);
    await user.type(expiration, '01/02/2030 18:30');
    await user.click(within(dialog).getByRole('button', { name: 'Criar tarefa' }));

    await waitFor(() => expect(callsTo(calls, '/task/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/task/api/v1/create')[0]?.body).toEqual({
      rota_robots_id: 1,
      label: 'Lote 7',
      data: {
        customer: 'ACME',
        amount: 12.5,
        urgent: true,
        due: '2030-01-31',
        extra: { ids: [1, 2] },
      },
      priority: 90,
      expiration_date: new Date('2030-02-01T18:30').toISOString(),
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Nova tarefa' })).not.toBeInTheDocument(),
    );
  });

  it('sends the deadline and the not-before moment as instants; blank ones are left out', async () => {
    const { user, dialog, calls } = await openForm();
    await chooseRobot(user, dialog);
    await user.type(await within(dialog).findByRole('textbox', { name: /Cliente/ }), 'ACME');
    await user.type(within(dialog).getByRole('textbox', { name: 'Valor' }), '1');
    await user.type(within(dialog).getByLabelText('Prazo', { exact: false }), '01/02/2030 12:00');
    await user.click(within(dialog).getByRole('button', { name: 'Criar tarefa' }));
    await waitFor(() => expect(callsTo(calls, '/task/api/v1/create')).toHaveLength(1));
    const body = callsTo(calls, '/task/api/v1/create')[0]?.body as Record<string, unknown>;
    expect(body.deadline).toBe(new Date('2030-02-01T12:00').toISOString());
    expect(body).not.toHaveProperty('postpone_until');
  });

  it('checks required fields and JSON before sending', async () => {
    const { user, dialog, calls } = await openForm();
    await user.click(within(dialog).getByRole('button', { name: 'Criar tarefa' }));
    expect(await within(dialog).findByText('Robô obrigatório')).toBeInTheDocument();

    await chooseRobot(user, dialog);
    await user.type(await within(dialog).findByRole('textbox', { name: 'Extra' }), 'not json');
    const expiration = within(dialog).getByLabelText('Data de expiração', { exact: false });
    await user.clear(expiration);
    await user.click(within(dialog).getByRole('button', { name: 'Criar tarefa' }));
    expect(await within(dialog).findByText('Campo obrigatório')).toBeInTheDocument();
    expect(within(dialog).getByText('Deve ser JSON')).toBeInTheDocument();
    expect(within(dialog).getByText('Data de expiração obrigatória')).toBeInTheDocument();
    expect(callsTo(calls, '/task/api/v1/create')).toHaveLength(0);
  });

  it.each([
    ['pt', 'Dados (JSON)', 'Deve ser um objeto JSON, como {"fatura": 123}', 'Criar tarefa'],
    ['en', 'Data (JSON)', 'Must be a JSON object, such as {"invoice": 123}', 'Create task'],
  ] as const)(
    '%s: a robot without fields takes any JSON object as its data',
    async (lang, label, notObject, create) => {
      const { user, dialog, calls } = await openForm({
        lang,
        handler: ({ url }) =>
          url.endsWith('/field/api/v1/index') ? { status: 200, body: page([]) } : undefined,
      });
      await chooseRobot(user, dialog);
      const data = await within(dialog).findByRole('textbox', { name: label });
      await user.click(data);
      await user.paste('[1, 2]');
      await user.click(within(dialog).getByRole('button', { name: create }));
      expect(await within(dialog).findByText(notObject)).toBeInTheDocument();
      expect(callsTo(calls, '/task/api/v1/create')).toHaveLength(0);
      await user.clear(data);
      await user.click(data);
      await user.paste('{"invoice": 123, "lines": [{"sku": "A"}]}');
      await user.click(within(dialog).getByRole('button', { name: create }));
      await waitFor(() => expect(callsTo(calls, '/task/api/v1/create')).toHaveLength(1));
      expect(callsTo(calls, '/task/api/v1/create')[0]?.body).toMatchObject({
        rota_robots_id: 1,
        data: { invoice: 123, lines: [{ sku: 'A' }] },
      });
    },
  );

  it('shows the server’s data.<field> errors under that field', async () => {
    const { user, dialog } = await openForm({
      handler: ({ url }) =>
        url.endsWith('/task/api/v1/create')
          ? {
              status: 400,
              body: {
                code: 'invalid_input',
                message: 'Alguns campos não são válidos',
                errors: [{ field: 'data.customer', message: 'Cliente bloqueado' }],
              },
            }
          : undefined,
    });
    await chooseRobot(user, dialog);
    await user.type(await within(dialog).findByRole('textbox', { name: /Cliente/ }), 'ACME');
    await user.click(within(dialog).getByRole('button', { name: 'Criar tarefa' }));
    expect(await within(dialog).findByText('Cliente bloqueado')).toBeInTheDocument();
  });

  it('speaks English', async () => {
    const { user, dialog } = await openForm({ lang: 'en' });
    await user.click(within(dialog).getByRole('button', { name: 'Create task' }));
    expect(await within(dialog).findByText('Required robot')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Expiration date', { exact: false })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Priority' })).toHaveValue('50');
  });
});

describe('task data conversion', () => {
  it('reads each input as its field’s type', () => {
    expect(
      taskDataOf(fields, {
        customer: '  ',
        amount: '',
        urgent: false,
        due: '',
        extra: '[1]',
      }),
    ).toEqual({ data: { urgent: false, extra: [1] }, issues: [] });
    expect(taskDataOf(fields, { amount: 'abc', extra: '{' }).issues).toEqual([
      { name: 'amount', message: 'invalid_type_number' },
      { name: 'extra', message: 'invalid_type_json' },
    ]);
  });

  it('sends a local date-time as an instant with offset', () => {
    expect(expirationInstantOf('2030-02-01T18:30')).toBe(
      new Date(2030, 1, 1, 18, 30).toISOString(),
    );
    expect(expirationInstantOf('')).toBe('');
    expect(expirationInstantOf('2030-02-01T18:30:00Z')).toBe('2030-02-01T18:30:00Z');
  });
});
